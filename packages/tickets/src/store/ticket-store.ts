import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { preparedQuery, type DialectName } from '@switchboard/core';
import type { ActivityTable, CommentsTable, TicketsTable } from './tables.ts';
import type { Db, LabelRow } from './project-store.ts';
import type { TicketRef } from '../domain/ticket-rules.ts';

/** A ticket row. */
export type TicketRow = Selectable<TicketsTable>;
/** A comment row. */
export type CommentRow = Selectable<CommentsTable>;
/** An activity row. */
export type ActivityRow = Selectable<ActivityTable>;
/** A comment as a ticket view shows it. */
export type CommentEntry = Pick<CommentRow, 'id' | 'content' | 'author' | 'created_at'>;
/** An activity entry as a ticket view shows it. */
export type ActivityEntry = Pick<ActivityRow, 'id' | 'action' | 'detail' | 'actor' | 'created_at'>;
/** A ticket's label as a ticket view shows it. */
export type TicketLabel = Pick<LabelRow, 'id' | 'name' | 'color'>;
/** A ticket's parent or sub-ticket, as much as a ticket view shows of it. */
export type RelatedTicketRow = Pick<TicketRow, 'id' | 'number' | 'title' | 'column_id' | 'priority' | 'ticket_type' | 'parent_id' | 'completed_at'>;

const RELATED_COLUMNS = ['id', 'number', 'title', 'column_id', 'priority', 'ticket_type', 'parent_id', 'completed_at'] as const;

/** Hands out the project's next ticket number; the row lock (or SQLite's single writer) makes concurrent creations take turns. */
export async function nextTicketNumber(trx: Db, projectId: string): Promise<number> {
  const row = await trx
    .updateTable('projects')
    .set((eb) => ({ ticket_counter: eb('ticket_counter', '+', 1) }))
    .where('id', '=', projectId)
    .returning('ticket_counter')
    .executeTakeFirstOrThrow();
  return Number(row.ticket_counter);
}

/** Inserts a ticket. */
export async function insertTicket(trx: Db, row: Insertable<TicketsTable>): Promise<void> {
  await trx.insertInto('tickets').values(row).execute();
}

const ticketQuery = preparedQuery({
  build: (db: Db, projectId: string, ref: TicketRef, lock: boolean) => {
    let query = db.selectFrom('tickets').selectAll().where('project_id', '=', projectId);
    query = ref.kind === 'uuid' ? query.where('id', '=', ref.id) : query.where('number', '=', ref.number);
    return lock ? query.forUpdate() : query;
  },
  params: (projectId, ref, _lock) => [projectId, ref.kind === 'uuid' ? ref.id : ref.number],
  shape: (_projectId, ref, lock) => `${ref.kind}${lock ? ' locked' : ''}`,
});

/** Finds a ticket of a project by its parsed id; `lock` takes a row lock on PostgreSQL. */
export async function ticketByRef(db: Db, dialect: DialectName, projectId: string, ref: TicketRef, lock = false): Promise<TicketRow | undefined> {
  const [row] = await ticketQuery(db, projectId, ref, lock && dialect === 'postgres');
  return row;
}

// By id only, then the project in code: with `project_id = ?` in the SQL, SQLite (no statistics) walks the project's
// (project_id, number) index over every ticket instead of looking each id up (3.5 ms instead of 0.05 ms for 20 ids on 10,000 tickets).
const ticketsByIdsQuery = preparedQuery({
  build: (db: Db, ids: readonly string[]) =>
    db
      .selectFrom('tickets')
      .select([...RELATED_COLUMNS, 'project_id'])
      .where('id', 'in', ids),
  params: (ids) => [...ids],
  shape: (ids) => String(ids.length),
});

/** Tickets by id (any project's rows are filtered by the caller's project). */
export async function ticketsByIds(db: Db, projectId: string, ids: readonly string[]): Promise<RelatedTicketRow[]> {
  if (ids.length === 0) return [];
  return (await ticketsByIdsQuery(db, ids)).filter((row) => row.project_id === projectId);
}

