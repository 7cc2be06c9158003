import { AppError } from '@switchboard/core';
import { DEFAULT_COLUMNS } from './board-rules.ts';
import { hasControlCharacter } from './text-rules.ts';

/*
 * What a project may hold. get_project_status lists every board, column and label of a project, whole, and
 * list_columns and list_labels list them too; each must stay within the answer budget (answer-budget.ts:
 * 39,000 characters of text, 89,000 of MCP response) however a project is set up. These limits make the
 * worst project the rules allow fit with room to spare, yet no real team meets them (Linear and Plane teams
 * work with a handful of boards of about ten columns and a few dozen labels).
 *
 * The worst get_project_status, measured by test/answer-size-limits.test.ts (characters of text / of the
 * whole MCP response), every name as long as allowed:
 *   - 10 boards holding 40 columns, each column with its board_name, exact ticket_count,
 *     "index_truncated": true and (here) an empty index:                            9,830 / 20,360
 *   - stats, with the 40 columns' by_column tallies:                                 2,810 /  5,720
 *   - 50 labels ({id, name, color}):                                                 6,200 / 13,000
 *   - 5 recent tickets whose 500-character titles are all double quotes (JSON
 *     writes each as 2 characters, 6 in the response):                              6,380 / 17,940
 *   - the project: a 200-character name of double quotes and the description,
 *     shortened to at most DESCRIPTION_ROOM (3,002 / 6,008, status-rules.ts):       2,910 /  7,440
 *   - the hint and the rest of the skeleton:                                           790 /  1,600
 *   altogether                                                                      28,920 / 66,060
 * Ticket counts of five digits instead of two add about 250 / 500. That leaves about 10,000 characters of
 * text and 22,500 of response, what INDEX_FLOOR (status-rules.ts) keeps for them, to the column indexes and
 * the documents, which are cut to what is left: the status then still shows about 55 index entries (the
 * documents only as documents_total), and every board, column, count and label. list_columns answers 7,560 / 15,700 and list_labels 6,210 / 13,120.
 *
 * Names are one line of plain text: no control characters (which JSON writes as six characters, thirteen
 * in an MCP response), and board, column and label names no double quote or backslash either, so each of
 * their characters costs one character of text. Ticket titles have no control characters either
 * (tools/ticket-tools.ts), and the project description is shortened by what it costs, not by its length.
 * Names stored before these rules (or more boards, columns and labels) are kept, and may pass the budget.
 */

/** Longest board and column name. */
export const NAME_MAX = 60;
/** Longest label name. */
export const LABEL_NAME_MAX = 50;
/** Most boards a project may have. */
export const BOARDS_MAX = 10;
/** Most columns a board may have. */
export const COLUMNS_MAX = 30;
/** Most columns a project may have, all its boards together. */
export const PROJECT_COLUMNS_MAX = 40;
/** Most labels a project may have. */
export const LABELS_MAX = 50;
/** Longest project name and description. */
export const PROJECT_NAME_MAX = 200;
export const PROJECT_DESCRIPTION_MAX = 10_000;
/** Longest token name. */
export const TOKEN_NAME_MAX = 100;

/** What the naming rules call a thing in their messages. */
export type NamedThing = 'board' | 'column' | 'label' | 'project' | 'token';

/** Longest name of each thing. */
const NAME_MAXIMA: Record<NamedThing, number> = { board: NAME_MAX, column: NAME_MAX, label: LABEL_NAME_MAX, project: PROJECT_NAME_MAX, token: TOKEN_NAME_MAX };

