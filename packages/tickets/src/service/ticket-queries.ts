import type { BoardContext } from './board-context.ts';
import { resolveColumn, sortColumns, type BoardColumn } from '../domain/board-rules.ts';
import { ticketKey } from '../domain/ticket-rules.ts';
import { LIST_LIMIT, type TicketStatus } from '../domain/vocabulary.ts';
import { DOCUMENT_CLIP, RECENT_TICKETS, SUMMARY_CLIP, clip } from '../domain/text-rules.ts';
import { listLabels, projectColumns } from '../store/project-store.ts';
import { listDocumentMeta, listDocuments } from '../store/document-store.ts';
import {
  activityOf,
  commentsOf,
  findTickets,
  labelsOf,
  recentTickets,
  relatedTicketsOf,
  ticketCountsByColumn,
  statusIndex,
  summaryIndex,
  type TicketRow,
} from '../store/ticket-store.ts';
import { presentActivity, presentColumn, presentComment, presentDocumentMeta, presentLabel, presentProject, presentTicket } from './presenters.ts';
import { requireTicket } from './ticket-lookup.ts';

function columnMap(columns: readonly BoardColumn[]): Map<string, BoardColumn> {
  return new Map(columns.map((column) => [column.id, column]));
}

/** Presents several tickets with their parents, sub-tickets and labels, loaded in batches. */
export async function presentTickets(ctx: BoardContext, rows: readonly TicketRow[], columns?: readonly BoardColumn[]) {
  const ids = rows.map((row) => row.id);
  const parentIds = [...new Set(rows.map((row) => row.parent_id).filter((id): id is string => id !== null))];
  const [cols, { parents, subTickets: subs }, labels] = await Promise.all([
    columns ?? projectColumns(ctx.db, ctx.project.id),
    relatedTicketsOf(ctx.db, ctx.project.id, parentIds, ids),
    labelsOf(ctx.db, ids),
  ]);
  const byColumn = columnMap(cols);
  const parentById = new Map(parents.map((parent) => [parent.id, parent]));
  return rows.map((row) =>
    presentTicket(row, {
      projectKey: ctx.project.key,
      columns: byColumn,
      parent: row.parent_id ? parentById.get(row.parent_id) : undefined,
      subTickets: subs.filter((sub) => sub.parent_id === row.id),
      labels: labels.get(row.id) ?? [],
    }),
  );
}

/** A ticket as create, update, move and convert return it (without comments and activity). */
export async function ticketView(ctx: BoardContext, id: string) {
  const row = await requireTicket(ctx, ctx.db, id);
  return (await presentTickets(ctx, [row]))[0];
}

/** get_ticket: the ticket with its comments and activity (oldest first). */
export async function getTicket(ctx: BoardContext, ref: string | number) {
  const row = await requireTicket(ctx, ctx.db, ref);
  const [[ticket], comments, activity] = await Promise.all([presentTickets(ctx, [row]), commentsOf(ctx.db, row.id), activityOf(ctx.db, row.id)]);
  // Not `{ ...ticket, comments, activity }`: on Node 20 a spread followed by more properties takes V8's slow
  // path (about a microsecond each) and its results outlived young-generation collections: under load every
  // scavenge promoted 327 KB instead of 27 KB (npm run bench).
  return Object.assign(ticket, { comments: comments.map(presentComment), activity: activity.map(presentActivity) });
}

/** Filters of list_tickets. */
export interface ListTicketsInput {
  column_name?: string;
  status?: TicketStatus;
  priority?: string;
  search?: string;
  limit?: number;
}

/** list_tickets: tickets filtered by column, status, priority and text, most recently updated first. */
export async function listTickets(ctx: BoardContext, input: ListTicketsInput) {
  // The tool's schema already holds limit to 1..LIST_LIMIT.max.
  const limit = input.limit ?? LIST_LIMIT.default;
  const columns = await projectColumns(ctx.db, ctx.project.id);
  let columnIds: string[] | undefined;
  if (input.column_name) {
    // Like everywhere else: an unqualified name resolves on the first board that has it.
    columnIds = [resolveColumn(columns, input.column_name).id];
  }
  if (input.status) {
    const wantDone = input.status === 'completed';
    const statusIds = columns.filter((column) => column.isDone === wantDone).map((column) => column.id);
    columnIds = columnIds ? columnIds.filter((id) => statusIds.includes(id)) : statusIds;
  }
  const rows = await findTickets(ctx.db, ctx.project.id, { columnIds, priority: input.priority, search: input.search?.trim() || undefined, limit });
  const tickets = await presentTickets(ctx, rows, columns);
  return { tickets, count: tickets.length };
}

/** list_columns: every column of every board with its ticket count. */
export async function listColumns(ctx: BoardContext) {
  const [columns, counts] = await Promise.all([projectColumns(ctx.db, ctx.project.id), ticketCountsByColumn(ctx.db, ctx.project.id)]);
  return { columns: sortColumns(columns).map((column) => presentColumn(column, counts.get(column.id) ?? 0)) };
}

