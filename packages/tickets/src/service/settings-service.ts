import { randomUUID } from 'node:crypto';
import { AppError } from '@switchboard/core';
import type { BoardContext } from './board-context.ts';
import { validateColor } from '../domain/project-rules.ts';
import {
  assertBoardFits,
  assertColumnDeletable,
  assertColumnFits,
  assertLabelFits,
  assertNameFree,
  doneColumnChange,
  newBoardColumns,
  reorderColumns,
  validDescription,
  validName,
  type ColumnState,
} from '../domain/settings-rules.ts';
import type { Db } from '../store/project-store.ts';
import { deleteLabelRow, insertLabel, labelOfProject, listLabels, updateLabelRow, updateProject, type LabelRow } from '../store/project-store.ts';
import {
  columnOfProject,
  columnsOfBoard,
  countColumnsOf,
  countTicketsIn,
  deleteColumnRow,
  insertBoard,
  insertColumns,
  listBoards,
  lockBoard,
  lockProject,
  renameBoard,
  setCompletedAtIn,
  updateColumnRow,
  type BoardRow,
  type ColumnRow,
} from '../store/board-store.ts';
import { ticketCountsByColumn } from '../store/ticket-store.ts';
import { presentLabel, presentProject } from './presenters.ts';
import { inTransaction } from './transaction.ts';

/** A column as the settings show it. */
function presentSettingsColumn(row: ColumnRow, position: number, counts: ReadonlyMap<string, number>) {
  return { id: row.id, name: row.name, position, is_done_column: row.is_done === 1, ticket_count: counts.get(row.id) ?? 0 };
}

/** A board with its columns in order (positions shown from 0, whatever gaps the stored ones have). */
async function presentBoard(db: Db, projectId: string, board: BoardRow, counts?: ReadonlyMap<string, number>) {
  const [columns, tally] = await Promise.all([columnsOfBoard(db, board.id), counts ?? ticketCountsByColumn(db, projectId)]);
  return { id: board.id, name: board.name, columns: columns.map((column, i) => presentSettingsColumn(column, i, tally)) };
}

async function requireBoard(ctx: BoardContext, trx: Db, boardId: string): Promise<BoardRow> {
  const board = await lockBoard(trx, ctx.dialect, ctx.project.id, boardId);
  if (!board)
    throw new AppError(
      'not_found',
      `Board "${boardId}" not found in project ${ctx.project.key}. GET /api/projects/${ctx.project.key}/settings lists the boards.`,
    );
  return board;
}

async function requireColumn(ctx: BoardContext, db: Db, columnId: string): Promise<ColumnRow> {
  const column = await columnOfProject(db, ctx.project.id, columnId);
  if (!column)
    throw new AppError(
      'not_found',
      `Column "${columnId}" not found in project ${ctx.project.key}. GET /api/projects/${ctx.project.key}/settings lists the columns.`,
    );
  return column;
}

/** A column and its board's columns, read after the board's lock (a column deleted meanwhile is not found). */
async function lockColumn(ctx: BoardContext, trx: Db, columnId: string): Promise<{ column: ColumnRow; columns: ColumnRow[] }> {
  const found = await requireColumn(ctx, trx, columnId);
  await requireBoard(ctx, trx, found.board_id);
  const columns = await columnsOfBoard(trx, found.board_id);
  const column = columns.find((candidate) => candidate.id === columnId);
  if (!column) throw new AppError('not_found', `Column "${columnId}" not found in project ${ctx.project.key}.`);
  return { column, columns };
}

const stateOf = (row: ColumnRow): ColumnState => ({ id: row.id, name: row.name, isDone: row.is_done === 1 });

/** GET …/settings: the project with its settings, and every board with its columns and their ticket counts. */
export async function getSettings(ctx: BoardContext) {
  const [boards, counts] = await Promise.all([listBoards(ctx.db, ctx.project.id), ticketCountsByColumn(ctx.db, ctx.project.id)]);
  return { project: presentProject(ctx.project), boards: await Promise.all(boards.map((board) => presentBoard(ctx.db, ctx.project.id, board, counts))) };
}

