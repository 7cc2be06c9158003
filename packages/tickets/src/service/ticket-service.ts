import { randomUUID } from 'node:crypto';
import { AppError } from '@switchboard/core';
import type { BoardContext } from './board-context.ts';
import { completedAtAfterMove, epicAdvance, epicCompletedAt, resolveColumn, type BoardColumn } from '../domain/board-rules.ts';
import {
  assertCanBeParent,
  assertConvertible,
  assertMovable,
  assertTypeChange,
  needsPromotion,
  parseTimestamp,
  subTicketPriority,
  ticketKey,
  type TicketShape,
} from '../domain/ticket-rules.ts';
import type { ActivityAction, Priority, TicketType } from '../domain/vocabulary.ts';
import { toggleTaskIn, type TaskToggleRequest } from '../domain/task-list.ts';
import { asSentences, markdownToPlainText } from '../domain/plain-text.ts';
import { projectColumns, listLabels, type Db } from '../store/project-store.ts';
import {
  countSubTickets,
  deleteTicketRow,
  detachSubTickets,
  insertActivity,
  insertComment,
  insertTicket,
  nextTicketNumber,
  setTicketLabels,
  subTicketsOf,
  updateTicketRow,
  type TicketRow,
} from '../store/ticket-store.ts';
import { presentComment, presentMember } from './presenters.ts';
import { placeInLane } from './lane-order.ts';
import { describePlace, type LanePosition } from '../domain/rank-rules.ts';
import { ticketView } from './ticket-queries.ts';
import { requireTicket } from './ticket-lookup.ts';
import { inTransaction, type ChangeLog } from './transaction.ts';

/** Fields of create_ticket / create_sub_ticket. */
export interface CreateTicketInput {
  title: string;
  description?: string;
  column_name?: string;
  priority?: Priority;
  ticket_type?: TicketType;
  created_at?: string;
  labels?: string[];
  assignee?: string | null;
}

/** Fields of update_ticket. */
export interface UpdateTicketInput {
  ticket_id: string | number;
  title?: string;
  description?: string;
  priority?: Priority;
  ticket_type?: TicketType;
  created_at?: string;
  labels?: string[];
  assignee?: string | null;
  /** One task list item of the description checked or unchecked (that line only). */
  toggle_task?: TaskToggleRequest;
}

type Ref = string | number;

function keyOf(ctx: BoardContext, row: Pick<TicketRow, 'number'>): string {
  return ticketKey(ctx.project.key, row.number);
}

/** What the domain's hierarchy rules see of a ticket row. */
function shapeOf(ctx: BoardContext, row: TicketRow, subTicketCount = 0): TicketShape & { id: string } {
  return { id: row.id, key: keyOf(ctx, row), ticketType: row.ticket_type as TicketType, parentId: row.parent_id, subTicketCount };
}

/** Records one change of a ticket: its activity entry, and the event the live-update stream sends. */
async function record(
  ctx: BoardContext,
  trx: Db,
  log: ChangeLog,
  ticket: Pick<TicketRow, 'id' | 'number'>,
  action: ActivityAction,
  detail: string,
  at: string,
  actor = ctx.actor,
) {
  await insertActivity(trx, { ticket_id: ticket.id, project_id: ctx.project.id, action, detail, actor, created_at: at });
  log.ticket(action, keyOf(ctx, ticket), at, actor);
}

async function resolveLabels(ctx: BoardContext, trx: Db, names: readonly string[]): Promise<string[]> {
  const labels = await listLabels(trx, ctx.project.id);
  return names.map((name) => {
    const label = labels.find((candidate) => candidate.name.toLowerCase() === name.trim().toLowerCase());
    if (!label) {
      throw new AppError('invalid_request', `Unknown label "${name}". Valid values: ${labels.map((l) => l.name).join(', ') || '(no labels yet)'}.`, {
        field: 'labels',
        valid_values: labels.map((l) => l.name),
      });
    }
    return label.id;
  });
}

/** Most people an unknown assignee's refusal lists by email. */
const LISTED_IN_ERRORS = 20;