/**
 * get_project_status: the project, stats, every board with its columns and
 * ticket index, the 5 most recently updated tickets, documents (metadata; the
 * README's first 3000 characters when Auto-Summary is on) and labels.
 */
export async function projectStatus(ctx: BoardContext) {
  const [columns, index, recent, documents, labels] = await Promise.all([
    projectColumns(ctx.db, ctx.project.id),
    statusIndex(ctx.db, ctx.project.id),
    recentTickets(ctx.db, ctx.project.id, RECENT_TICKETS),
    listDocuments(ctx.db, ctx.project.id),
    listLabels(ctx.db, ctx.project.id),
  ]);
  const byColumn = columnMap(columns);
  const keyOf = (number: number) => ticketKey(ctx.project.key, number);
  // One pass over the index: each column's tickets and the tallies (keys in order of first appearance, by number).
  const ticketsByColumn = new Map<string, Array<{ key: string; title: string; ticket_type: string; priority: string }>>();
  const byColumnName = new Map<string, number>();
  const byType = new Map<string, number>();
  const byPriority = new Map<string, number>();
  let completed = 0;
  for (const row of index) {
    const column = byColumn.get(row.column_id);
    if (column?.isDone) completed++;
    const name = column?.name ?? '?';
    byColumnName.set(name, (byColumnName.get(name) ?? 0) + 1);
    byType.set(row.ticket_type, (byType.get(row.ticket_type) ?? 0) + 1);
    byPriority.set(row.priority, (byPriority.get(row.priority) ?? 0) + 1);
    let list = ticketsByColumn.get(row.column_id);
    if (!list) ticketsByColumn.set(row.column_id, (list = []));
    list.push({ key: keyOf(row.number), title: row.title, ticket_type: row.ticket_type, priority: row.priority });
  }
  const boards: Array<{ name: string; columns: unknown[] }> = [];
  for (const column of sortColumns(columns)) {
    let board = boards.find((candidate) => candidate.name === column.boardName);
    if (!board) boards.push((board = { name: column.boardName, columns: [] }));
    const tickets = ticketsByColumn.get(column.id) ?? [];
    board.columns.push({ ...presentColumn(column, tickets.length), tickets });
  }
  const autoSummary = ctx.project.auto_summary === 1;
  const readme = documents.find((doc) => doc.doc_type === 'readme');
  return {
    project: presentProject(ctx.project),
    stats: {
      total: index.length,
      open: index.length - completed,
      completed,
      by_column: Object.fromEntries(byColumnName),
      by_type: Object.fromEntries(byType),
      by_priority: Object.fromEntries(byPriority),
    },
    boards,
    recent_tickets: recent.map((row) => ({
      key: keyOf(row.number),
      title: row.title,
      ticket_type: row.ticket_type,
      priority: row.priority,
      column: byColumn.get(row.column_id)?.name ?? null,
      parent: row.parent_number === null ? null : keyOf(row.parent_number),
      created_at: row.created_at,
      updated_at: row.updated_at,
      completed_at: row.completed_at,
    })),
    documents: documents.map((doc) => {
      const meta = presentDocumentMeta(doc);
      if (!autoSummary || doc !== readme) return meta;
      const clipped = clip(doc.content, DOCUMENT_CLIP);
      return { ...meta, content: clipped.text, content_truncated: clipped.truncated };
    }),
    labels: labels.map(presentLabel),
  };
}

/** get_all_tickets: the compact index of every ticket and every document clipped to 3000 characters. */
export async function allTickets(ctx: BoardContext) {
  const [columns, index, documents] = await Promise.all([
    projectColumns(ctx.db, ctx.project.id),
    summaryIndex(ctx.db, ctx.project.id),
    listDocuments(ctx.db, ctx.project.id),
  ]);
  const byColumn = columnMap(columns);
  return {
    tickets: index.map((row) => ({
      key: ticketKey(ctx.project.key, row.number),
      title: row.title,
      ticket_type: row.ticket_type,
      column: byColumn.get(row.column_id)?.name ?? null,
      parent: row.parent_number === null ? null : ticketKey(ctx.project.key, row.parent_number),
      ai_summary: row.ai_summary === null ? null : clip(row.ai_summary, SUMMARY_CLIP).text,
    })),
    documents: documents.map((doc) => {
      const clipped = clip(doc.content, DOCUMENT_CLIP);
      return { ...presentDocumentMeta(doc), content: clipped.text, content_truncated: clipped.truncated };
    }),
  };
}

/** list_documents: documents without content, optionally of one doc_type. */
export async function listDocumentsMeta(ctx: BoardContext, docType?: string) {
  return { documents: (await listDocumentMeta(ctx.db, ctx.project.id, docType)).map(presentDocumentMeta) };
}
