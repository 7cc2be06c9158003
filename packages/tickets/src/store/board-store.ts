import type { DialectName } from '@switchboard/core';
import type { Insertable, Updateable } from 'kysely';
import type { BoardColumnsTable, BoardsTable } from './tables.ts';
import type { Db } from './project-store.ts';

/** A board row. */
export interface BoardRow {
  id: string;
  project_id: string;
  name: string;
  position: number;
}

/** A column row as the settings see it. */
export interface ColumnRow {
  id: string;
  board_id: string;
  name: string;
  position: number;
  is_done: number;
}

/** A project's boards in order. */
export async function listBoards(db: Db, projectId: string): Promise<BoardRow[]> {
  return db
    .selectFrom('boards')
    .select(['id', 'project_id', 'name', 'position'])
    .where('project_id', '=', projectId)
    .orderBy('position')
    .orderBy('created_at')
    .execute();
}

/**
 * A board of the project by id, row-locked on PostgreSQL: changes to one board's columns take turns, so
 * two of them cannot both pass the name or done-column checks.
 */
export async function lockBoard(trx: Db, dialect: DialectName, projectId: string, boardId: string): Promise<BoardRow | undefined> {
  let query = trx.selectFrom('boards').select(['id', 'project_id', 'name', 'position']).where('id', '=', boardId).where('project_id', '=', projectId);
  if (dialect === 'postgres') query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * Takes the project's row lock on PostgreSQL (FOR NO KEY UPDATE, as its ticket counter's update does), so
 * changes that check a project-wide limit (boards, columns, labels) take turns and two cannot both pass it.
 * SQLite runs one write transaction at a time anyway.
 */
export async function lockProject(trx: Db, dialect: DialectName, projectId: string): Promise<void> {
  if (dialect === 'postgres') await trx.selectFrom('projects').select('id').where('id', '=', projectId).forNoKeyUpdate().execute();
}