async function resolveAssignee(ctx: BoardContext, raw: string | null | undefined): Promise<string | null | undefined> {
  if (raw === undefined) return undefined;
  if (raw === null || raw.trim() === '') return null;
  const members = await ctx.members.list(ctx.project.key);
  const wanted = raw.trim().toLowerCase();
  const member = members.find((m) => m.id === wanted || m.email.toLowerCase() === wanted);
  if (!member && members.length > LISTED_IN_ERRORS) {
    // A deployment's people are not bounded: past a few, the refusal names the call that lists them instead.
    throw new AppError(
      'invalid_request',
      `Unknown assignee "${raw}": not one of the project's ${members.length} people. list_members lists them (paged); pass one's email or id.`,
      {
        field: 'assignee',
      },
    );
  }
  if (!member) {
    throw new AppError('invalid_request', `Unknown assignee "${raw}". Valid values: ${members.map((m) => m.email).join(', ') || '(no members)'}.`, {
      field: 'assignee',
      valid_values: members.map((m) => m.email),
    });
  }
  // The copy on the ticket is what every answer shows: clipped like list_members shows it.
  const { name, email } = presentMember(member);
  return JSON.stringify({ id: member.id, name, email });
}

/**
 * Applies the epic rule after a change to one of its sub-tickets, recording
 * an automatic move as `auto_moved` by `system`. `epic` is the row the caller
 * loaded (and locked) in this transaction; the rule reads its column and completed_at.
 */
export async function advanceEpic(ctx: BoardContext, trx: Db, log: ChangeLog, columns: readonly BoardColumn[], epic: TicketRow, now: string): Promise<void> {
  const byId = new Map(columns.map((column) => [column.id, column]));
  const subs = await subTicketsOf(trx, [epic.id]);
  const current = byId.get(epic.column_id)!;
  const advance = epicAdvance(
    columns,
    current,
    subs.map((sub) => byId.get(sub.column_id)!),
  );
  if (!advance) return;
  const { rank } = await placeInLane(ctx, trx, columns, advance.to, 'top', epic);
  await updateTicketRow(trx, epic.id, {
    column_id: advance.to.id,
    rank,
    updated_at: now,
    completed_at: advance.to.isDone
      ? epicCompletedAt(
          subs.map((sub) => sub.completed_at),
          now,
        )
      : completedAtAfterMove(advance.to, { completedAt: epic.completed_at, wasDone: current.isDone }, now),
  });
  await record(ctx, trx, log, epic, 'auto_moved', `moved from ${current.name} to ${advance.to.name}: ${advance.reason}`, now, 'system');
}

async function createIn(ctx: BoardContext, input: CreateTicketInput, parentRef: Ref | undefined) {
  const id = await inTransaction(ctx, async (trx, log) => {
    const now = ctx.now();
    const columns = await projectColumns(trx, ctx.project.id);
    const column = resolveColumn(columns, input.column_name);
    const parent = parentRef === undefined ? undefined : await requireTicket(ctx, trx, parentRef, 'parent_ticket_id', true);
    if (parent) assertCanBeParent(shapeOf(ctx, parent));
    if (parent && input.ticket_type === 'epic')
      throw new AppError('conflict', 'A sub-ticket cannot be an epic (sub-tickets are one level deep). Leave ticket_type out or use task, bug or story.');
    const labelIds = input.labels ? await resolveLabels(ctx, trx, input.labels) : [];
    const assignee = await resolveAssignee(ctx, input.assignee);
    const createdAt = input.created_at ? parseTimestamp(input.created_at) : now;
    const number = await nextTicketNumber(trx, ctx.project.id);
    // A new ticket leads its lane, as the most recently changed ticket did before lanes had an order.
    const { rank } = await placeInLane(ctx, trx, columns, column, 'top');
    const id = randomUUID();
    await insertTicket(trx, {
      id,
      project_id: ctx.project.id,
      number,
      title: input.title.trim(),
      description: input.description ?? '',
      priority: parent ? subTicketPriority(parent.priority as Priority, input.priority) : (input.priority ?? 'medium'),
      ticket_type: input.ticket_type ?? 'task',
      column_id: column.id,
      rank,
      parent_id: parent?.id ?? null,
      assignee: assignee ?? null,
      created_at: createdAt,
      updated_at: createdAt,
      completed_at: column.isDone ? createdAt : null,
      ai_summary: null,
      ai_summary_source: null,
      summary_version: 1,
      summarized_version: 0,
      summary_claimed_until: null,
    });
    if (labelIds.length > 0) await setTicketLabels(trx, id, labelIds);
    const where = parent ? ` as a sub-ticket of ${keyOf(ctx, parent)}` : '';
    await record(ctx, trx, log, { id, number }, 'created', `created in ${column.name}${where}`, createdAt);
    if (parent) {
      if (needsPromotion(shapeOf(ctx, parent))) {
        await updateTicketRow(trx, parent.id, { ticket_type: 'epic', updated_at: now });
        await record(
          ctx,
          trx,
          log,
          parent,
          'promoted',
          `promoted from ${parent.ticket_type} to epic: sub-ticket ${ticketKey(ctx.project.key, number)} was created`,
          now,
        );
      }
      await advanceEpic(ctx, trx, log, columns, parent, now);
    }
    return id;
  });
  ctx.onSummaryDue();
  return ticketView(ctx, id);
}

