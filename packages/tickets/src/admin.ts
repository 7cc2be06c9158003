import { randomUUID } from 'node:crypto';
import { AppError, issueSecret, isoNow, type Env } from '@switchboard/core';
import { loadConfig } from './config.ts';
import { openTicketsDatabase } from './store/open-store.ts';
import { validateColor, validateProjectKey } from './domain/project-rules.ts';
import { insertLabel, insertProject, insertToken, listTokens, projectByKey, revokeToken, updateProject, type Db } from './store/project-store.ts';
import { presentLabel, presentProject } from './service/presenters.ts';

/** Runs administration work on the ticket board's database (the CLI's path; the service need not run). */
export async function withTicketsStore<T>(env: Env, work: (db: Db) => Promise<T>): Promise<T> {
  const database = await openTicketsDatabase(loadConfig(env));
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

/** Creates a project with the default board and columns. */
export async function createProject(db: Db, input: { key: string; name: string; description?: string; autoSummary?: boolean }) {
  const key = validateProjectKey(input.key);
  const name = input.name.trim();
  if (!name) throw new AppError('invalid_request', 'A project needs a name (--name).');
  const project = await insertProject(db, { key, name, description: input.description ?? '', autoSummary: input.autoSummary ?? true }, isoNow());
  return { project_id: project.id, key: project.key };
}

/** Issues a project token (shown once; only its hash is stored). */
export async function createToken(db: Db, projectKey: string, name = 'default') {
  const project = await projectByKey(db, projectKey);
  const secret = issueSecret('sbt_');
  const id = randomUUID();
  await insertToken(db, { id, project_id: project.id, name: name.trim() || 'default', token_hash: secret.hash, hint: secret.hint, created_at: isoNow(), last_used_at: null, revoked_at: null });
  return { token_id: id, token: secret.value };
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
    tokens: tokens.map((t) => ({ token_id: t.id, name: t.name, hint: t.hint, created_at: t.created_at, last_used_at: t.last_used_at, revoked_at: t.revoked_at })),
  };
}

/** Changes a project's name, description or Auto-Summary. */
export async function setProject(db: Db, projectKey: string, changes: { name?: string; description?: string; autoSummary?: boolean }) {
  const project = await projectByKey(db, projectKey);
  if (changes.name !== undefined && !changes.name.trim()) throw new AppError('invalid_request', 'The project name must not be empty.');
  const updated = presentProject(await updateProject(db, project.id, { ...changes, name: changes.name?.trim() }, isoNow()));
  return { key: updated.key, name: updated.name, settings: updated.settings };
}

/** Creates a label in a project. */
export async function createLabel(db: Db, projectKey: string, name: string, color = '#6b7280') {
  const project = await projectByKey(db, projectKey);
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 60) throw new AppError('invalid_request', 'A label name must be 1 to 60 characters.');
  return presentLabel(await insertLabel(db, project.id, trimmed, validateColor(color), isoNow()));
}
