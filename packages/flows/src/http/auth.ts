import type { FastifyRequest } from 'fastify';
import type { App, Rate, RateLimiter, Logger } from '@switchboard/core';
import { FlowsError } from '../domain/errors.ts';
import type { OrgStore, Principal, TokenScope } from '../store/org-store.ts';

/** Checks the bearer token of a request for an organization and scope, and counts it against the rate limit. */
export type Authorize = (request: FastifyRequest, orgCode: string, scope: TokenScope, flowSlug?: string) => Promise<Principal>;

/**
 * 401 for a missing, unknown or revoked token; 403 for a token of another
 * organization or without the scope; 429 over the per-token rate.
 */
export function createAuthorizer(orgs: OrgStore, limiter: RateLimiter, rate: Rate, logger: Logger): Authorize {
  return async (request, orgCode, scope, flowSlug) => {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw new FlowsError('unauthorized', 'Missing bearer token: send "Authorization: Bearer TOKEN"', 'invalid_api_key');
    const found = await orgs.authenticate(match[1], flowSlug);
    if (!found) throw new FlowsError('unauthorized', 'Invalid or revoked token', 'invalid_api_key');
    found.touch?.catch((error) => logger.warn({ err: error }, 'could not update token last_used_at'));
    const { principal } = found;
    const decision = await limiter.hit(`flows:${principal.tokenId}`, rate);
    if (!decision.allowed) {
      throw new FlowsError('rate_limited', `Rate limit of ${rate.count} requests per ${rate.windowMs / 1000} s exceeded for this token`, 'rate_limit_exceeded', {
        retryAfter: decision.retryAfterSeconds,
      });
    }
    if (principal.orgCode !== orgCode) throw new FlowsError('forbidden', 'This token belongs to another organization', 'permission_denied');
    if (scope === 'manage' && principal.scope !== 'manage') throw new FlowsError('forbidden', 'This token lacks the "manage" scope', 'permission_denied');
    return principal;
  };
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
 * before its body is read: a caller without a valid token gets 401 whatever it sent.
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