/** create_ticket: a ticket in the named column (case-insensitive) or the first. */
export function createTicket(ctx: BoardContext, input: CreateTicketInput) {
  return createIn(ctx, input, undefined);
}

/** create_sub_ticket: a sub-ticket under a parent (promoted to epic), priority from the parent unless given. */
export function createSubTicket(ctx: BoardContext, input: CreateTicketInput & { parent_ticket_id: Ref }) {
  return createIn(ctx, input, input.parent_ticket_id);
}

/** convert_to_sub_ticket: re-parents a standalone ticket under an epic (promoted if needed). */
export async function convertToSubTicket(ctx: BoardContext, input: { ticket_id: Ref; epic_id: Ref }) {
  const id = await inTransaction(ctx, async (trx, log) => {
    const now = ctx.now();
    const columns = await projectColumns(trx, ctx.project.id);
    const ticket = await requireTicket(ctx, trx, input.ticket_id, 'ticket_id', true);
    const epic = await requireTicket(ctx, trx, input.epic_id, 'epic_id', true);
    const [ticketChildren, epicChildren] = [await countSubTickets(trx, ticket.id), await countSubTickets(trx, epic.id)];
    assertConvertible(shapeOf(ctx, ticket, ticketChildren), shapeOf(ctx, epic, epicChildren), ticket.id);
    await updateTicketRow(trx, ticket.id, { parent_id: epic.id, updated_at: now });
    await record(ctx, trx, log, ticket, 'converted', `converted to a sub-ticket of ${keyOf(ctx, epic)}`, now);
    if (epic.ticket_type !== 'epic') {
      await updateTicketRow(trx, epic.id, { ticket_type: 'epic', updated_at: now });
      await record(ctx, trx, log, epic, 'promoted', `promoted from ${epic.ticket_type} to epic: ${keyOf(ctx, ticket)} became its sub-ticket`, now);
    }
    await advanceEpic(ctx, trx, log, columns, epic, now);
    return ticket.id;
  });
  return ticketView(ctx, id);
}

/** update_ticket: changes properties; records which. */
export async function updateTicket(ctx: BoardContext, input: UpdateTicketInput) {
  let summaryDue = false;
  const id = await inTransaction(ctx, async (trx, log) => {
    const now = ctx.now();
    const ticket = await requireTicket(ctx, trx, input.ticket_id, 'ticket_id', true);
    const subCount = input.ticket_type ? await countSubTickets(trx, ticket.id) : 0;
    assertTypeChange(shapeOf(ctx, ticket, subCount), input.ticket_type);
    if (input.ticket_type === 'epic' && ticket.parent_id !== null) {
      throw new AppError('conflict', `${keyOf(ctx, ticket)} is a sub-ticket and cannot be an epic (sub-tickets are one level deep).`);
    }
    const changes: Parameters<typeof updateTicketRow>[2] = {};
    const notes: string[] = [];
    const change = <K extends 'title' | 'description' | 'priority' | 'ticket_type' | 'created_at'>(field: K, next: string | undefined, show = true) => {
      if (next === undefined || next === ticket[field]) return;
      changes[field] = next;
      notes.push(show ? `${field}: ${ticket[field]} → ${next}` : field);
    };
    change('title', input.title?.trim(), false);
    if (input.toggle_task) {
      const toggled = toggleTaskIn(
        { text: ticket.description, updatedAt: ticket.updated_at },
        input.toggle_task,
        'description',
        input.description !== undefined,
      );
      changes.description = toggled.text;
      notes.push(toggled.note);
    } else change('description', input.description, false);
    change('priority', input.priority);
    change('ticket_type', input.ticket_type);
    change('created_at', input.created_at === undefined ? undefined : parseTimestamp(input.created_at));
    if (input.labels !== undefined) {
      const labelIds = await resolveLabels(ctx, trx, input.labels);
      await setTicketLabels(trx, ticket.id, labelIds);
      notes.push(`labels: ${input.labels.join(', ') || '(none)'}`);
    }
    const assignee = await resolveAssignee(ctx, input.assignee);
    if (assignee !== undefined && assignee !== ticket.assignee) {
      changes.assignee = assignee;
      notes.push(`assignee: ${assignee ? (JSON.parse(assignee) as { email: string }).email : '(none)'}`);
    }
    if (notes.length === 0) return ticket.id;
    summaryDue = changes.title !== undefined || changes.description !== undefined;
    await updateTicketRow(trx, ticket.id, {
      ...changes,
      updated_at: now,
      ...(summaryDue ? { summary_version: ticket.summary_version + 1 } : {}),
    });
    await record(ctx, trx, log, ticket, 'updated', `changed ${notes.join('; ')}`, now);
    return ticket.id;
  });
  if (summaryDue) ctx.onSummaryDue();
  return ticketView(ctx, id);
}

