import { AppError, hashSecret, type DialectName } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import type { App } from '@switchboard/core';
import { BASE_PATH, PUBLIC_PATHS } from './paths.ts';
import type { Db } from '../store/project-store.ts';
import { tokenByHash, touchToken } from '../store/project-store.ts';
import type { BoardContext, MemberDirectory } from '../service/board-context.ts';

/** What turns a request's Bearer token into a BoardContext. */
export interface CallerResolver {
  db: Db;
  dialect: DialectName;
  members: MemberDirectory;
  /** Least time between two last_used_at writes of one token, in ms. */
  touchMs: number;
  onSummaryDue(): void;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Authenticates the request with its project-scoped token. The token is
 * looked up on every request, so a revocation holds on the very next call on
 * every instance; only the last_used_at write is throttled.
 */
export async function contextFor(resolver: CallerResolver, request: FastifyRequest): Promise<BoardContext> {
  const header = request.headers.authorization;
  const match = header ? BEARER.exec(header) : null;
  if (!match) throw new AppError('unauthorized', 'Missing bearer token: send Authorization: Bearer <token> (a project token starting with sbt_).');
  const found = await tokenByHash(resolver.db, hashSecret(match[1]));
  if (!found) throw new AppError('unauthorized', 'Unknown or revoked token: create a new one with `switchboard tickets token create KEY` or in Settings → MCP Connection.');
  const now = new Date();
  const last = found.token.last_used_at ? Date.parse(found.token.last_used_at) : 0;
  if (now.getTime() - last >= resolver.touchMs) await touchToken(resolver.db, found.token.id, now.toISOString());
  return {
    db: resolver.db,
    dialect: resolver.dialect,
    project: found.project,
    actor: `token:${found.token.name}`,
    now: () => new Date().toISOString(),
    members: resolver.members,
    onSummaryDue: resolver.onSummaryDue,
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's project and identity, set by the authentication hook for every route under the base path. */
    board: BoardContext | null;
  }
}

/** The caller of an authenticated route (set by registerAuthentication). */
export function boardOf(request: FastifyRequest): BoardContext {
  if (!request.board) throw new AppError('unauthorized', 'Missing bearer token: send Authorization: Bearer <token> (a project token starting with sbt_).');
  return request.board;
}

/**
 * Authenticates every request under the base path before its body is read,
 * so a caller without a valid token gets 401 whatever it sends.
 */
export function registerAuthentication(app: App, resolver: CallerResolver): void {
  app.decorateRequest('board', null);
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0].replace(/\/+$/, '');
    if (!path.startsWith(`${BASE_PATH}/`) || PUBLIC_PATHS.has(path)) return;
    request.board = await contextFor(resolver, request);
  });
}
