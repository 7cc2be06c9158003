import { AppError, isoNow, type Env } from '@switchboard/core';
import { loadConfig } from './config.ts';
import { dialectOf, openTicketsDatabase } from './store/open-store.ts';
import { validateProjectKey } from './domain/project-rules.ts';
import { validDescription, validName } from './domain/settings-rules.ts';
import { insertProject, listTokens, projectByKey, revokeToken, type Db, type ProjectRow } from './store/project-store.ts';
import type { BoardContext } from './service/board-context.ts';
import type { AccessLevel } from './domain/vocabulary.ts';
import { DEFAULT_LABEL_COLOR, createLabel as createLabelIn, updateSettings } from './service/settings-service.ts';
import { issueToken } from './service/token-service.ts';

/**
 * The context of a change made with the CLI: actor `system`, the same services and rules as the API. Its
 * events are recorded like any other; running instances find them with their safety poll (within
 * TICKETS_EVENTS_POLL_MS), since the CLI wakes no one.
 */
function adminContext(db: Db, project: ProjectRow): BoardContext {
  const nobody = async () => {
    throw new AppError('invalid_request', 'Members are managed with `switchboard tickets member add`.');
  };
  return {
    db,
    dialect: dialectOf(db),
    project,
    actor: 'system',
    caller: { kind: 'system' },
    mcpUrl: '',
    now: () => isoNow(),
    members: { list: async () => [], add: nobody, remove: nobody },
    signal: { notifyChannel: undefined, publish: () => undefined },
    onSummaryDue: () => undefined,
  };
}

/** Runs administration work on the ticket board's database (the CLI's path; the service need not run). */
export async function withTicketsStore<T>(env: Env, work: (db: Db) => Promise<T>): Promise<T> {
  const database = await openTicketsDatabase(loadConfig(env));
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

/** Creates a project with the default board and columns; its name and description follow the settings' rules. */
export async function createProject(db: Db, input: { key: string; name: string; description?: string; autoSummary?: boolean }) {
  const key = validateProjectKey(input.key);
  if (!input.name.trim()) throw new AppError('invalid_request', 'A project needs a name (--name).');
  const name = validName('project', input.name);
  const description = validDescription(input.description ?? '');
  const project = await insertProject(db, { key, name, description, autoSummary: input.autoSummary ?? true }, isoNow());
  return { project_id: project.id, key: project.key };
}

/**
 * Issues a project token (shown once; only its hash is stored); a `read` one calls only the tools that read.
 * The answer is the CLI's `{"token_id", "token"}` (design/README.md); `token list` shows each token's access.
 */
export async function createToken(db: Db, projectKey: string, name = 'default', access: AccessLevel = 'write') {
  const project = await projectByKey(db, projectKey);
  const { row, token } = await issueToken(db, project.id, name.trim() || 'default', isoNow(), access);
  return { token_id: row.id, token };
}

/** Revokes a project token; it fails on the very next request. */
export async function revokeProjectToken(db: Db, projectKey: string, tokenId: string) {
  const project = await projectByKey(db, projectKey);
  if (!(await revokeToken(db, project.id, tokenId, isoNow()))) throw new AppError('not_found', `No live token ${tokenId} in project ${project.key}.`);
  return { revoked: true as const };
}

/** A project's tokens without secrets. */
export async function listProjectTokens(db: Db, projectKey: string) {
  const project = await projectByKey(db, projectKey);
  const tokens = await listTokens(db, project.id);
  return {
    tokens: tokens.map((t) => ({
      token_id: t.id,
      name: t.name,
      hint: t.hint,
      access: t.access,
      created_at: t.created_at,
      last_used_at: t.last_used_at,
      revoked_at: t.revoked_at,
    })),
  };
}

/** Changes a project's name, description or Auto-Summary. */
export async function setProject(db: Db, projectKey: string, changes: { name?: string; description?: string; autoSummary?: boolean }) {
  const project = await projectByKey(db, projectKey);
  const { project: updated } = await updateSettings(adminContext(db, project), {
    name: changes.name,
    description: changes.description,
    auto_summary: changes.autoSummary,
  });
  return { key: updated.key, name: updated.name, settings: updated.settings };
}

/** Creates a label in a project. */
export async function createLabel(db: Db, projectKey: string, name: string, color = DEFAULT_LABEL_COLOR) {
  return createLabelIn(adminContext(db, await projectByKey(db, projectKey)), { name, color });
}
