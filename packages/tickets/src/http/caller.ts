import { AppError, hashSecret, type DialectName } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
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
