import { AppError } from '@switchboard/core';
import type { Priority, TicketType } from './vocabulary.ts';
import { TICKET_KEY } from './ticket-key.ts';

/** What the hierarchy rules need to know about a ticket. */
export interface TicketShape {
  key: string;
  ticketType: TicketType;
  parentId: string | null;
  subTicketCount: number;
}

/** A ticket id parameter, parsed: the key `KEY-N` (any case), the number, or the UUID. */
export type TicketRef = { kind: 'number'; number: number; projectKey?: string } | { kind: 'uuid'; id: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMBER_REF = /^#?(\d{1,9})$/;
// The largest number the string forms accept (9 digits); a JSON number gets the same bound, so it stays within
// PostgreSQL's integer column instead of failing the query.
const MAX_NUMBER = 999_999_999;

/** Parses a ticket id given as a key, a number (string or JSON number) or a UUID. */
export function parseTicketRef(raw: string | number, field = 'ticket_id'): TicketRef {
  if (typeof raw === 'number') {
    if (Number.isInteger(raw) && raw > 0 && raw <= MAX_NUMBER) return { kind: 'number', number: raw };
  } else {
    const text = raw.trim();
    if (UUID.test(text)) return { kind: 'uuid', id: text.toLowerCase() };
    const key = TICKET_KEY.exec(text);
    if (key) return { kind: 'number', number: Number(key[2]), projectKey: key[1].toUpperCase() };
    const number = NUMBER_REF.exec(text);
    if (number && Number(number[1]) > 0) return { kind: 'number', number: Number(number[1]) };
  }
  throw new AppError('invalid_request', `${field} "${String(raw)}" is not a ticket id. Use the ticket key (e.g. DEMO-12), its number (12) or its UUID.`, {
    field,
  });
}

/** The key of ticket number `n` in a project. */
export function ticketKey(projectKey: string, number: number): string {
  return `${projectKey}-${number}`;
}

/** Refuses a parent that is itself a sub-ticket: sub-tickets are one level deep. */
export function assertCanBeParent(parent: TicketShape): void {
  if (parent.parentId !== null) {
    throw new AppError(
      'conflict',
      `${parent.key} is a sub-ticket and cannot have sub-tickets (sub-tickets are one level deep). Use its epic as the parent instead.`,
    );
  }
}

/** True when making `parent` a parent also promotes it to an epic. */
export function needsPromotion(parent: TicketShape): boolean {
  return parent.ticketType !== 'epic';
}

/** A sub-ticket's priority: the given one, else its parent's. */
export function subTicketPriority(parentPriority: Priority, given: Priority | undefined): Priority {
  return given ?? parentPriority;
}

/** Refuses `move_ticket` on an epic with sub-tickets: epics advance automatically. */
export function assertMovable(ticket: TicketShape): void {
  if (ticket.subTicketCount > 0) {
    throw new AppError(
      'conflict',
      `${ticket.key} is an epic with ${ticket.subTicketCount} sub-ticket(s); epics advance automatically as their sub-tickets move. Move its sub-tickets instead.`,
    );
  }
}

/** Refuses converting a ticket that is not standalone, or into itself, or under a sub-ticket. */
export function assertConvertible(ticket: TicketShape, epic: TicketShape & { id: string }, ticketId: string): void {
  if (ticketId === epic.id) throw new AppError('conflict', `${ticket.key} cannot become a sub-ticket of itself. Pass a different epic_id.`);
  if (ticket.parentId !== null) {
    throw new AppError('conflict', `${ticket.key} is already a sub-ticket; only a standalone ticket (no parent, no sub-tickets) can be converted.`);
  }
  if (ticket.subTicketCount > 0) {
    throw new AppError('conflict', `${ticket.key} has sub-tickets of its own; only a standalone ticket (no parent, no sub-tickets) can be converted.`);
  }
  assertCanBeParent(epic);
}

/** Refuses changing the type of an epic that has sub-tickets to something else. */
export function assertTypeChange(ticket: TicketShape, nextType: TicketType | undefined): void {
  if (nextType && nextType !== 'epic' && ticket.subTicketCount > 0) {
    throw new AppError('conflict', `${ticket.key} has sub-tickets and must stay an epic. Convert or delete its sub-tickets first.`);
  }
}

/** Parses a caller-given ISO 8601 timestamp (for backdating) into the stored form. */
export function parseTimestamp(raw: string, field = 'created_at'): string {
  const text = raw.trim();
  const date = /^\d{4}-\d{2}-\d{2}/.test(text) ? new Date(text) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) {
    throw new AppError('invalid_request', `${field} "${raw}" is not an ISO 8601 date-time. Use e.g. 2024-03-01T10:00:00Z or 2024-03-01.`, { field });
  }
  return date.toISOString();
}
