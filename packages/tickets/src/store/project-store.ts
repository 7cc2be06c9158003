import { randomUUID } from 'node:crypto';
import { AppError, preparedQuery } from '@switchboard/core';
import type { Kysely, Selectable } from 'kysely';
import type { TicketsDatabase, ProjectsTable, TokensTable, LabelsTable } from './tables.ts';
import { DEFAULT_BOARD_NAME, DEFAULT_COLUMNS, type BoardColumn } from '../domain/board-rules.ts';

/** A project row. */
export type ProjectRow = Selectable<ProjectsTable>;
/** A token row (hash only). */
export type TokenRow = Selectable<TokensTable>;
/** A label row. */
export type LabelRow = Selectable<LabelsTable>;

/** A database handle or an open transaction. */
export type Db = Kysely<TicketsDatabase>;

/** Creates a project with its default board `Main` and columns (the last is the done column). */
export async function insertProject(db: Db, input: { key: string; name: string; description: string; autoSummary: boolean }, now: string): Promise<ProjectRow> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('projects').select('id').where('key', '=', input.key).executeTakeFirst();
    if (existing) throw new AppError('conflict', `A project with key ${input.key} already exists.`);
    const project: ProjectRow = {
      id: randomUUID(),
      key: input.key,
      name: input.name,
      description: input.description,
      auto_summary: input.autoSummary ? 1 : 0,
      ticket_counter: 0,
      created_at: now,
      updated_at: now,
    };
    await trx.insertInto('projects').values(project).execute();
    const boardId = randomUUID();
    await trx.insertInto('boards').values({ id: boardId, project_id: project.id, name: DEFAULT_BOARD_NAME, position: 0, created_at: now }).execute();
    await trx
      .insertInto('board_columns')
      .values(
        DEFAULT_COLUMNS.map((name, position) => ({
          id: randomUUID(),
          board_id: boardId,
          project_id: project.id,
          name,
          position,
          is_done: position === DEFAULT_COLUMNS.length - 1 ? 1 : 0,
        })),
      )
      .execute();
    return project;
  });
}

/** The project with this key, or a not_found error. */
export async function projectByKey(db: Db, key: string): Promise<ProjectRow> {
  const project = await db.selectFrom('projects').selectAll().where('key', '=', key.trim().toUpperCase()).executeTakeFirst();
  if (!project) throw new AppError('not_found', `No project with key ${key}.`);
  return project;
}

/** The project with this key (any case), or undefined. */
export async function findProject(db: Db, key: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('key', '=', key.trim().toUpperCase()).executeTakeFirst();
}

/** Projects by key (code-unit order, the same on both engines); all of them, or those with these keys. */
export async function listProjects(db: Db, keys?: readonly string[]): Promise<ProjectRow[]> {
  if (keys !== undefined && keys.length === 0) return [];
  let query = db.selectFrom('projects').selectAll();
  if (keys !== undefined) query = query.where('key', 'in', keys);
  const rows = await query.execute();
  return rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Changes a project's name, description or Auto-Summary setting. */
export async function updateProject(
  db: Db,
  id: string,
  changes: { name?: string; description?: string; autoSummary?: boolean },
  now: string,
): Promise<ProjectRow> {
  await db
    .updateTable('projects')
    .set({
      updated_at: now,
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.autoSummary !== undefined ? { auto_summary: changes.autoSummary ? 1 : 0 } : {}),
    })
    .where('id', '=', id)
    .execute();
  return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const columnsQuery = preparedQuery({
  build: (db: Db, projectId: string) =>
    db
      .selectFrom('board_columns as c')
      .innerJoin('boards as b', 'b.id', 'c.board_id')
      .select(['c.id', 'c.name', 'c.position', 'c.is_done', 'c.board_id', 'b.name as board_name', 'b.position as board_position'])
      .where('c.project_id', '=', projectId)
      .orderBy('b.position')
      .orderBy('c.position'),
  params: (projectId) => [projectId],
});

/** Every column of a project with its board, in board then column order. */
export async function projectColumns(db: Db, projectId: string): Promise<BoardColumn[]> {
  const rows = await columnsQuery(db, projectId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    position: row.position,
    isDone: row.is_done === 1,
    boardId: row.board_id,
    boardName: row.board_name,
    boardPosition: row.board_position,
  }));
}

/** Stores a new token's hash. */
export async function insertToken(db: Db, row: TokenRow): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

const tokenQuery = preparedQuery({
  build: (db: Db, hash: string) =>
    db
      .selectFrom('api_tokens as t')
      .innerJoin('projects as p', 'p.id', 't.project_id')
      .select([
        't.id as token_id',
        't.name as token_name',
        't.hint',
        't.access',
        't.created_at as token_created_at',
        't.last_used_at',
        'p.id',
        'p.key',
        'p.name',
        'p.description',
        'p.auto_summary',
        'p.ticket_counter',
        'p.created_at',
        'p.updated_at',
      ])
      .where('t.token_hash', '=', hash)
      .where('t.revoked_at', 'is', null),
  params: (hash) => [hash],
});

/** The live (not revoked) token with this hash, with its project. */
export async function tokenByHash(db: Db, hash: string): Promise<{ token: TokenRow; project: ProjectRow } | undefined> {
  const [row] = await tokenQuery(db, hash);
  if (!row) return undefined;
  return {
    token: {
      id: row.token_id,
      project_id: row.id,
      name: row.token_name,
      token_hash: hash,
      hint: row.hint,
      access: row.access,
      created_at: row.token_created_at,
      last_used_at: row.last_used_at,
      revoked_at: null,
    },
    project: {
      id: row.id,
      key: row.key,
      name: row.name,
      description: row.description,
      auto_summary: row.auto_summary,
      ticket_counter: row.ticket_counter,
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}

/** Records a token's use; callers throttle this so reads do not turn into writes. */
export async function touchToken(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}

/** Revokes a token of a project; false when there is no such live token. */
export async function revokeToken(db: Db, projectId: string, tokenId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('id', '=', tokenId)
    .where('project_id', '=', projectId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A project's tokens, oldest first (hashes stay inside). */
export async function listTokens(db: Db, projectId: string): Promise<TokenRow[]> {
  return db.selectFrom('api_tokens').selectAll().where('project_id', '=', projectId).orderBy('created_at').execute();
}

/** Inserts a label (the settings service checks its name first). */
export async function insertLabel(db: Db, row: LabelRow): Promise<void> {
  await db.insertInto('labels').values(row).execute();
}

/** A project's labels by name. */
export async function listLabels(db: Db, projectId: string): Promise<LabelRow[]> {
  return db.selectFrom('labels').selectAll().where('project_id', '=', projectId).orderBy('name').execute();
}

/** A label of the project by id. */
export async function labelOfProject(db: Db, projectId: string, labelId: string): Promise<LabelRow | undefined> {
  return db.selectFrom('labels').selectAll().where('id', '=', labelId).where('project_id', '=', projectId).executeTakeFirst();
}

/** Changes a label's name or colour. */
export async function updateLabelRow(db: Db, labelId: string, changes: { name?: string; color?: string }): Promise<void> {
  await db.updateTable('labels').set(changes).where('id', '=', labelId).execute();
}

/** Deletes a label and takes it off every ticket. */
export async function deleteLabelRow(db: Db, labelId: string): Promise<void> {
  await db.deleteFrom('ticket_labels').where('label_id', '=', labelId).execute();
  await db.deleteFrom('labels').where('id', '=', labelId).execute();
}
