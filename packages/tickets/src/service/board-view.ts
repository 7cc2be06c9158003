import type { BoardContext } from './board-context.ts';
import { boardColumns, sortColumns } from '../domain/board-rules.ts';
import { ticketKey } from '../domain/ticket-rules.ts';
import { AppError } from '@switchboard/core';
import { BOARD_KEYS_MAX } from '../domain/board-page.ts';
import { TICKET_KEY } from '../domain/ticket-key.ts';
import { invalidValue } from '../domain/vocabulary.ts';
import { projectColumns } from '../store/project-store.ts';
import { boardCardRows, boardCardRowsOf, laneTicketCounts, parentSummaries, projectTicketLabels } from '../store/board-store.ts';
import type { TicketLabel } from '../store/ticket-store.ts';
import { presentLabel } from './presenters.ts';

type CardRow = Awaited<ReturnType<typeof boardCardRows>>[number];

type Parents = Awaited<ReturnType<typeof parentSummaries>>;

/** A card: what a lane shows of a ticket. */
function presentCard(row: CardRow, projectKey: string, labels: readonly TicketLabel[], parents: Parents) {
  const parent = row.parent_id === null ? undefined : parents.get(row.parent_id);
  const children = row.ticket_type === 'epic' ? parents.get(row.id) : undefined;
  return {
    key: ticketKey(projectKey, row.number),
    title: row.title,
    ticket_type: row.ticket_type,
    priority: row.priority,
    labels: labels.map(presentLabel),
    assignee: row.assignee ? (JSON.parse(row.assignee) as { id: string; name: string; email: string }) : null,
    parent: parent === undefined ? null : ticketKey(projectKey, parent.number),
    progress: row.ticket_type === 'epic' ? { done: children?.done ?? 0, total: children?.total ?? 0 } : null,
    rank: row.rank,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
  };
}

/** The most cards per lane a first read of a board (`cards`) may ask for. */
export const BOARD_FIRST_CARDS_MAX = 1000;

function labelsByTicket(rows: ReadonlyArray<TicketLabel & { ticket_id: string }>): Map<string, TicketLabel[]> {
  const labels = new Map<string, TicketLabel[]>();
  for (const { ticket_id, ...label } of rows) {
    const list = labels.get(ticket_id);
    if (list) list.push(label);
    else labels.set(ticket_id, [label]);
  }
  return labels;
}

/** The ticket numbers of `keys` (comma-separated keys of this project, any case); 400 naming `keys` for anything else or too many. */
function keyNumbers(projectKey: string, keys: string): number[] {
  const list = keys.split(',').map((key) => key.trim());
  const refuse = (message: string) => new AppError('invalid_request', `keys: ${message}`, { field: 'keys' });
  if (list.length > BOARD_KEYS_MAX) throw refuse(`names ${list.length} tickets; at most ${BOARD_KEYS_MAX} at a time.`);
  return list.map((key) => {
    const match = TICKET_KEY.exec(key);
    if (!match || match[1]!.toUpperCase() !== projectKey) throw refuse(`"${key}" is not a ticket key of project ${projectKey} (e.g. ${projectKey}-12).`);
    return Number(match[2]);
  });
}

/**
 * GET …/board?keys=K1,K2…: the cards of just these tickets, each with its lane (`column`), for a page that places
 * tickets changed since it read the board; a key whose ticket is not on this board (deleted, or on another board) is
 * left out. Three queries after the columns', none per ticket and none over the whole board: the cards, then
 * their parents' and epics' summaries and their labels.
 */
async function boardCards(ctx: BoardContext, board: { name: string; lanes: ReturnType<typeof boardColumns> }, keys: string, cards: number | undefined) {
  if (cards !== undefined)
    throw new AppError('invalid_request', 'keys and cards do not go together: keys reads the cards of those tickets only.', { field: 'cards' });
  const numbers = [...new Set(keyNumbers(ctx.project.key, keys))];
  const laneNames = new Map(board.lanes.map((lane) => [lane.id, lane.name]));
  const rows = (await boardCardRowsOf(ctx.db, ctx.project.id, numbers)).filter((row) => laneNames.has(row.column_id));
  const ids = rows.map((row) => row.id);
  const [parents, labelRows] = await Promise.all([
    parentSummaries(ctx.db, ctx.project.id, [...new Set([...ids, ...rows.flatMap((row) => (row.parent_id === null ? [] : [row.parent_id]))])]),
    projectTicketLabels(ctx.db, ctx.project.id, ids),
  ]);
  const labels = labelsByTicket(labelRows);
  const byNumber = new Map(rows.map((row) => [row.number, row]));
  const found = numbers.flatMap((number) => {
    const row = byNumber.get(number);
    return row ? [{ ...presentCard(row, ctx.project.key, labels.get(row.id) ?? [], parents), column: laneNames.get(row.column_id)! }] : [];
  });
  return { board: { name: board.name }, cards: found };
}

/**
 * GET …/board?board=NAME[&cards=N|&keys=K1,K2…]: one board (by name, without case; the first by default) with its tickets
 * as cards in their lanes, each lane in its order (rank): every ticket, or each lane's first `cards` (its
 * `ticket_count` is still the lane's whole count, and `complete` says whether any lane was cut). Four queries
 * whatever the board's size, none per ticket: columns, the cards (each lane's first ones ranked by the
 * database), the parents with their epics' progress, the labels; a cut board adds the lanes' counts. With
 * `keys`, just those tickets' cards (boardCards).
 */
export async function boardView(ctx: BoardContext, input: { board?: string; cards?: number; keys?: string }) {
  const columns = sortColumns(await projectColumns(ctx.db, ctx.project.id));
  const boards = [...new Map(columns.map((column) => [column.boardId, column.boardName])).entries()];
  const wanted = input.board?.trim();
  const board = wanted ? boards.find(([, name]) => name.toLowerCase() === wanted.toLowerCase()) : boards[0];
  if (!board) {
    throw invalidValue(
      'board',
      input.board,
      boards.map(([, name]) => name),
    );
  }
  const lanes = boardColumns(columns, board[0]);
  if (input.keys !== undefined) return boardCards(ctx, { name: board[1], lanes }, input.keys, input.cards);
  const laneIds = lanes.map((lane) => lane.id);
  const [rows, parents, labelRows, counts] = await Promise.all([
    boardCardRows(ctx.db, ctx.project.id, laneIds, input.cards),
    parentSummaries(ctx.db, ctx.project.id),
    projectTicketLabels(ctx.db, ctx.project.id),
    input.cards === undefined ? undefined : laneTicketCounts(ctx.db, ctx.project.id, laneIds),
  ]);
  const labels = labelsByTicket(labelRows);
  const cards = new Map(lanes.map((lane) => [lane.id, [] as Array<ReturnType<typeof presentCard>>]));
  for (const row of rows) cards.get(row.column_id)?.push(presentCard(row, ctx.project.key, labels.get(row.id) ?? [], parents));
  const shown = lanes.map((lane) => {
    const laneCards = cards.get(lane.id)!;
    return { name: lane.name, is_done_column: lane.isDone, ticket_count: counts?.get(lane.id) ?? laneCards.length, cards: laneCards };
  });
  return { board: { name: board[1] }, columns: shown, complete: shown.every((lane) => lane.cards.length === lane.ticket_count) };
}