/** Fields of PUT …/settings. */
export interface SettingsChanges {
  name?: string;
  description?: string;
  auto_summary?: boolean;
  settings?: { auto_summary?: boolean };
}

/** PUT …/settings: the project's name, description and Auto-Summary. Turning Auto-Summary on wakes the summary worker. */
export async function updateSettings(ctx: BoardContext, input: SettingsChanges) {
  const name = input.name === undefined ? undefined : validName('project', input.name);
  if (input.description !== undefined) validDescription(input.description);
  const autoSummary = input.auto_summary ?? input.settings?.auto_summary;
  if (name === undefined && input.description === undefined && autoSummary === undefined) return getSettings(ctx);
  const project = await inTransaction(ctx, async (trx, log) => {
    const now = ctx.now();
    const updated = await updateProject(trx, ctx.project.id, { name, description: input.description, autoSummary }, now);
    log.project('settings_updated', now);
    return updated;
  });
  if (autoSummary === true) ctx.onSummaryDue();
  return getSettings({ ...ctx, project });
}

/**
 * POST …/boards: a board with the given columns (the last is the done column) or the default ones, after the
 * others, within the project's limits of boards and columns.
 */
export async function createBoard(ctx: BoardContext, input: { name: string; columns?: string[] }) {
  const name = validName('board', input.name);
  const columns = newBoardColumns(input.columns);
  const board = await inTransaction(ctx, async (trx, log) => {
    await lockProject(trx, ctx.dialect, ctx.project.id);
    const [boards, columnCount] = await Promise.all([listBoards(trx, ctx.project.id), countColumnsOf(trx, ctx.project.id)]);
    assertBoardFits({ boards: boards.length, columns: columnCount }, columns.length);
    assertNameFree('board', name, boards);
    const row: BoardRow = { id: randomUUID(), project_id: ctx.project.id, name, position: boards.reduce((max, b) => Math.max(max, b.position + 1), 0) };
    const now = ctx.now();
    await insertBoard(trx, { ...row, created_at: now });
    await insertColumns(
      trx,
      columns.map((column, position) => ({
        id: randomUUID(),
        board_id: row.id,
        project_id: ctx.project.id,
        name: column.name,
        position,
        is_done: column.isDone ? 1 : 0,
      })),
    );
    log.project('board_created', now);
    return row;
  });
  return presentBoard(ctx.db, ctx.project.id, board);
}

/** PUT …/boards/{board_id}: renames a board (names unique in the project, without case). */
export async function updateBoard(ctx: BoardContext, input: { board_id: string; name: string }) {
  const name = validName('board', input.name);
  const board = await inTransaction(ctx, async (trx, log) => {
    const row = await requireBoard(ctx, trx, input.board_id);
    if (row.name === name) return row;
    assertNameFree('board', name, await listBoards(trx, ctx.project.id), row.id);
    await renameBoard(trx, row.id, name);
    log.project('board_updated');
    return { ...row, name };
  });
  return presentBoard(ctx.db, ctx.project.id, board);
}

/**
 * Writes a board's column order as positions 0..n-1 (only the ones that changed) and, when the done column
 * moves, its flag and the tickets' completed_at (given in the new done column, taken in the old one).
 */
async function applyColumnChanges(trx: Db, order: readonly ColumnRow[], newOrder: readonly string[], done: ReturnType<typeof doneColumnChange>, now: string) {
  const byId = new Map(order.map((column) => [column.id, column]));
  for (const [position, id] of newOrder.entries()) {
    if (byId.get(id)!.position !== position) await updateColumnRow(trx, id, { position });
  }
  if (!done) return;
  if (done.from) {
    await updateColumnRow(trx, done.from.id, { is_done: 0 });
    await setCompletedAtIn(trx, done.from.id, null);
  }
  await updateColumnRow(trx, done.to.id, { is_done: 1 });
  await setCompletedAtIn(trx, done.to.id, now);
}

