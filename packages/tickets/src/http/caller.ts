import {
  AppError,
  OAUTH_PREFIX,
  hashSecret,
  isSafeMethod,
  sessionTokenOf,
  type AuthorizationServer,
  type DialectName,
  type SessionUser,
  type WebSessions,
} from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import type { App } from '@switchboard/core';
import { BASE_PATH, MCP_PATH, PUBLIC_PATHS } from './paths.ts';
import type { Db, ProjectRow } from '../store/project-store.ts';
import { findProject, tokenByHash, touchToken } from '../store/project-store.ts';
import type { BoardContext, Caller, ChangeSignal, MemberDirectory } from '../service/board-context.ts';
import type { ProjectAccess } from '../tools/tool.ts';

/** What turns a request's Bearer token or session cookie into a BoardContext. */
export interface CallerResolver {
  db: Db;
  dialect: DialectName;
  members: MemberDirectory;
  /** Sessions and memberships of the platform database (the web UI's sign-in). */
  web: WebSessions;
  /** The authorization server: checks OAuth access tokens (`sbo_…`). */
  oauth: AuthorizationServer;
  /** Announces committed changes to the live-update streams. */
  signal: ChangeSignal;
  /** PUBLIC_BASE_URL, when configured. */
  publicBaseUrl: string | undefined;
  /** Least time between two last_used_at writes of one token, in ms. */
  touchMs: number;
  onSummaryDue(): void;
}