const subTicketsQuery = preparedQuery({
  // Callers pass parents of their own project; a project_id filter here would tempt SQLite into the (project_id, number) index and a scan.
  build: (db: Db, parentIds: readonly string[]) => db.selectFrom('tickets').select(RELATED_COLUMNS).where('parent_id', 'in', parentIds).orderBy('number'),
  params: (parentIds) => [...parentIds],
  shape: (parentIds) => String(parentIds.length),
});

/** The sub-tickets of these parents, by number. */
export async function subTicketsOf(db: Db, parentIds: readonly string[]): Promise<RelatedTicketRow[]> {
  if (parentIds.length === 0) return [];
  return subTicketsQuery(db, parentIds);
}

const relatedQuery = preparedQuery({
  build: (db: Db, parentIds: readonly string[], ids: readonly string[]) =>
    db
      .selectFrom('tickets')
      .select([...RELATED_COLUMNS, 'project_id'])
      .where((eb) => (parentIds.length > 0 ? eb.or([eb('id', 'in', parentIds), eb('parent_id', 'in', ids)]) : eb('parent_id', 'in', ids)))
      .orderBy('number'),
  params: (parentIds, ids) => [...parentIds, ...ids],
  shape: (parentIds, ids) => `${parentIds.length}/${ids.length}`,
});

/**
 * The parents (of the caller's project) and the sub-tickets (by number) of
 * these tickets in one query: ticketsByIds and subTicketsOf together, one
 * round trip fewer per ticket view (an OR of the id and parent_id indexes).
 */
export async function relatedTicketsOf(
  db: Db,
  projectId: string,
  parentIds: readonly string[],
  ids: readonly string[],
): Promise<{ parents: RelatedTicketRow[]; subTickets: RelatedTicketRow[] }> {
  if (ids.length === 0) return { parents: await ticketsByIds(db, projectId, parentIds), subTickets: [] };
  const rows = await relatedQuery(db, parentIds, ids);
  const wantedParents = new Set(parentIds);
  const children = new Set(ids);
  return {
    // The project is checked here for the reason ticketsByIds gives.
    parents: rows.filter((row) => wantedParents.has(row.id) && row.project_id === projectId),
    subTickets: rows.filter((row) => row.parent_id !== null && children.has(row.parent_id)),
  };
}

