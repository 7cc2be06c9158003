import { AppError } from '@switchboard/core';
import type { BoardContext, GrantDirectory } from './board-context.ts';
import { inTransaction } from './transaction.ts';

function grantsOf(ctx: BoardContext): GrantDirectory {
  if (!ctx.grants) throw new AppError('unavailable', 'OAuth grants are managed in the web UI (Settings → MCP Connection) while the service runs');
  return ctx.grants;
}

/** GET …/oauth-grants: the MCP clients people signed in to this project with, newest first (never a token). */
export async function projectGrants(ctx: BoardContext) {
  return { grants: await grantsOf(ctx).list(ctx.project.key) };
}

/** DELETE …/oauth-grants/{grant_id}: revokes a grant; its tokens are refused from their next call on, on every instance. */
export async function revokeGrantInProject(ctx: BoardContext, input: { grant_id: string }) {
  if (!(await grantsOf(ctx).revoke(ctx.project.key, input.grant_id))) {
    throw new AppError('not_found', `No live OAuth grant "${input.grant_id}" in project ${ctx.project.key}: it does not exist or was already revoked.`);
  }
  // The grant lives in the platform database; the project's event tells open settings pages to read the list again.
  await inTransaction(ctx, async (_trx, log) => log.project('oauth_grant_revoked'));
  return { revoked: true as const };
}
