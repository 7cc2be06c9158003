import type { FastifyRequest } from 'fastify';
import {
  AppError,
  OAUTH_PREFIX,
  isSafeMethod,
  type App,
  type AuthorizationServer,
  type Rate,
  type RateLimiter,
  type Logger,
  type SessionUser,
  type WebSessions,
} from '@switchboard/core';
import { FlowsError } from '../domain/errors.ts';
import type { OrgStore, Principal, TokenScope } from '../store/org-store.ts';

/** Checks the caller of a request (bearer token, or else session cookie) for an organization and scope, and counts it against the rate limit. */
export type Authorize = (request: FastifyRequest, orgCode: string, scope: TokenScope, flowSlug?: string) => Promise<Principal>;

/** What the authorizer reads: tokens and organizations, the rate limiter, and the web UI's sessions. */
export interface AuthorizerDeps {
  orgs: OrgStore;
  limiter: RateLimiter;
  rate: Rate;
  logger: Logger;
  /** Sessions and memberships of the platform database. */
  web: WebSessions;
  /** The authorization server whose access tokens (`sbo_…`, scope `flows:run`) stand for a person (absent: none accepted). */
  oauth?: AuthorizationServer;
}

/** 404 for an organization the caller may not see, worded exactly as for one that does not exist. */
export function orgNotFound(orgCode: string): FlowsError {
  return new FlowsError('not_found', `Organization "${orgCode}" not found`, 'org_not_found', { param: 'org_code' });
}

function rateLimited(rate: Rate, retryAfter: number, who: 'token' | 'user'): FlowsError {
  return new FlowsError('rate_limited', `Rate limit of ${rate.count} requests per ${rate.windowMs / 1000} s exceeded for this ${who}`, 'rate_limit_exceeded', {
    retryAfter,
  });
}

/**
 * Bearer token: 401 for a missing, unknown or revoked token; 403 for a token
 * of another organization or without the scope; 429 over the per-token
 * rate. Without an Authorization header, the `sb_session` cookie of a
 * signed-in user (see sessionPrincipal). A request with an Authorization
 * header never falls back to the cookie.
 */
export function createAuthorizer(deps: AuthorizerDeps): Authorize {
  const { orgs, limiter, rate, logger, web } = deps;
  return async (request, orgCode, scope, flowSlug) => {
    const header = request.headers.authorization;
    if (header === undefined && web.hasSessionCookie(request)) return sessionPrincipal(deps, request, orgCode);
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw new FlowsError('unauthorized', 'Missing bearer token: send "Authorization: Bearer TOKEN"', 'invalid_api_key');
    if (match[1].startsWith(OAUTH_PREFIX.access)) return oauthPrincipal(deps, match[1], orgCode, scope);
    const found = await orgs.authenticate(match[1], flowSlug);
    if (!found) throw new FlowsError('unauthorized', 'Invalid or revoked token', 'invalid_api_key');
    found.touch?.catch((error) => logger.warn({ err: error }, 'could not update token last_used_at'));
    const { principal } = found;
    const decision = await limiter.hit(`flows:${principal.tokenId}`, rate);
    if (!decision.allowed) throw rateLimited(rate, decision.retryAfterSeconds, 'token');
    if (principal.orgCode !== orgCode) throw new FlowsError('forbidden', 'This token belongs to another organization', 'permission_denied');
    if (scope === 'manage' && principal.scope !== 'manage') throw new FlowsError('forbidden', 'This token lacks the "manage" scope', 'permission_denied');
    return principal;
  };
}

/**
 * A signed-in user (web.md, "Signing in"): 401 when the session expired or
 * was signed out; 403 for a write whose Origin is not this service's; 429
 * over the rate, counted per user; 404 for an organization the user may not
 * see (an admin sees every one, a member those with a membership), the same
 * 404 as for one that does not exist. The session counts as a `manage` token
 * of the organization, so it may also run flows.
 */
async function sessionPrincipal(deps: AuthorizerDeps, request: FastifyRequest, orgCode: string): Promise<Principal> {
  const { orgs, limiter, rate, web } = deps;
  const user = await web.userOf(request);
  if (!user) throw new AppError('not_signed_in', 'Not signed in: the session expired or was signed out; sign in again');
  // CSRF: a browser sends the cookie with a form posted from any site, but the Origin tells where it came from.
  if (!isSafeMethod(request.method)) web.requireSameOrigin(request);
  const decision = await limiter.hit(`flows:user:${user.id}`, rate);
  if (!decision.allowed) throw rateLimited(rate, decision.retryAfterSeconds, 'user');
  const org = await orgs.findOrg(orgCode);
  if (!org || !(await web.memberships.canAccess('flows', org.code, user))) throw orgNotFound(orgCode);
  return { tokenId: null, actor: actorOf(user), scope: 'manage', orgId: org.id, orgCode: org.code, providersVersion: org.providersVersion };
}

/**
 * An OAuth access token (mcp.md, "Signing in"): 401 unless its grant is live and its person may still see the
 * organization; 403 for another organization's token; 429 over the rate, counted per grant; a route that
 * needs `manage` answers 403 `insufficient_scope` (the token runs flows only). Acts as `user:EMAIL via CLIENT`.
 */
async function oauthPrincipal(deps: AuthorizerDeps, token: string, orgCode: string, scope: TokenScope): Promise<Principal> {
  const { orgs, limiter, rate, web } = deps;
  const access = await deps.oauth?.verifyAccessToken(token);
  if (!access) throw new FlowsError('unauthorized', 'Invalid, expired or revoked OAuth access token: refresh it, or sign in again', 'invalid_api_key');
  const decision = await limiter.hit(`flows:oauth:${access.grantId}`, rate);
  if (!decision.allowed) throw rateLimited(rate, decision.retryAfterSeconds, 'token');
  const org = await orgs.findOrg(access.scopeKey);
  if (!org || !(await web.memberships.canAccess('flows', org.code, access.user))) {
    throw new FlowsError('unauthorized', `${access.user.email} can no longer see organization "${access.scopeKey}": sign in again`, 'invalid_api_key');
  }
  if (org.code !== orgCode) throw new FlowsError('forbidden', 'This token belongs to another organization', 'permission_denied');
  if (scope === 'manage' || !access.scopes.includes('flows:run')) {
    throw new FlowsError(
      'insufficient_scope',
      'This OAuth token may run flows only (scope flows:run); managing the organization needs a manage token or a signed-in user',
      'insufficient_scope',
    );
  }
  return { tokenId: null, actor: access.actor, scope: 'run', orgId: org.id, orgCode: org.code, providersVersion: org.providersVersion };
}

/** How activity and version history name a signed-in user. */
export function actorOf(user: SessionUser): string {
  return `user:${user.email}`;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller of a route that declares `config.scope`. */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Scope a route needs; its presence makes the route authenticated. */
    scope?: TokenScope;
    /** True on routes that run the flow of the `{slug}` path parameter: its version comes with the token lookup. */
    loadsFlow?: boolean;
  }
}

/**
 * Authenticates every route that declares `config: {scope}` in onRequest,
 * before its body is read: a caller without a valid token or session gets 401 whatever it sent.
 */
export function installAuth(app: App, authorize: Authorize): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    const scope = request.routeOptions.config?.scope;
    if (!scope) return;
    const params = request.params as { org_code: string; slug?: string };
    request.principal = await authorize(request, params.org_code, scope, request.routeOptions.config.loadsFlow ? params.slug : undefined);
  });
}