/** Number of sub-tickets of a ticket. */
export async function countSubTickets(db: Db, parentId: string): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('parent_id', '=', parentId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Changes a ticket's columns. */
export async function updateTicketRow(trx: Db, id: string, changes: Updateable<TicketsTable>): Promise<void> {
  await trx.updateTable('tickets').set(changes).where('id', '=', id).execute();
}

/** Deletes a ticket (comments, activity and labels go with it). */
export async function deleteTicketRow(trx: Db, id: string): Promise<void> {
  await trx.deleteFrom('tickets').where('id', '=', id).execute();
}

/** Detaches an epic's sub-tickets (they become standalone); returns them. */
export async function detachSubTickets(trx: Db, parentId: string, now: string): Promise<RelatedTicketRow[]> {
  const children = await subTicketsOf(trx, [parentId]);
  if (children.length > 0) await trx.updateTable('tickets').set({ parent_id: null, updated_at: now }).where('parent_id', '=', parentId).execute();
  return children;
}

/** Records one change of a ticket. */
export async function insertActivity(trx: Db, row: Insertable<ActivityTable>): Promise<void> {
  await trx.insertInto('activity').values(row).execute();
}

const activityQuery = preparedQuery({
  // Only the shown columns: every extra value costs better-sqlite3 a property on each row object.
  build: (db: Db, ticketId: string) =>
    db.selectFrom('activity').select(['id', 'action', 'detail', 'actor', 'created_at']).where('ticket_id', '=', ticketId).orderBy('created_at').orderBy('id'),
  params: (ticketId) => [ticketId],
});

/** A ticket's activity, oldest first. */
export async function activityOf(db: Db, ticketId: string): Promise<ActivityEntry[]> {
  return activityQuery(db, ticketId);
}

/** Adds a comment. */
export async function insertComment(trx: Db, row: CommentRow): Promise<void> {
  await trx.insertInto('comments').values(row).execute();
}

const commentsQuery = preparedQuery({
  build: (db: Db, ticketId: string) =>
    db.selectFrom('comments').select(['id', 'content', 'author', 'created_at']).where('ticket_id', '=', ticketId).orderBy('created_at').orderBy('id'),
  params: (ticketId) => [ticketId],
});

/** A ticket's comments, oldest first. */
export async function commentsOf(db: Db, ticketId: string): Promise<CommentEntry[]> {
  return commentsQuery(db, ticketId);
}

/** The content of a ticket's latest comment (for summaries). */
export async function latestComment(db: Db, ticketId: string): Promise<string | undefined> {
  const row = await db.selectFrom('comments').select('content').where('ticket_id', '=', ticketId).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  return row?.content;
}

const labelsQuery = preparedQuery({
  build: (db: Db, ticketIds: readonly string[]) =>
    db
      .selectFrom('ticket_labels as tl')
      .innerJoin('labels as l', 'l.id', 'tl.label_id')
      .select(['tl.ticket_id', 'l.id', 'l.name', 'l.color'])
      .where('tl.ticket_id', 'in', ticketIds)
      .orderBy('l.name'),
  params: (ticketIds) => [...ticketIds],
  shape: (ticketIds) => String(ticketIds.length),
});

/** Labels of these tickets, by ticket id. */
export async function labelsOf(db: Db, ticketIds: readonly string[]): Promise<Map<string, TicketLabel[]>> {
  const out = new Map<string, TicketLabel[]>();
  if (ticketIds.length === 0) return out;
  const rows = await labelsQuery(db, ticketIds);
  for (const { ticket_id, ...label } of rows) {
    const list = out.get(ticket_id) ?? [];
    list.push(label);
    out.set(ticket_id, list);
  }
  return out;
}

/** Replaces a ticket's labels. */
export async function setTicketLabels(trx: Db, ticketId: string, labelIds: readonly string[]): Promise<void> {
  await trx.deleteFrom('ticket_labels').where('ticket_id', '=', ticketId).execute();
  if (labelIds.length > 0)
    await trx
      .insertInto('ticket_labels')
      .values(labelIds.map((label_id) => ({ ticket_id: ticketId, label_id })))
      .execute();
}

/** Filters of list_tickets, already resolved to column ids. */
export interface TicketFilter {
  columnIds?: readonly string[];
  priority?: string;
  search?: string;
  /** Only tickets after this one in the list's order (the last ticket of the previous page). */
  after?: { updatedAt: string; number: number };
  limit: number;
}

function matching(db: Db, projectId: string, filter: Omit<TicketFilter, 'after' | 'limit'>) {
  let query = db.selectFrom('tickets').selectAll().where('project_id', '=', projectId);
  if (filter.columnIds) query = query.where('column_id', 'in', filter.columnIds.length > 0 ? filter.columnIds : ['-']);
  if (filter.priority) query = query.where('priority', '=', filter.priority);
  if (filter.search) {
    const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([sql<boolean>`lower(title) LIKE ${pattern} ESCAPE '\\'`, sql<boolean>`lower(description) LIKE ${pattern} ESCAPE '\\'`]));
  }
  return query;
}

/** Tickets matching a filter, most recently updated first (then by number, highest first). */
export async function findTickets(db: Db, projectId: string, filter: TicketFilter): Promise<TicketRow[]> {
  let query = matching(db, projectId, filter);
  const after = filter.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('updated_at', '<', after.updatedAt), eb.and([eb('updated_at', '=', after.updatedAt), eb('number', '<', after.number)])]),
    );
  }
  return query.orderBy('updated_at', 'desc').orderBy('number', 'desc').limit(filter.limit).execute();
}

/** Tickets of one lane matching a filter, in the lane's order (rank, then number), after a place of it when given: reads tickets_lane_rank in order. */
export async function findLaneTickets(
  db: Db,
  projectId: string,
  columnId: string,
  filter: Pick<TicketFilter, 'priority' | 'search' | 'limit'>,
  after?: { rank: number; number: number },
): Promise<TicketRow[]> {
  let query = matching(db, projectId, { ...filter, columnIds: [columnId] });
  if (after) {
    query = query.where((eb) => eb.or([eb('rank', '>', after.rank), eb.and([eb('rank', '=', after.rank), eb('number', '>', after.number)])]));
  }
  return query.orderBy('rank').orderBy('number').limit(filter.limit).execute();
}

