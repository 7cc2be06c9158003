import { AppError } from '@switchboard/core';
import { DEFAULT_COLUMNS } from './board-rules.ts';

/** Longest board, column and label name. */
export const NAME_MAX = 60;
/** Most columns a board may have. */
export const COLUMNS_MAX = 30;
/** Longest project name and description. */
export const PROJECT_NAME_MAX = 200;
export const PROJECT_DESCRIPTION_MAX = 10_000;
/** Longest token name. */
export const TOKEN_NAME_MAX = 100;

/** What the naming rules call a thing in their messages. */
export type NamedThing = 'board' | 'column' | 'label' | 'project' | 'token';

/** A name as stored: trimmed, 1 to `max` characters; refused otherwise, naming the limit. */
export function validName(thing: NamedThing, raw: string, max = NAME_MAX): string {
  const name = raw.trim();
  if (name === '') throw new AppError('invalid_request', `A ${thing} name must not be empty.`, { field: 'name' });
  if (name.length > max) throw new AppError('invalid_request', `A ${thing} name must be at most ${max} characters.`, { field: 'name' });
  return name;
}

/**
 * Refuses a name another board of the project, column of the board or label of the project already has,
 * compared case-insensitively (`exceptId`: the one being renamed).
 */
export function assertNameFree(thing: 'board' | 'column' | 'label', name: string, existing: ReadonlyArray<{ id: string; name: string }>, exceptId?: string): void {
  const taken = existing.find((other) => other.id !== exceptId && other.name.toLowerCase() === name.toLowerCase());
  if (!taken) return;
  const where = thing === 'column' ? 'on this board' : 'in this project';
  throw new AppError('conflict', `A ${thing} named "${taken.name}" already exists ${where} (names are compared without case). Choose another name.`, { field: 'name' });
}

/** The columns of a new board: the given names (the last is the done column), or the default columns. */
export function newBoardColumns(names: readonly string[] | undefined): Array<{ name: string; isDone: boolean }> {
  const chosen = (names ?? DEFAULT_COLUMNS).map((name) => validName('column', name));
  if (chosen.length === 0) throw new AppError('invalid_request', 'A board needs at least one column; leave columns out for the default ones.', { field: 'columns' });
  if (chosen.length > COLUMNS_MAX) throw new AppError('invalid_request', `A board has at most ${COLUMNS_MAX} columns.`, { field: 'columns' });
  chosen.forEach((name, i) => assertNameFree('column', name, chosen.slice(0, i).map((other, j) => ({ id: String(j), name: other }))));
  return chosen.map((name, i) => ({ name, isDone: i === chosen.length - 1 }));
}

/**
 * The order of a board's columns after one moves to `position` (0 = first; past the end = last): the ids in
 * their new order. The others keep their relative order.
 */
export function reorderColumns(orderedIds: readonly string[], movingId: string, position: number): string[] {
  const rest = orderedIds.filter((id) => id !== movingId);
  const at = Math.max(0, Math.min(position, rest.length));
  return [...rest.slice(0, at), movingId, ...rest.slice(at)];
}

/** A column as the done-column rules see it. */
export interface ColumnState {
  id: string;
  name: string;
  isDone: boolean;
}

/**
 * Which column is the board's done column after setting `is_done_column` of one: `true` makes it the done
 * column and the previous one an ordinary column; `false` on the done column is refused, since every board
 * keeps exactly one. Returns the previous done column to unset, or undefined when nothing changes.
 */
export function doneColumnChange(board: readonly ColumnState[], columnId: string, isDone: boolean): { from: ColumnState | undefined; to: ColumnState } | undefined {
  const column = board.find((candidate) => candidate.id === columnId)!;
  const current = board.find((candidate) => candidate.isDone);
  if (!isDone) {
    if (column.isDone) {
      throw new AppError('conflict', `"${column.name}" is the board's done column and every board has exactly one: make another column the done column instead (is_done_column: true on it).`, {
        field: 'is_done_column',
      });
    }
    return undefined;
  }
  if (column.isDone) return undefined;
  return { from: current, to: column };
}

/** Refuses deleting a column that holds tickets, the board's only column, or its done column. */
export function assertColumnDeletable(column: ColumnState & { ticketCount: number }, boardColumnCount: number): void {
  if (column.ticketCount > 0) {
    throw new AppError('conflict', `Column "${column.name}" still holds ${column.ticketCount} ticket(s): move them to another column first.`);
  }
  if (boardColumnCount <= 1) throw new AppError('conflict', `"${column.name}" is the board's last column; a board needs at least one.`);
  if (column.isDone) throw new AppError('conflict', `"${column.name}" is the board's done column: make another column the done column first.`);
}