/** The settings form of one column after a change. */
async function columnAnswer(ctx: BoardContext, columnId: string) {
  const column = await requireColumn(ctx, ctx.db, columnId);
  const columns = await columnsOfBoard(ctx.db, column.board_id);
  return presentSettingsColumn(
    column,
    columns.findIndex((c) => c.id === column.id),
    new Map([[column.id, await countTicketsIn(ctx.db, column.id)]]),
  );
}

/**
 * POST …/boards/{board_id}/columns: a column at `position` (default last); `is_done_column` makes it the done
 * column. Within the limits of columns of a board and of the project.
 */
export async function createColumn(ctx: BoardContext, input: { board_id: string; name: string; position?: number; is_done_column?: boolean }) {
  const name = validName('column', input.name);
  const id = await inTransaction(ctx, async (trx, log) => {
    // The project's lock before the board's, as every change that takes both does.
    await lockProject(trx, ctx.dialect, ctx.project.id);
    const board = await requireBoard(ctx, trx, input.board_id);
    const [columns, columnCount] = await Promise.all([columnsOfBoard(trx, board.id), countColumnsOf(trx, ctx.project.id)]);
    assertColumnFits(board.name, columns.length, columnCount);
    assertNameFree('column', name, columns);
    const row: ColumnRow = { id: randomUUID(), board_id: board.id, name, position: columns.length, is_done: 0 };
    await insertColumns(trx, [{ ...row, project_id: ctx.project.id }]);
    const all = [...columns, row];
    const order = reorderColumns(
      all.map((column) => column.id),
      row.id,
      input.position ?? all.length,
    );
    const done = input.is_done_column ? doneColumnChange(all.map(stateOf), row.id, true) : undefined;
    const now = ctx.now();
    await applyColumnChanges(trx, all, order, done, now);
    log.project('column_created', now);
    return row.id;
  });
  return columnAnswer(ctx, id);
}

/** PUT …/columns/{column_id}: renames, moves (position) or makes the done column. */
export async function updateColumn(ctx: BoardContext, input: { column_id: string; name?: string; position?: number; is_done_column?: boolean }) {
  const name = input.name === undefined ? undefined : validName('column', input.name);
  await inTransaction(ctx, async (trx, log) => {
    const { column, columns } = await lockColumn(ctx, trx, input.column_id);
    let changed = false;
    if (name !== undefined && name !== column.name) {
      assertNameFree('column', name, columns, column.id);
      await updateColumnRow(trx, column.id, { name });
      changed = true;
    }
    const ids = columns.map((c) => c.id);
    const order = input.position === undefined ? ids : reorderColumns(ids, column.id, input.position);
    const done = input.is_done_column === undefined ? undefined : doneColumnChange(columns.map(stateOf), column.id, input.is_done_column);
    const now = ctx.now();
    // Positions are rewritten 0..n-1 even when only a gap closes, so the stored order always matches what is shown.
    changed ||= done !== undefined || order.some((id, i) => columns.find((c) => c.id === id)!.position !== i);
    await applyColumnChanges(trx, columns, order, done, now);
    if (changed) log.project('column_updated', now);
  });
  return columnAnswer(ctx, input.column_id);
}

/** DELETE …/columns/{column_id}: only an empty column that is neither the board's last nor its done column. */
export async function deleteColumn(ctx: BoardContext, input: { column_id: string }) {
  await inTransaction(ctx, async (trx, log) => {
    const { column, columns } = await lockColumn(ctx, trx, input.column_id);
    assertColumnDeletable({ ...stateOf(column), ticketCount: await countTicketsIn(trx, column.id) }, columns.length);
    await deleteColumnRow(trx, column.id);
    const rest = columns.filter((c) => c.id !== column.id);
    await applyColumnChanges(
      trx,
      rest,
      rest.map((c) => c.id),
      undefined,
      ctx.now(),
    );
    log.project('column_deleted');
  });
  return { deleted: true as const, id: input.column_id };
}

