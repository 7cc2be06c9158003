import { readSnapshot } from '@switchboard/core';
import type { BoardContext } from './board-context.ts';
import { resolveColumn, sortColumns, type BoardColumn } from '../domain/board-rules.ts';
import { LIST_LIMIT, type TicketOrder, type TicketStatus } from '../domain/vocabulary.ts';
import { clip } from '../domain/text-rules.ts';
import { AnswerRoom, answerCost, entryCost, replacingNullCost, type Cost } from '../domain/answer-budget.ts';
import { cursorRefusal, decodeCursor, encodeCursor } from '../domain/cursor.ts';
import { projectColumns } from '../store/project-store.ts';
import {
  activityOf,
  commentsOf,
  findLaneTickets,
  findTickets,
  labelsOf,
  relatedTicketsOf,
  ticketCountsByColumn,
  type TicketRow,
} from '../store/ticket-store.ts';
import { presentActivity, presentColumn, presentComment, presentTicket } from './presenters.ts';
import { requireTicket } from './ticket-lookup.ts';

function columnMap(columns: readonly BoardColumn[]): Map<string, BoardColumn> {
  return new Map(columns.map((column) => [column.id, column]));
}

/** Presents several tickets with their parents, sub-tickets and labels, loaded in batches. */
export async function presentTickets(ctx: BoardContext, rows: readonly TicketRow[], columns?: readonly BoardColumn[]) {
  const ids = rows.map((row) => row.id);
  const parentIds = [...new Set(rows.map((row) => row.parent_id).filter((id): id is string => id !== null))];
  // One snapshot (and one read transaction on SQLite) for the reads that start together.
  const [cols, { parents, subTickets: subs }, labels] = await readSnapshot(ctx.db, () =>
    Promise.all([columns ?? projectColumns(ctx.db, ctx.project.id), relatedTicketsOf(ctx.db, ctx.project.id, parentIds, ids), labelsOf(ctx.db, ids)]),
  );
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
  const [[ticket], comments, activity] = await readSnapshot(ctx.db, () =>
    Promise.all([presentTickets(ctx, [row]), commentsOf(ctx.db, row.id), activityOf(ctx.db, row.id)]),
  );
  // Not `{ ...ticket, comments, activity }`: on Node 20 a spread followed by more properties takes V8's slow
  // path (about a microsecond each) and its results outlived young-generation collections: under load every
  // scavenge promoted 327 KB instead of 27 KB (npm run bench).
  return Object.assign(ticket, { comments: comments.map(presentComment), activity: activity.map(presentActivity) });
}

/** Filters of list_tickets, its order, and where its page starts. */
export interface ListTicketsInput {
  column_name?: string;
  status?: TicketStatus;
  priority?: string;
  search?: string;
  limit?: number;
  cursor?: string;
  order?: TicketOrder;
}

/**
 * The rows of a board-ordered page: lane by lane (the lanes in board and column order), each by rank, from the
 * cursor's place on; one read of tickets_lane_rank per lane until the page (and one more row) is full.
 */
async function boardOrderRows(
  ctx: BoardContext,
  lanes: readonly BoardColumn[],
  filter: { priority?: string; search?: string; limit: number },
  after: { column: string; rank: number; number: number } | undefined,
  rawCursor: string | undefined,
) {
  let start = 0;
  if (after) {
    start = lanes.findIndex((lane) => lane.id === after.column);
    // The cursor's column is gone, or the filters changed: the same refusal as any cursor not of this listing.
    if (start < 0) throw cursorRefusal('list_tickets', rawCursor ?? '');
  }
  const rows: TicketRow[] = [];
  for (let i = start; i < lanes.length && rows.length < filter.limit; i++) {
    const from = i === start && after ? after : undefined;
    rows.push(...(await findLaneTickets(ctx.db, ctx.project.id, lanes[i].id, { ...filter, limit: filter.limit - rows.length }, from)));
  }
  return rows;
}

/**
 * list_tickets: tickets filtered by column, status, priority and text, most recently updated first (or, with
 * order "board", as the board shows them). A page holds at most `limit` tickets and ends early where the next
 * would pass the answer budget; next_cursor (null when nothing follows) continues after the page's last ticket.
 */
