import { randomUUID } from 'node:crypto';
import { AppError, issueSecret } from '@switchboard/core';
import type { BoardContext } from './board-context.ts';
import { validName } from '../domain/settings-rules.ts';
import type { AccessLevel } from '../domain/vocabulary.ts';
import { insertToken, listTokens, revokeToken, type Db, type TokenRow } from '../store/project-store.ts';
import { inTransaction } from './transaction.ts';

/** A token as Settings → MCP Connection lists it: never its secret or hash. */
export function presentToken(row: TokenRow) {
  return { id: row.id, name: row.name, access: row.access, created_at: row.created_at, last_used_at: row.last_used_at, revoked_at: row.revoked_at };
}

/** Issues a project token into the database and returns its secret (shown once; only its SHA-256 hash is kept). */
export async function issueToken(
  db: Db,
  projectId: string,
  rawName: string,
  now: string,
  access: AccessLevel = 'write',
): Promise<{ row: TokenRow; token: string }> {
  const secret = issueSecret('sbt_');
  const row: TokenRow = {
    id: randomUUID(),
    project_id: projectId,
    name: validName('token', rawName),
    token_hash: secret.hash,
    hint: secret.hint,
    access,
    created_at: now,
    last_used_at: null,
    revoked_at: null,
  };
  await insertToken(db, row);
  return { row, token: secret.value };
}

/** GET …/tokens: the project's tokens, oldest first. */
export async function projectTokens(ctx: BoardContext) {
  return { tokens: (await listTokens(ctx.db, ctx.project.id)).map(presentToken) };
}

/** POST …/tokens: a new token, shown this once with the MCP endpoint a client connects to. */
export async function createProjectToken(ctx: BoardContext, input: { name: string; access?: AccessLevel }) {
  const { row, token } = await inTransaction(ctx, async (trx, log) => {
    const issued = await issueToken(trx, ctx.project.id, input.name, ctx.now(), input.access);
    log.project('token_created', issued.row.created_at);
    return issued;
  });
  return { token_id: row.id, token, name: row.name, access: row.access, created_at: row.created_at, mcp_url: ctx.mcpUrl };
}

/** DELETE …/tokens/{token_id}: revokes a token; it is refused from its next call on, on every instance. */
export async function revokeTokenInProject(ctx: BoardContext, input: { token_id: string }) {
  await inTransaction(ctx, async (trx, log) => {
    if (!(await revokeToken(trx, ctx.project.id, input.token_id, ctx.now()))) {
      throw new AppError('not_found', `No live token "${input.token_id}" in project ${ctx.project.key}: it does not exist or was already revoked.`);
    }
    log.project('token_revoked');
  });
  return { revoked: true as const };
}