/**
 * get_project_status's index of every ticket, by number: only the fields it shows, and the times that decide
 * which tickets a cut index keeps (ten thousand rows are built per call).
 */
export async function statusIndex(db: Db, projectId: string) {
  return db
    .selectFrom('tickets')
    .select(['number', 'title', 'ticket_type', 'priority', 'column_id', 'updated_at', 'completed_at'])
    .where('project_id', '=', projectId)
    .orderBy('number')
    .execute();
}

const talliesQuery = preparedQuery({
  build: (db: Db, projectId: string) =>
    db
      .selectFrom('tickets')
      .select(['column_id', 'ticket_type', 'priority', (eb) => eb.fn.countAll<number | string>().as('n'), (eb) => eb.fn.min<number>('number').as('first')])
      .where('project_id', '=', projectId)
      .groupBy(['column_id', 'ticket_type', 'priority']),
  params: (projectId) => [projectId],
});

/**
 * The number of a project's tickets per column, type and priority, each group with its lowest ticket number
 * (so the tallies can list keys in order of first appearance, as the index does): at most a hundred rows, however
 * many tickets, read from the tickets_status_tally index.
 */
export async function ticketTallies(db: Db, projectId: string) {
  // PostgreSQL answers count(*) as a bigint string.
  return (await talliesQuery(db, projectId)).map((row) => ({ ...row, n: Number(row.n), first: Number(row.first) }));
}

const candidatesQuery = preparedQuery({
  build: (db: Db, projectId: string, columnId: string, isDone: boolean, limit: number) => {
    const query = db
      .selectFrom('tickets')
      .select(['number', 'title', 'ticket_type', 'priority', 'column_id', 'updated_at', 'completed_at'])
      .where('project_id', '=', projectId)
      .where('column_id', '=', columnId);
    // coalesce: PostgreSQL sorts NULL first in descending order, SQLite last; a ticket without completed_at goes last on both.
    const ordered = isDone ? query.orderBy(sql`coalesce(completed_at, '')`, 'desc') : query.orderBy('updated_at', 'desc');
    return ordered.orderBy('number', 'desc').limit(limit);
  },
  params: (projectId, columnId, _isDone, limit) => [projectId, columnId, limit],
  shape: (_projectId, _columnId, isDone, _limit) => (isDone ? 'done' : 'open'),
});

/**
 * The tickets of one column a cut index keeps first, best first: an open column's most recently updated, a done
 * column's most recently completed (ties: the higher number), the order of keepOrder.
 */
export async function columnIndexCandidates(db: Db, projectId: string, columnId: string, isDone: boolean, limit: number) {
  return candidatesQuery(db, projectId, columnId, isDone, limit);
}

/** Tickets with their parent's number (null without a parent); the parent of a ticket is always in its project. */
function withParentNumber(db: Db, projectId: string) {
  return db
    .selectFrom('tickets as t')
    .leftJoin('tickets as p', (join) => join.onRef('p.id', '=', 't.parent_id').onRef('p.project_id', '=', 't.project_id'))
    .where('t.project_id', '=', projectId);
}

/** A page of get_all_tickets's index: tickets numbered above `afterNumber`, by number, with their summary and parent number. */
export async function summaryIndexPage(db: Db, projectId: string, afterNumber: number, limit: number) {
  return withParentNumber(db, projectId)
    .select(['t.number', 't.title', 't.ticket_type', 't.column_id', 't.ai_summary', 'p.number as parent_number'])
    .where('t.number', '>', afterNumber)
    .orderBy('t.number')
    .limit(limit)
    .execute();
}

/** The most recently updated tickets, metadata only, with their parent's number. */
export async function recentTickets(db: Db, projectId: string, limit: number) {
  return withParentNumber(db, projectId)
    .select([
      't.number',
      't.title',
      't.ticket_type',
      't.priority',
      't.column_id',
      'p.number as parent_number',
      't.created_at',
      't.updated_at',
      't.completed_at',
    ])
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.number', 'desc')
    .limit(limit)
    .execute();
}

/** Number of tickets in each column of a project. */
export async function ticketCountsByColumn(db: Db, projectId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('tickets')
    .select(['column_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('project_id', '=', projectId)
    .groupBy('column_id')
    .execute();
  return new Map(rows.map((row) => [row.column_id, Number(row.n)]));
}