export async function listTickets(ctx: BoardContext, input: ListTicketsInput) {
  // The tool's schema already holds limit to 1..LIST_LIMIT.max.
  const limit = input.limit ?? LIST_LIMIT.default;
  const byBoard = input.order === 'board';
  const after = input.cursor === undefined ? undefined : decodeCursor('list_tickets', input.cursor);
  // A cursor of the other order is not a cursor of this listing.
  if (after && 'column' in after !== byBoard) throw cursorRefusal('list_tickets', input.cursor!);
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
  const filter = { priority: input.priority, search: input.search?.trim() || undefined, limit: limit + 1 };
  // One row more than the page, to know whether anything follows it.
  const rows = byBoard
    ? await boardOrderRows(
        ctx,
        sortColumns(columns).filter((column) => !columnIds || columnIds.includes(column.id)),
        filter,
        after && 'column' in after ? after : undefined,
        input.cursor,
      )
    : await findTickets(ctx.db, ctx.project.id, { ...filter, columnIds, after: after && 'updatedAt' in after ? after : undefined });
  const presented = await presentTickets(ctx, rows.slice(0, limit), columns);
  const answer = { tickets: [] as object[], count: 0, next_cursor: null as string | null };
  // count and next_cursor are counted at their widest: a page of up to 100 tickets and a cursor after its last.
  const room = new AnswerRoom(answerCost({ ...answer, count: LIST_LIMIT.max }));
  const cursorAfter = (row: TicketRow) =>
    encodeCursor(
      byBoard
        ? { tool: 'list_tickets', column: row.column_id, rank: row.rank, number: row.number }
        : { tool: 'list_tickets', updatedAt: row.updated_at, number: row.number },
    );
  for (let i = 0; i < presented.length; i++) {
    const trailing = replacingNullCost(cursorAfter(rows[i]));
    // A ticket too large for a page of its own (a description of tens of thousands of characters) is shortened to fit.
    const ticket = i === 0 ? fitTicket(presented[i], room.left(), trailing) : presented[i];
    if (!room.take(entryCost(ticket), trailing)) break;
    answer.tickets.push(ticket);
  }
  answer.count = answer.tickets.length;
  if (answer.count > 0 && answer.count < rows.length) answer.next_cursor = cursorAfter(rows[answer.count - 1]);
  return answer;
}

/** A copy of `object` with `extra` set to `value` right after `field` (the fields keep the order clients see). */
function withFieldAfter<T extends object>(object: T, field: keyof T, extra: string, value: unknown): T {
  return Object.fromEntries(
    Object.entries(object).flatMap(([key, existing]) =>
      key === field
        ? [
            [key, existing],
            [extra, value],
          ]
        : [[key, existing]],
    ),
  ) as T;
}

/** The largest n in 0..max for which `ok(n)` holds (ok is monotonic), or -1 when not even ok(0) does. */
function largest(max: number, ok: (n: number) => boolean): number {
  if (!ok(0)) return -1;
  let [low, high] = [0, max];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (ok(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * A listed ticket shortened to fit `room` when it cannot fit even alone: its description clipped
 * ("description_truncated": true), and if that is not enough its sub-ticket list cut ("sub_tickets_truncated":
 * true); get_ticket shows all of it. Any other ticket comes back as it is.
 */
function fitTicket<T extends { description: string; sub_tickets: unknown[] }>(ticket: T, room: Cost, trailing: Cost): T {
  const fits = (candidate: object) => new AnswerRoom({ text: 0, response: 0 }, room).fits(entryCost(candidate), trailing);
  if (fits(ticket)) return ticket;
  const clipped = (chars: number) =>
    withFieldAfter({ ...ticket, description: clip(ticket.description, chars).text }, 'description', 'description_truncated', true);
  const chars = largest(ticket.description.length, (n) => fits(clipped(n)));
  if (chars >= 0) return clipped(chars);
  const short = clipped(0);
  const cut = (count: number) => withFieldAfter({ ...short, sub_tickets: ticket.sub_tickets.slice(0, count) }, 'sub_tickets', 'sub_tickets_truncated', true);
  return cut(
    Math.max(
      0,
      largest(ticket.sub_tickets.length, (n) => fits(cut(n))),
    ),
  );
}

/** list_columns: every column of every board with its ticket count. */
export async function listColumns(ctx: BoardContext) {
  const [columns, counts] = await Promise.all([projectColumns(ctx.db, ctx.project.id), ticketCountsByColumn(ctx.db, ctx.project.id)]);
  return { columns: sortColumns(columns).map((column) => presentColumn(column, counts.get(column.id) ?? 0)) };
}
