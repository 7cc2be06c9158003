import { AppError } from '@switchboard/core';

/** Ticket priorities, lowest first; `medium` is the default. */
export const PRIORITIES = ['lowest', 'low', 'medium', 'high', 'highest'] as const;
/** A ticket priority. */
export type Priority = (typeof PRIORITIES)[number];

/** Ticket types; `task` is the default. */
export const TICKET_TYPES = ['task', 'bug', 'story', 'epic'] as const;
/** A ticket type. */
export type TicketType = (typeof TICKET_TYPES)[number];

/** Document types; `wiki` is the default. */
export const DOC_TYPES = ['readme', 'claude_md', 'wiki', 'changelog', 'custom'] as const;
/** A document type. */
export type DocType = (typeof DOC_TYPES)[number];

/** Scopes of `search`; `all` is the default. */
export const SEARCH_SCOPES = ['all', 'tickets', 'documents'] as const;
/** A search scope. */
export type SearchScope = (typeof SEARCH_SCOPES)[number];

/** `status` filter of `list_tickets`: open = not in a done column, completed = in one. */
export const TICKET_STATUSES = ['open', 'completed'] as const;
/** A ticket status filter. */
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** `order` of `list_tickets`: `updated` (the default) = most recently updated first; `board` = as the board shows them. */
export const TICKET_ORDERS = ['updated', 'board'] as const;
/** A list_tickets order. */
export type TicketOrder = (typeof TICKET_ORDERS)[number];

/** What a token may do: `read` calls only the tools that read; `write` (the default) calls them all. */
export const ACCESS_LEVELS = ['read', 'write'] as const;
/** An access level. */
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** Actions recorded in a ticket's activity. */
export const ACTIVITY_ACTIONS = ['created', 'updated', 'moved', 'commented', 'converted', 'promoted', 'auto_moved', 'sub_ticket_deleted'] as const;
/** An activity action. */
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/**
 * Default and largest `limit` of `list_tickets`. The maximum was 500, whose full tickets took about 250,000
 * characters: 100 ordinary tickets take about 40,000, what an agent's context can hold of one answer, and a page
 * ends sooner where the next ticket would pass that budget.
 */
export const LIST_LIMIT = { default: 50, max: 100 } as const;

/**
 * The refusal for a value outside a fixed set: it lists the valid values, so
 * an AI client corrects its call in one step.
 */
export function invalidValue(field: string, value: unknown, valid: readonly string[]): AppError {
  return new AppError('invalid_request', `Unknown ${field} "${String(value)}". Valid values: ${valid.join(', ')}.`, { field, valid_values: valid });
}
