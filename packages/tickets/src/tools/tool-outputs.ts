import { z } from 'zod';
import { ACTIVITY_ACTIONS, DOC_TYPES, PRIORITIES, TICKET_TYPES } from '../domain/vocabulary.ts';

// What each tool answers on success, as its MCP outputSchema (design/mcp.md, "Tools: names, titles, schemas"). The
// presenters in service/ build these records; the tests check every answer against the closed form of these schemas
// (no field left out of them), while clients get the open form (see outputJsonSchema in mcp/).

const timestamp = z.string().describe('ISO 8601 date-time');
const priority = z.enum(PRIORITIES);
const ticketType = z.enum(TICKET_TYPES);
const docType = z.enum(DOC_TYPES);
const cursor = z.string().nullable().describe('Pass it as cursor to get the next page; null on the last page.');

const label = z.object({ id: z.string(), name: z.string(), color: z.string() });
const column = z.object({ name: z.string(), is_done_column: z.boolean(), board_name: z.string(), ticket_count: z.number().int() });
const documentMeta = z.object({ id: z.string(), slug: z.string(), title: z.string(), doc_type: docType, created_at: timestamp, updated_at: timestamp });

/** A ticket as create, update, move and convert answer it. */
const ticketFields = {
  id: z.string(),
  key: z.string().describe('e.g. DEMO-12'),
  number: z.number().int(),
  title: z.string(),
  description: z.string(),
  priority,
  ticket_type: ticketType,
  column: z.string().nullable(),
  board: z.string().nullable(),
  parent: z.object({ id: z.string(), key: z.string(), title: z.string() }).nullable(),
  sub_tickets: z.array(z.object({ id: z.string(), key: z.string(), title: z.string(), column: z.string().nullable(), priority, ticket_type: ticketType })),
  labels: z.array(label),
  assignee: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  completed_at: timestamp.nullable(),
  ai_summary: z.string().nullable(),
  ai_summary_source: z.enum(['llm', 'extractive']).nullable(),
};

/** create_ticket, create_sub_ticket, convert_to_sub_ticket, update_ticket, move_ticket. */
export const ticketOutput = z.object(ticketFields);

/** get_ticket: the ticket with its comments and activity, oldest first. */
export const ticketDetailOutput = z.object({
  ...ticketFields,
  comments: z.array(z.object({ id: z.string(), content: z.string(), author: z.string(), created_at: timestamp })),
  activity: z.array(z.object({ id: z.number().int(), action: z.enum(ACTIVITY_ACTIONS), detail: z.string(), actor: z.string(), created_at: timestamp })),
});

/** list_tickets: a page of tickets; a ticket too long for a page of its own comes shortened and says so. */
export const ticketPageOutput = z.object({
  tickets: z.array(
    z.object({
      ...ticketFields,
      description_truncated: z.literal(true).optional(),
      sub_tickets_truncated: z.literal(true).optional(),
    }),
  ),
  count: z.number().int(),
  next_cursor: cursor,
});

/** add_comment. */
export const commentOutput = z.object({ id: z.string(), content: z.string(), author: z.string(), created_at: timestamp, ticket_key: z.string() });

/** delete_ticket. */
export const deletedTicketOutput = z.object({ deleted: z.literal(true), key: z.string() });

/** get_document, create_document, update_document. */
export const documentOutput = documentMeta.extend({ content: z.string() });

/** list_documents. */
export const documentPageOutput = z.object({ documents: z.array(documentMeta), next_cursor: cursor });

/** list_columns. */
export const columnsOutput = z.object({ columns: z.array(column) });

/** list_labels. */
export const labelsOutput = z.object({ labels: z.array(label) });

/** list_members: names and emails past their clip are cut and flagged. */
export const memberPageOutput = z.object({
  members: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      name_truncated: z.literal(true).optional(),
      email: z.string(),
      email_truncated: z.literal(true).optional(),
      role: z.string(),
    }),
  ),
  next_cursor: cursor,
});

/** search: ranked results, each a ticket or a document with its highlighted snippet. */
export const searchOutput = z.object({
  results: z.array(
    z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('ticket'),
        key: z.string(),
        title: z.string(),
        ticket_type: ticketType,
        column: z.string().nullable(),
        score: z.number(),
        snippet: z.string(),
      }),
      z.object({ kind: z.literal('document'), slug: z.string(), title: z.string(), doc_type: docType, score: z.number(), snippet: z.string() }),
    ]),
  ),
});

/** get_all_tickets: a page of the compact index, tickets first, then documents with their content clipped. */
export const allTicketsOutput = z.object({
  tickets: z.array(
    z.object({
      key: z.string(),
      title: z.string(),
      ticket_type: ticketType,
      column: z.string().nullable(),
      parent: z.string().nullable(),
      ai_summary: z.string().nullable(),
    }),
  ),
  documents: z.array(documentMeta.extend({ content: z.string(), content_truncated: z.boolean() })),
  next_cursor: cursor,
});

/** get_project_status; the optional fields appear only when the answer had to be cut to fit (see its description). */
export const projectStatusOutput = z.object({
  project: z.object({
    key: z.string(),
    name: z.string(),
    description: z.string(),
    description_truncated: z.literal(true).optional(),
    settings: z.object({ auto_summary: z.boolean() }),
  }),
  stats: z.object({
    total: z.number().int(),
    open: z.number().int(),
    completed: z.number().int(),
    by_column: z.record(z.string(), z.number().int()),
    by_type: z.record(z.string(), z.number().int()),
    by_priority: z.record(z.string(), z.number().int()),
  }),
  boards: z.array(
    z.object({
      name: z.string(),
      columns: z.array(
        column.extend({
          index_truncated: z.literal(true).optional(),
          tickets: z.array(z.object({ key: z.string(), title: z.string(), ticket_type: ticketType, priority })),
        }),
      ),
    }),
  ),
  recent_tickets: z.array(
    z.object({
      key: z.string(),
      title: z.string(),
      ticket_type: ticketType,
      priority,
      column: z.string().nullable(),
      parent: z.string().nullable(),
      created_at: timestamp,
      updated_at: timestamp,
      completed_at: timestamp.nullable(),
    }),
  ),
  // Listed in full (dates and id) or compactly (slug, title, doc_type); the README adds its clipped content when Auto-Summary is on.
  documents: z.array(
    z.object({
      id: z.string().optional(),
      slug: z.string(),
      title: z.string(),
      doc_type: docType,
      created_at: timestamp.optional(),
      updated_at: timestamp.optional(),
      content: z.string().optional(),
      content_truncated: z.boolean().optional(),
    }),
  ),
  documents_truncated: z.literal(true).optional(),
  documents_total: z.number().int().optional(),
  labels: z.array(label),
  hint: z.string().optional(),
});