// What JSON escapes in a board, column or label name besides control characters.
const ESCAPED = /["\\]/;

/**
 * A name as stored: trimmed, 1 to its thing's maximum of characters, one line (no control characters) and,
 * for boards, columns and labels, without double quotes or backslashes; refused otherwise, naming the rule.
 */
export function validName(thing: NamedThing, raw: string): string {
  const name = raw.trim();
  const max = NAME_MAXIMA[thing];
  if (name === '') throw new AppError('invalid_request', `A ${thing} name must not be empty.`, { field: 'name' });
  if (name.length > max) throw new AppError('invalid_request', `A ${thing} name must be at most ${max} characters.`, { field: 'name' });
  if (hasControlCharacter(name))
    throw new AppError('invalid_request', `A ${thing} name must be one line: no line breaks, tabs or other control characters.`, { field: 'name' });
  if ((thing === 'board' || thing === 'column' || thing === 'label') && ESCAPED.test(name)) {
    throw new AppError('invalid_request', `A ${thing} name must not contain double quotes (") or backslashes (\\).`, { field: 'name' });
  }
  return name;
}

/** A project description as stored: at most PROJECT_DESCRIPTION_MAX characters. */
export function validDescription(description: string): string {
  if (description.length > PROJECT_DESCRIPTION_MAX) {
    throw new AppError('invalid_request', `A project description must be at most ${PROJECT_DESCRIPTION_MAX} characters.`, { field: 'description' });
  }
  return description;
}

/** What a project holds, as the limits count it. */
export interface ProjectSize {
  boards: number;
  /** Columns of all its boards. */
  columns: number;
}

/** Refuses a new board of `columns` columns when the project has BOARDS_MAX boards or the columns would pass PROJECT_COLUMNS_MAX. */
export function assertBoardFits(project: ProjectSize, columns: number): void {
  if (project.boards >= BOARDS_MAX) {
    throw new AppError('conflict', `A project has at most ${BOARDS_MAX} boards and this one has ${project.boards}: add columns to one of them instead.`);
  }
  if (project.columns + columns > PROJECT_COLUMNS_MAX) {
    throw new AppError(
      'conflict',
      `A project has at most ${PROJECT_COLUMNS_MAX} columns on all its boards together and this one has ${project.columns}: a board of ${columns} more would pass that. Give the board fewer columns, or delete empty ones first.`,
      { field: 'columns' },
    );
  }
}

/** Refuses a column more on a board of `boardColumns` columns (COLUMNS_MAX) or in a project of `projectColumns` (PROJECT_COLUMNS_MAX). */
export function assertColumnFits(boardName: string, boardColumns: number, projectColumns: number): void {
  if (boardColumns >= COLUMNS_MAX)
    throw new AppError('conflict', `A board has at most ${COLUMNS_MAX} columns and "${boardName}" has ${boardColumns}: delete an empty column first.`);
  if (projectColumns >= PROJECT_COLUMNS_MAX) {
    throw new AppError(
      'conflict',
      `A project has at most ${PROJECT_COLUMNS_MAX} columns on all its boards together and this one has ${projectColumns}: delete an empty column first.`,
    );
  }
}

/** Refuses a label more in a project of `labels` labels (LABELS_MAX). */
export function assertLabelFits(labels: number): void {
  if (labels >= LABELS_MAX)
    throw new AppError('conflict', `A project has at most ${LABELS_MAX} labels and this one has ${labels}: delete one it no longer uses first.`);
}

/**
 * Refuses a name another board of the project, column of the board or label of the project already has,
 * compared case-insensitively (`exceptId`: the one being renamed).
 */
export function assertNameFree(
  thing: 'board' | 'column' | 'label',
  name: string,
  existing: ReadonlyArray<{ id: string; name: string }>,
  exceptId?: string,
): void {
  const taken = existing.find((other) => other.id !== exceptId && other.name.toLowerCase() === name.toLowerCase());
  if (!taken) return;
  const where = thing === 'column' ? 'on this board' : 'in this project';
  throw new AppError('conflict', `A ${thing} named "${taken.name}" already exists ${where} (names are compared without case). Choose another name.`, {
    field: 'name',
  });
}

/** The columns of a new board: the given names (the last is the done column), or the default columns. */
export function newBoardColumns(names: readonly string[] | undefined): Array<{ name: string; isDone: boolean }> {
  const chosen = (names ?? DEFAULT_COLUMNS).map((name) => validName('column', name));
  if (chosen.length === 0)
    throw new AppError('invalid_request', 'A board needs at least one column; leave columns out for the default ones.', { field: 'columns' });
  if (chosen.length > COLUMNS_MAX) throw new AppError('invalid_request', `A board has at most ${COLUMNS_MAX} columns.`, { field: 'columns' });
  for (const [i, name] of chosen.entries())
    assertNameFree(
      'column',
      name,
      chosen.slice(0, i).map((other, j) => ({ id: String(j), name: other })),
    );
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
export function doneColumnChange(
  board: readonly ColumnState[],
  columnId: string,
  isDone: boolean,
): { from: ColumnState | undefined; to: ColumnState } | undefined {
  const column = board.find((candidate) => candidate.id === columnId)!;
  const current = board.find((candidate) => candidate.isDone);
  if (!isDone) {
    if (column.isDone) {
      throw new AppError(
        'conflict',
        `"${column.name}" is the board's done column and every board has exactly one: make another column the done column instead (is_done_column: true on it).`,
        {
          field: 'is_done_column',
        },
      );
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