/**
 * move_ticket: moves a ticket (not an epic with sub-tickets) to a column, at `position` in its lane (default:
 * the top), and lets its epic follow. Within its own column a position reorders the lane; a ticket already at
 * that place, or named without a position, stays as it is.
 */
export async function moveTicket(ctx: BoardContext, input: { ticket_id: Ref; column_name: string; position?: LanePosition }) {
  const id = await inTransaction(ctx, async (trx, log) => {
    const now = ctx.now();
    const columns = await projectColumns(trx, ctx.project.id);
    const ticket = await requireTicket(ctx, trx, input.ticket_id, 'ticket_id', true);
    assertMovable(shapeOf(ctx, ticket, await countSubTickets(trx, ticket.id)));
    const target = resolveColumn(columns, input.column_name);
    const current = columns.find((column) => column.id === ticket.column_id)!;
    if (target.id === current.id && input.position === undefined) return ticket.id;
    const place = await placeInLane(ctx, trx, columns, target, input.position ?? 'top', ticket);
    if (place.unchanged) return ticket.id;
    const where = input.position === undefined ? undefined : describePlace(input.position, place.anchorKey, target.name);
    if (target.id === current.id) {
      await updateTicketRow(trx, ticket.id, { rank: place.rank, updated_at: now });
      await record(ctx, trx, log, ticket, 'moved', `moved ${where}`, now);
      return ticket.id;
    }
    await updateTicketRow(trx, ticket.id, {
      column_id: target.id,
      rank: place.rank,
      updated_at: now,
      completed_at: completedAtAfterMove(target, { completedAt: ticket.completed_at, wasDone: current.isDone }, now),
    });
    await record(ctx, trx, log, ticket, 'moved', `moved from ${current.name} to ${target.name}${where ? ` (${where})` : ''}`, now);
    if (ticket.parent_id) await advanceEpic(ctx, trx, log, columns, await requireTicket(ctx, trx, ticket.parent_id, 'epic_id', true), now);
    return ticket.id;
  });
  return ticketView(ctx, id);
}

/** add_comment: a markdown comment; the summary may take it into account. */
export async function addComment(ctx: BoardContext, input: { ticket_id: Ref; content: string }) {
  const comment = await inTransaction(ctx, async (trx, log) => {
    const now = ctx.now();
    const ticket = await requireTicket(ctx, trx, input.ticket_id, 'ticket_id', true);
    const row = { id: randomUUID(), ticket_id: ticket.id, project_id: ctx.project.id, content: input.content, author: ctx.actor, created_at: now };
    await insertComment(trx, row);
    await updateTicketRow(trx, ticket.id, { updated_at: now, summary_version: ticket.summary_version + 1 });
    // The activity shows the comment as plain text (no Markdown syntax), as summaries do.
    const preview = asSentences(markdownToPlainText(input.content)) || input.content.replace(/\s+/g, ' ').trim();
    await record(ctx, trx, log, ticket, 'commented', preview.length > 120 ? `${preview.slice(0, 119)}…` : preview, now);
    return { ...presentComment(row), ticket_key: keyOf(ctx, ticket) };
  });
  ctx.onSummaryDue();
  return comment;
}

/** delete_ticket: deletes for good; an epic's sub-tickets become standalone, a sub-ticket's epic is re-evaluated. */
export async function deleteTicket(ctx: BoardContext, input: { ticket_id: Ref }) {
  return inTransaction(ctx, async (trx, log) => {
    const now = ctx.now();
    const ticket = await requireTicket(ctx, trx, input.ticket_id, 'ticket_id', true);
    const key = keyOf(ctx, ticket);
    const children = await detachSubTickets(trx, ticket.id, now);
    for (const child of children) await record(ctx, trx, log, child, 'updated', `parent ${key} was deleted; now a standalone ticket`, now);
    await deleteTicketRow(trx, ticket.id);
    log.ticket('deleted', key, now);
    if (ticket.parent_id) {
      const parent = await requireTicket(ctx, trx, ticket.parent_id, 'parent', true);
      await updateTicketRow(trx, parent.id, { updated_at: now });
      await record(ctx, trx, log, parent, 'sub_ticket_deleted', `deleted sub-ticket ${key}: ${ticket.title}`, now);
      await advanceEpic(ctx, trx, log, await projectColumns(trx, ctx.project.id), parent, now);
    }
    return { deleted: true as const, key };
  });
}