async function requireLabel(ctx: BoardContext, db: Db, labelId: string): Promise<LabelRow> {
  const label = await labelOfProject(db, ctx.project.id, labelId);
  if (!label) throw new AppError('not_found', `Label "${labelId}" not found in project ${ctx.project.key}. list_labels shows the labels.`);
  return label;
}

/** The colour of a new label when none is given. */
export const DEFAULT_LABEL_COLOR = '#6b7280';

/** POST …/labels: a label (names unique in the project without case; colour #rgb or #rrggbb), within the project's limit of labels. */
export async function createLabel(ctx: BoardContext, input: { name: string; color?: string }) {
  const name = validName('label', input.name);
  const color = validateColor(input.color ?? DEFAULT_LABEL_COLOR);
  return inTransaction(ctx, async (trx, log) => {
    await lockProject(trx, ctx.dialect, ctx.project.id);
    const labels = await listLabels(trx, ctx.project.id);
    assertLabelFits(labels.length);
    assertNameFree('label', name, labels);
    const now = ctx.now();
    const row: LabelRow = { id: randomUUID(), project_id: ctx.project.id, name, color, created_at: now };
    await insertLabel(trx, row);
    log.project('label_created', now);
    return presentLabel(row);
  });
}

/** PUT …/labels/{label_id}: renames a label or changes its colour. */
export async function updateLabel(ctx: BoardContext, input: { label_id: string; name?: string; color?: string }) {
  const name = input.name === undefined ? undefined : validName('label', input.name);
  const color = input.color === undefined ? undefined : validateColor(input.color);
  return inTransaction(ctx, async (trx, log) => {
    const label = await requireLabel(ctx, trx, input.label_id);
    if (name !== undefined) assertNameFree('label', name, await listLabels(trx, ctx.project.id), label.id);
    const changes = { ...(name !== undefined && name !== label.name ? { name } : {}), ...(color !== undefined && color !== label.color ? { color } : {}) };
    if (Object.keys(changes).length === 0) return presentLabel(label);
    await updateLabelRow(trx, label.id, changes);
    log.project('label_updated');
    return presentLabel({ ...label, ...changes });
  });
}

/** DELETE …/labels/{label_id}: deletes a label and takes it off its tickets. */
export async function deleteLabel(ctx: BoardContext, input: { label_id: string }) {
  await inTransaction(ctx, async (trx, log) => {
    const label = await requireLabel(ctx, trx, input.label_id);
    await deleteLabelRow(trx, label.id);
    log.project('label_deleted');
  });
  return { deleted: true as const, id: input.label_id };
}

/** Records a project event on its own (a change kept outside the ticket board's database: memberships). */
async function recordProjectEvent(ctx: BoardContext, action: string) {
  await inTransaction(ctx, async (_trx, log) => log.project(action));
}

/** POST …/members (admin): makes the user with this email a member of the project. */
export async function addMember(ctx: BoardContext, input: { email: string }) {
  const { email } = await ctx.members.add(ctx.project.key, input.email, ctx.actor);
  await recordProjectEvent(ctx, 'member_added');
  return { email, added: true as const };
}

/** DELETE …/members/{user_id} (admin): ends a user's membership of the project. */
export async function removeMember(ctx: BoardContext, input: { user_id: string }) {
  if (!(await ctx.members.remove(ctx.project.key, input.user_id, ctx.actor))) {
    throw new AppError(
      'not_found',
      `User "${input.user_id}" is not a member of project ${ctx.project.key}. GET /api/projects/${ctx.project.key}/members lists them.`,
    );
  }
  await recordProjectEvent(ctx, 'member_removed');
  return { removed: true as const };
}