/** Number of columns of a project, all its boards together. */
export async function countColumnsOf(db: Db, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('board_columns')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A column of the project by id. */
export async function columnOfProject(db: Db, projectId: string, columnId: string): Promise<ColumnRow | undefined> {
  return db
    .selectFrom('board_columns')
    .select(['id', 'board_id', 'name', 'position', 'is_done'])
    .where('id', '=', columnId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

/** A board's columns in order. */
export async function columnsOfBoard(db: Db, boardId: string): Promise<ColumnRow[]> {
  return db.selectFrom('board_columns').select(['id', 'board_id', 'name', 'position', 'is_done']).where('board_id', '=', boardId).orderBy('position').execute();
}

/** Inserts a board. */
export async function insertBoard(trx: Db, row: Insertable<BoardsTable>): Promise<void> {
  await trx.insertInto('boards').values(row).execute();
}

/** Renames a board. */
export async function renameBoard(trx: Db, boardId: string, name: string): Promise<void> {
  await trx.updateTable('boards').set({ name }).where('id', '=', boardId).execute();
}

/** Inserts columns. */
export async function insertColumns(trx: Db, rows: ReadonlyArray<Insertable<BoardColumnsTable>>): Promise<void> {
  if (rows.length > 0)
    await trx
      .insertInto('board_columns')
      .values([...rows])
      .execute();
}

/** Changes a column. */
export async function updateColumnRow(trx: Db, columnId: string, changes: Updateable<BoardColumnsTable>): Promise<void> {
  await trx.updateTable('board_columns').set(changes).where('id', '=', columnId).execute();
}

/** Deletes a column (the caller checked that no ticket is in it). */
export async function deleteColumnRow(trx: Db, columnId: string): Promise<void> {
  await trx.deleteFrom('board_columns').where('id', '=', columnId).execute();
}

/** Number of tickets in a column. */
export async function countTicketsIn(db: Db, columnId: string): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('column_id', '=', columnId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Gives the tickets of a column that became the done column `completed_at` (those without one), or takes it
 * from the tickets of a column that stopped being it, as entering and leaving the done column would.
 */
export async function setCompletedAtIn(trx: Db, columnId: string, completedAt: string | null): Promise<void> {
  let query = trx.updateTable('tickets').set({ completed_at: completedAt }).where('column_id', '=', columnId);
  if (completedAt !== null) query = query.where('completed_at', 'is', null);
  await query.execute();
}

/**
 * Every ticket of these columns as a board card needs it, each lane in its order (rank, then number), or each
 * lane's first `perColumn` of them: one read of tickets_lane_rank per lane, in order, that stops after those
 * rows (UNION ALL of the lanes, one round trip). Parents and epic progress come from parentSummaries, not from a
 * join here: without fresh statistics (a bulk import) PostgreSQL planned the join as a nested loop over every
 * pair, 390 ms on 10,000 tickets instead of 30.
 */
const CARD_COLUMNS = ['id', 'number', 'title', 'ticket_type', 'priority', 'column_id', 'rank', 'parent_id', 'assignee', 'updated_at', 'completed_at'] as const;

export async function boardCardRows(db: Db, projectId: string, columnIds: readonly string[], perColumn?: number) {
  if (columnIds.length === 0) return [];
  const columns = CARD_COLUMNS;
  if (perColumn === undefined) {
    return db
      .selectFrom('tickets')
      .select(columns)
      .where('project_id', '=', projectId)
      .where('column_id', 'in', columnIds)
      .orderBy('rank')
      .orderBy('number')
      .execute();
  }
  // Each lane's part is a subquery: SQLite refuses ORDER BY and LIMIT on the parts of a compound select itself.
  const laneRows = (columnId: string, i: number) =>
    db
      .selectFrom(
        db
          .selectFrom('tickets')
          .select(columns)
          .where('project_id', '=', projectId)
          .where('column_id', '=', columnId)
          .orderBy('rank')
          .orderBy('number')
          .limit(perColumn)
          .as(`lane${i}`),
      )
      .selectAll();
  const [first, ...rest] = columnIds.map(laneRows);
  return rest.reduce((union, part) => union.unionAll(part), first!).execute();
}

/**
 * The tickets of these numbers, as boardCardRows answers them: seeks of the (project, number) index only (with
 * the board's columns in the query too, SQLite could read a whole board's lanes instead).
 */
export async function boardCardRowsOf(db: Db, projectId: string, numbers: readonly number[]) {
  if (numbers.length === 0) return [];
  return db.selectFrom('tickets').select(CARD_COLUMNS).where('project_id', '=', projectId).where('number', 'in', numbers).execute();
}

/** The number of tickets in each of these columns (a column without any is missing). */
export async function laneTicketCounts(db: Db, projectId: string, columnIds: readonly string[]): Promise<Map<string, number>> {
  if (columnIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('tickets')
    .select(['column_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('project_id', '=', projectId)
    .where('column_id', 'in', columnIds)
    .groupBy('column_id')
    .execute();
  return new Map(rows.map((row) => [row.column_id, Number(row.n)]));
}

/**
 * Every parent of the project's sub-tickets (or only the parents `parentIds`, ids of this project's tickets) with its number and its
 * sub-tickets done (in a done column) and in all.
 */
export async function parentSummaries(db: Db, projectId: string, parentIds?: readonly string[]) {
  if (parentIds?.length === 0) return new Map<string, { number: number; total: number; done: number }>();
  let query = db
    .selectFrom('tickets as s')
    .innerJoin('board_columns as sc', 'sc.id', 's.column_id')
    .innerJoin('tickets as p', 'p.id', 's.parent_id')
    .select(['s.parent_id', 'p.number', (eb) => eb.fn.countAll<number>().as('total'), (eb) => eb.fn.sum<number>('sc.is_done').as('done')]);
  // Given parents (ids of the project's tickets), their sub-tickets are found by tickets_parent alone: with the
  // project in the query too, SQLite read every ticket of the project instead.
  query = parentIds ? query.where('s.parent_id', 'in', parentIds) : query.where('s.project_id', '=', projectId).where('s.parent_id', 'is not', null);
  const rows = await query.groupBy(['s.parent_id', 'p.number']).execute();
  // PostgreSQL answers count and sum as bigint (parsed as numbers by core) or numeric (a string).
  return new Map(rows.map((row) => [row.parent_id!, { number: Number(row.number), total: Number(row.total), done: Number(row.done) }]));
}

/** Every label attachment of a project's tickets (by the label's project, not a list of ticket ids), or of the tickets `ticketIds` only. */
export async function projectTicketLabels(db: Db, projectId: string, ticketIds?: readonly string[]) {
  if (ticketIds?.length === 0) return [];
  let query = db
    .selectFrom('ticket_labels as tl')
    .innerJoin('labels as l', 'l.id', 'tl.label_id')
    .select(['tl.ticket_id', 'l.id', 'l.name', 'l.color'])
    .where('l.project_id', '=', projectId);
  if (ticketIds) query = query.where('tl.ticket_id', 'in', ticketIds);
  return query.orderBy('l.name').execute();
}