export type { ProjectAccess } from '../tools/tool.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's project and identity, set by the authentication hooks for every authenticated route. */
    board: BoardContext | null;
  }
  interface FastifyContextConfig {
    /** Set on the routes under /api/projects/{KEY}: who may call them (see ProjectAccess). */
    projectAccess?: ProjectAccess;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const MISSING_TOKEN = 'Missing bearer token: send Authorization: Bearer <token> (a project token starting with sbt_).';

function context(resolver: CallerResolver, request: FastifyRequest, project: ProjectRow, actor: string, caller: Caller): BoardContext {
  return {
    mcpUrl: `${resolver.publicBaseUrl ?? `${request.protocol}://${request.host}`}${MCP_PATH}`,
    db: resolver.db,
    dialect: resolver.dialect,
    project,
    actor,
    caller,
    now: () => new Date().toISOString(),
    members: resolver.members,
    grants: { list: (key) => resolver.oauth.listGrants(key), revoke: (key, id) => resolver.oauth.revokeGrant(key, id) },
    signal: resolver.signal,
    onSummaryDue: resolver.onSummaryDue,
  };
}

/**
 * Authenticates the request with its project-scoped token. The token is
 * looked up on every request, so a revocation holds on the very next call on
 * every instance; only the last_used_at write is throttled.
 */
export async function contextFor(resolver: CallerResolver, request: FastifyRequest): Promise<BoardContext> {
  const header = request.headers.authorization;
  const match = header ? BEARER.exec(header) : null;
  if (!match) throw new AppError('unauthorized', MISSING_TOKEN);
  if (match[1].startsWith(OAUTH_PREFIX.access)) return oauthContextFor(resolver, request, match[1]);
  const found = await tokenByHash(resolver.db, hashSecret(match[1]));
  if (!found)
    throw new AppError(
      'unauthorized',
      'Unknown or revoked token: create a new one with `switchboard tickets token create KEY` or in Settings → MCP Connection.',
    );
  const now = new Date();
  const last = found.token.last_used_at ? Date.parse(found.token.last_used_at) : 0;
  if (now.getTime() - last >= resolver.touchMs) await touchToken(resolver.db, found.token.id, now.toISOString());
  return context(resolver, request, found.project, `token:${found.token.name}`, {
    kind: 'token',
    tokenId: found.token.id,
    name: found.token.name,
    access: found.token.access === 'read' ? 'read' : 'write',
  });
}

/** The access an OAuth grant's scopes give: `tickets:write` writes, `tickets:read` alone only reads. */
export function oauthAccessOf(scopes: readonly string[]): 'read' | 'write' {
  return scopes.includes('tickets:write') ? 'write' : 'read';
}

/**
 * Authenticates an OAuth access token: its grant must be live (a revocation holds on the next call on every
 * instance) and the person who consented must still see the project; the actor is `user:EMAIL via CLIENT`.
 */
async function oauthContextFor(resolver: CallerResolver, request: FastifyRequest, token: string): Promise<BoardContext> {
  const access = await resolver.oauth.verifyAccessToken(token);
  if (!access) throw new AppError('unauthorized', 'Unknown, expired or revoked OAuth access token: refresh it, or sign in again.');
  const project = await findProject(resolver.db, access.scopeKey);
  if (!project || !(await mayAccess(resolver, project, access.user))) {
    throw new AppError('unauthorized', `${access.user.email} can no longer see project ${access.scopeKey}: sign in again.`);
  }
  const caller = { kind: 'oauth' as const, grantId: access.grantId, user: access.user, clientName: access.clientName, access: oauthAccessOf(access.scopes) };
  return context(resolver, request, project, access.actor, caller);
}

/** 404 for a project the caller may not see, worded exactly as for one that does not exist. */
export function projectNotFound(key: string): AppError {
  return new AppError('not_found', `Project "${key}" not found`);
}

/** Whether a signed-in user may see a project: an admin every one, anyone else those they are a member of. */
export function mayAccess(resolver: Pick<CallerResolver, 'web'>, project: ProjectRow, user: SessionUser): Promise<boolean> {
  return resolver.web.memberships.canAccess('tickets', project.key, user);
}

/**
 * The caller of a route under /api/projects/{KEY} (README, "Web UI API"). A
 * request with an Authorization header is a token call: 401 for an unknown
 * or revoked token, the same 404 as for an unknown project for a token of
 * another project. Without one, the `sb_session` cookie: 401 without a live
 * session, 403 for a write whose Origin is not this service's, 404 for a
 * project the user may not see. Token management needs a user, member
 * changes an admin (403).
 */
export async function projectContextFor(resolver: CallerResolver, request: FastifyRequest, key: string, access: ProjectAccess): Promise<BoardContext> {
  if (request.headers.authorization !== undefined) {
    const ctx = await contextFor(resolver, request);
    if (ctx.project.key !== key.toUpperCase()) throw projectNotFound(key);
    if (access !== 'project') throw new AppError('forbidden', 'Managing tokens and members needs a signed-in user: use Settings in the web UI, or the CLI.');
    return ctx;
  }
  const user = await resolver.web.userOf(request);
  if (!user) throw new AppError('not_signed_in', 'Not signed in');
  // CSRF: a browser sends the cookie with a form posted from any site, but the Origin tells where it came from.
  if (!isSafeMethod(request.method)) resolver.web.requireSameOrigin(request);
  const project = await findProject(resolver.db, key);
  if (!project || !(await mayAccess(resolver, project, user))) throw projectNotFound(key);
  if (access === 'admin' && user.role !== 'admin') throw new AppError('forbidden', 'Only an admin can add or remove members');
  return context(resolver, request, project, `user:${user.email}`, { kind: 'user', user });
}

/**
 * Whether the caller of a long-lived request (an event stream) may still see its project: its token is not
 * revoked, or its session is alive and its user still a member (or an admin).
 */
export async function stillAllowed(resolver: CallerResolver, request: FastifyRequest): Promise<boolean> {
  const ctx = request.board;
  if (!ctx) return false;
  if (ctx.caller.kind === 'token') {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const found = match ? await tokenByHash(resolver.db, hashSecret(match[1])) : undefined;
    return found?.token.id === ctx.caller.tokenId;
  }
  if (ctx.caller.kind === 'oauth') {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const access = match ? await resolver.oauth.verifyAccessToken(match[1]) : undefined;
    return access?.grantId === ctx.caller.grantId && (await mayAccess(resolver, ctx.project, access.user));
  }
  if (ctx.caller.kind !== 'user') return false;
  const token = sessionTokenOf(request);
  const user = token === undefined ? undefined : await resolver.web.sessions.resolve(token, resolver.web.now());
  return user !== undefined && user.id === ctx.caller.user.id && (await mayAccess(resolver, ctx.project, user));
}

/** The caller of an authenticated route (set by registerAuthentication). */
export function boardOf(request: FastifyRequest): BoardContext {
  if (!request.board) throw new AppError('unauthorized', MISSING_TOKEN);
  return request.board;
}

/**
 * Authenticates, before the body is read, every request under the base path
 * (project token) and every route that declares `config.projectAccess`
 * (token or session), so a caller without valid credentials gets 401
 * whatever it sends.
 */
export function registerAuthentication(app: App, resolver: CallerResolver): void {
  app.decorateRequest('board', null);
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.projectAccess;
    if (access) {
      request.board = await projectContextFor(resolver, request, (request.params as { key: string }).key, access);
      return;
    }
    const path = request.url.split('?')[0].replace(/\/+$/, '');
    if (!path.startsWith(`${BASE_PATH}/`) || PUBLIC_PATHS.has(path)) return;
    request.board = await contextFor(resolver, request);
  });
}
