import { AppError } from '@switchboard/core';

/** A column as the rules see it: its board, its order on that board, whether it is the done column. */
export interface BoardColumn {
  id: string;
  name: string;
  boardId: string;
  boardName: string;
  /** Order of the board in the project (0 = first board). */
  boardPosition: number;
  /** Order of the column on its board (0 = first column). */
  position: number;
  isDone: boolean;
}

/** Where a column sits on its board: first (initial), done, or in between. */
export type ColumnRole = 'first' | 'middle' | 'done';

/** The name of a new project's board. */
export const DEFAULT_BOARD_NAME = 'Main';
/** The columns of a new project's board, in order; the last one is the done column. */
export const DEFAULT_COLUMNS = ['Backlog', 'To Do', 'In Progress', 'Review', 'Done'] as const;
/** The preferred target of an epic whose work started. */
export const IN_PROGRESS_NAME = 'In Progress';

/** Columns in board order, then column order. */
export function sortColumns(columns: readonly BoardColumn[]): BoardColumn[] {
  return [...columns].sort((a, b) => a.boardPosition - b.boardPosition || a.position - b.position);
}

/** The columns of one board, in order. */
export function boardColumns(columns: readonly BoardColumn[], boardId: string): BoardColumn[] {
  return sortColumns(columns.filter((column) => column.boardId === boardId));
}

/** The first column of the first board: where a ticket goes when no column is named. */
export function initialColumn(columns: readonly BoardColumn[]): BoardColumn {
  const first = sortColumns(columns)[0];
  if (!first) throw new AppError('conflict', 'This project has no columns; add a board with columns first.');
  return first;
}

/**
 * Resolves a column name case-insensitively; with several boards an
 * unqualified name resolves on the first board that has it. `Board/Column`
 * names a column on a given board. Unknown names are refused with the list of
 * valid names.
 */
export function resolveColumn(columns: readonly BoardColumn[], name: string | undefined): BoardColumn {
  if (name === undefined || name.trim() === '') return initialColumn(columns);
  const wanted = name.trim().toLowerCase();
  const sorted = sortColumns(columns);
  const direct = sorted.find((column) => column.name.toLowerCase() === wanted);
  if (direct) return direct;
  const qualified = sorted.find((column) => `${column.boardName}/${column.name}`.toLowerCase() === wanted.replace(/\s*\/\s*/, '/'));
  if (qualified) return qualified;
  const valid = [...new Set(sorted.map((column) => column.name))];
  throw new AppError(
    'invalid_request',
    `Unknown column "${name}". Valid columns: ${valid.join(', ')}. Column names come from get_project_status or list_columns.`,
    {
      field: 'column_name',
      valid_values: valid,
    },
  );
}

/** The role of a column on its board. */
export function columnRole(columns: readonly BoardColumn[], column: BoardColumn): ColumnRole {
  if (column.isDone) return 'done';
  const onBoard = boardColumns(columns, column.boardId);
  return onBoard[0]?.id === column.id ? 'first' : 'middle';
}

/** The done column of a board, if it has one. */
export function doneColumnOf(columns: readonly BoardColumn[], boardId: string): BoardColumn | undefined {
  return boardColumns(columns, boardId).find((column) => column.isDone);
}

/** The column an epic moves to when work on it starts: `In Progress` if the board has it, else the first middle column. */
export function inProgressColumnOf(columns: readonly BoardColumn[], boardId: string): BoardColumn | undefined {
  const middle = boardColumns(columns, boardId).filter((column) => columnRole(columns, column) === 'middle');
  return middle.find((column) => column.name.toLowerCase() === IN_PROGRESS_NAME.toLowerCase()) ?? middle[0];
}

/** An automatic epic move: where to, and why (the activity detail). */
export interface EpicAdvance {
  to: BoardColumn;
  reason: string;
}

/**
 * The epic rule of the spec's state table, applied after every change to a
 * sub-ticket: all sub-tickets done → the epic goes to the done column; else,
 * any sub-ticket in a middle column while the epic is not in one → the epic
 * goes to the in-progress column; all in the first column → it stays.
 * Returns undefined when the epic stays where it is.
 */
export function epicAdvance(columns: readonly BoardColumn[], epicColumn: BoardColumn, subTicketColumns: readonly BoardColumn[]): EpicAdvance | undefined {
  if (subTicketColumns.length === 0) return undefined;
  const roles = subTicketColumns.map((column) => columnRole(columns, column));
  if (roles.every((role) => role === 'done')) {
    const done = doneColumnOf(columns, epicColumn.boardId);
    if (!done || done.id === epicColumn.id) return undefined;
    return { to: done, reason: 'all sub-tickets are done' };
  }
  if (roles.some((role) => role === 'middle') && columnRole(columns, epicColumn) !== 'middle') {
    const target = inProgressColumnOf(columns, epicColumn.boardId);
    if (!target || target.id === epicColumn.id) return undefined;
    return { to: target, reason: 'work started on a sub-ticket' };
  }
  return undefined;
}

/**
 * `completed_at` after a ticket lands in a column: set when it enters a done
 * column (kept if it was already done), cleared when it leaves.
 */
export function completedAtAfterMove(target: BoardColumn, previous: { completedAt: string | null; wasDone: boolean }, now: string): string | null {
  if (!target.isDone) return null;
  return previous.wasDone && previous.completedAt ? previous.completedAt : now;
}

/**
 * `completed_at` of an epic the rule moved to the done column: when its last
 * sub-ticket was completed (so imported, backdated history stays in the past),
 * else now.
 */
export function epicCompletedAt(subTicketCompletedAts: ReadonlyArray<string | null>, now: string): string {
  const known = subTicketCompletedAts.filter((at): at is string => at !== null).sort();
  return known.length === subTicketCompletedAts.length && known.length > 0 ? known[known.length - 1] : now;
}
