import { z } from 'zod';
import { LIST_LIMIT, PRIORITIES, TICKET_ORDERS, TICKET_STATUSES, TICKET_TYPES } from '../domain/vocabulary.ts';
import { addComment, convertToSubTicket, createSubTicket, createTicket, deleteTicket, moveTicket, updateTicket } from '../service/ticket-service.ts';
import { getTicket, listTickets } from '../service/ticket-queries.ts';
import { hasControlCharacter } from '../domain/text-rules.ts';
import { READ_ONLY, changes, cursorParam, defineMcpTool, enumParam, limitParam, ticketIdParam, timestampParam } from './tool.ts';
import { toggleTaskParam } from './toggle-task-param.ts';
import { commentOutput, deletedTicketOutput, ticketDetailOutput, ticketOutput, ticketPageOutput } from './tool-outputs.ts';

// One line: a control character would cost six characters in every answer listing the title (get_project_status
// lists five whole). U+0000 is left to the check every parameter gets (parseInput), which names it.
const title = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((text) => !hasControlCharacter(text.replaceAll('\0', '')), { error: 'must be one line: no line breaks, tabs or other control characters' })
  .describe('Short title of the ticket (one line, at most 500 characters).');
const description = z.string().max(100_000).describe('Markdown description: the what and why, acceptance criteria.');
const columnName = z
  .string()
  .describe(
    'Column to create the ticket in, matched case-insensitively (e.g. "In Progress"). Take names from get_project_status or list_columns; defaults to the first column. Use the done column for finished work.',
  );
const priority = enumParam('priority', PRIORITIES, 'One of lowest, low, medium (default), high, highest.');
const ticketType = enumParam('ticket_type', TICKET_TYPES, 'One of task (default), bug, story, epic. Feature work is an epic with sub-tickets.');
const createdAt = timestampParam('ISO 8601 date-time to backdate the ticket when importing history (e.g. 2024-03-01T10:00:00Z); defaults to now.');
const labels = z.array(z.string()).describe("Label names (see list_labels); replaces the ticket's labels.");
// Declared once: the MCP inputSchema and the REST body of move_ticket both come from it.
const position = z
  .union(
    [
      z.enum(['top', 'bottom']),
      z.strictObject({ before: ticketIdParam('The ticket to put it right above (a ticket of the target column).') }),
      z.strictObject({ after: ticketIdParam('The ticket to put it right below (a ticket of the target column).') }),
    ],
    { error: () => 'must be "top", "bottom", {"before": KEY} or {"after": KEY}' },
  )
  .describe(
    'Where the ticket goes in the column\'s order on the board: "top" (the default), "bottom", {"before": KEY} or {"after": KEY} with KEY a ticket of the target column. With the ticket\'s own column it reorders that column.',
  );
const assignee = z.string().nullable().describe('Email or id of a member (see list_members); null to unassign.');

/** The ticket tools: create, sub-tickets, read, list, update, move, comment, delete. */
export const ticketTools = [
  defineMcpTool({
    name: 'create_ticket',
    title: 'Create ticket',
    description:
      'Create a ticket directly in the right column (column_name, case-insensitive; default: the first column). Feature work is an epic: search first (list_tickets or search); if a related epic exists use create_sub_ticket, otherwise create_ticket with ticket_type "epic", then its sub-tickets. No standalone tickets for feature work. To import history pass created_at (ISO 8601) and the done column for finished work. Call add_comment after completing work.',
    input: z.strictObject({
      title,
      description: description.optional(),
      column_name: columnName.optional(),
      priority: priority.optional(),
      ticket_type: ticketType.optional(),
      created_at: createdAt.optional(),
      labels: labels.optional(),
      assignee: assignee.optional(),
    }),
    rest: { method: 'POST', path: '/tickets', status: 201 },
    output: ticketOutput,
    annotations: changes({ destructive: false, idempotent: false }),
    handler: (ctx, input) => createTicket(ctx, input),
  }),
  defineMcpTool({
    name: 'create_sub_ticket',
    title: 'Create sub-ticket',
    description:
      "Create a sub-ticket under a parent ticket (feature work: an epic with sub-tickets). A parent that is not an epic is promoted to epic. Sub-tickets are one level deep: a sub-ticket cannot be a parent. Priority defaults to the parent's. Create it in the right column (column_name, case-insensitive); created_at (ISO 8601) backdates imported history. The epic then advances automatically.",
    input: z.strictObject({
      parent_ticket_id: ticketIdParam('The parent (epic): its key (e.g. DEMO-3), number or UUID.'),
      title,
      description: description.optional(),
      priority: enumParam('priority', PRIORITIES, "One of lowest, low, medium, high, highest; defaults to the parent's priority.").optional(),
      column_name: columnName.optional(),
      created_at: createdAt.optional(),
      ticket_type: enumParam('ticket_type', TICKET_TYPES, 'One of task (default), bug, story (a sub-ticket cannot be an epic).').optional(),
      labels: labels.optional(),
      assignee: assignee.optional(),
    }),
    rest: { method: 'POST', path: '/tickets/{id}/sub-ticket', idParam: 'parent_ticket_id', status: 201 },
    output: ticketOutput,
    annotations: changes({ destructive: false, idempotent: false }),
    handler: (ctx, input) => createSubTicket(ctx, input),
  }),
  defineMcpTool({
    name: 'convert_to_sub_ticket',
    title: 'Convert to sub-ticket',
    description:
      'Make a standalone ticket (no parent, no sub-tickets) a sub-ticket of an epic. The target is promoted to epic if needed, and the epic advances automatically. Comment on the ticket afterwards.',
    input: z.strictObject({
      ticket_id: ticketIdParam(),
      epic_id: ticketIdParam('The epic to put the ticket under: its key, number or UUID.'),
    }),
    rest: { method: 'POST', path: '/tickets/{id}/convert-to-sub-ticket', idParam: 'ticket_id' },
    output: ticketOutput,
    annotations: changes({ destructive: false, idempotent: true }),
    handler: (ctx, input) => convertToSubTicket(ctx, input),
  }),
  defineMcpTool({
    name: 'get_ticket',
    title: 'Get ticket',
    description: 'Full details of a ticket: description, parent, sub-tickets, labels, assignee, AI summary, comments and activity (oldest first).',
    input: z.strictObject({ ticket_id: ticketIdParam() }),
    rest: { method: 'GET', path: '/tickets/{id}', idParam: 'ticket_id' },
    output: ticketDetailOutput,
    annotations: READ_ONLY,
    handler: (ctx, input) => getTicket(ctx, input.ticket_id),
  }),
  defineMcpTool({
    name: 'list_tickets',
    title: 'List tickets',
    description: `Find tickets (search here before creating feature work). Filters: column_name (case-insensitive), status (open = not in the done column, completed = in it), priority, search (text in title and description). Most recently updated first; order "board" lists them as the board shows them instead (column by column in board order, each column top to bottom). A page holds at most limit tickets (default ${LIST_LIMIT.default}, maximum ${LIST_LIMIT.max}) and ends sooner where the next ticket would pass 40,000 characters; next_cursor is null when nothing follows, else call again with the same filters and cursor set to next_cursor. This is how to see every ticket of a column that get_project_status shows with "index_truncated": true. A ticket too long for a page of its own comes with its description clipped ("description_truncated": true); get_ticket has all of it.`,
    input: z.strictObject({
      column_name: z.string().describe('Only tickets in this column (case-insensitive).').optional(),
      status: enumParam('status', TICKET_STATUSES, 'open (not in the done column) or completed (in the done column).').optional(),
      priority: priority.optional(),
      search: z.string().describe('Text that must appear in the title or description (case-insensitive).').optional(),
      limit: limitParam(LIST_LIMIT.max, `Largest number of tickets on the page: default ${LIST_LIMIT.default}, maximum ${LIST_LIMIT.max}.`).optional(),
      cursor: cursorParam('list_tickets').optional(),
      order: enumParam(
        'order',
        TICKET_ORDERS,
        'updated (default): most recently updated first; board: column by column in board order, each column in its order on the board (top first).',
      ).optional(),
    }),
    rest: { method: 'GET', path: '/tickets' },
    output: ticketPageOutput,
    annotations: READ_ONLY,
    handler: (ctx, input) => listTickets(ctx, input),
  }),
  defineMcpTool({
    name: 'update_ticket',
    title: 'Update ticket',
    description:
      "Change a ticket's title, description, priority, ticket_type or created_at (and labels or assignee), or check/uncheck one task list item of the description (toggle_task: only that line changes). Does not move it: use move_ticket for columns. Call add_comment afterwards with a summary, files changed and functions or classes modified.",
    input: z.strictObject({
      ticket_id: ticketIdParam(),
      title: title.optional(),
      description: description.optional(),
      priority: priority.optional(),
      ticket_type: ticketType.optional(),
      created_at: timestampParam('ISO 8601 date-time: corrects the creation date of imported history.').optional(),
      labels: labels.optional(),
      assignee: assignee.optional(),
      toggle_task: toggleTaskParam('description').optional(),
    }),
    rest: { method: 'PUT', path: '/tickets/{id}', idParam: 'ticket_id' },
    output: ticketOutput,
    annotations: changes({ destructive: true, idempotent: true }),
    handler: (ctx, input) => updateTicket(ctx, input),
  }),
  defineMcpTool({
    name: 'move_ticket',
    title: 'Move ticket',
    description:
      'Move a ticket to a column (column_name, case-insensitive, from get_project_status or list_columns), at the top of that column unless position says where ("bottom", {"before": KEY}, {"after": KEY}); with its own column and a position it reorders the column. Only sub-tickets and standalone tickets move: an epic with sub-tickets advances automatically (all sub-tickets done → done; work started → In Progress). Bug report on finished work: move the completed sub-ticket back to the active column, comment, fix, complete again. Call add_comment after every move.',
    input: z.strictObject({
      ticket_id: ticketIdParam(),
      column_name: z.string().trim().min(1).describe('Target column, case-insensitive (e.g. "Review").'),
      position: position.optional(),
    }),
    rest: { method: 'POST', path: '/tickets/{id}/move', idParam: 'ticket_id' },
    output: ticketOutput,
    annotations: changes({ destructive: false, idempotent: true }),
    handler: (ctx, input) => moveTicket(ctx, input),
  }),
  defineMcpTool({
    name: 'add_comment',
    title: 'Add comment',
    description:
      'Add a markdown comment to a ticket. Required after any update, move or completed work: summarize what was done, list the files changed and the functions or classes modified.',
    input: z.strictObject({
      ticket_id: ticketIdParam(),
      // Kept exactly as sent (a Markdown code block's final newline included); a blank one is refused as empty.
      content: z
        .string()
        .min(1)
        .max(100_000)
        .superRefine((text, ctx) => {
          if (text.trim() === '') ctx.addIssue({ code: 'too_small', origin: 'string', minimum: 1, inclusive: true, input: text });
        })
        .describe('Markdown: summary, files changed, functions or classes modified.'),
    }),
    rest: { method: 'POST', path: '/tickets/{id}/comment', idParam: 'ticket_id', status: 201 },
    output: commentOutput,
    annotations: changes({ destructive: false, idempotent: false }),
    handler: (ctx, input) => addComment(ctx, input),
  }),
  defineMcpTool({
    name: 'delete_ticket',
    title: 'Delete ticket',
    description:
      'Delete a ticket permanently (its number is never reused). Deleting an epic leaves its sub-tickets as standalone tickets; deleting a sub-ticket lets its epic advance.',
    input: z.strictObject({ ticket_id: ticketIdParam() }),
    rest: { method: 'DELETE', path: '/tickets/{id}', idParam: 'ticket_id' },
    output: deletedTicketOutput,
    annotations: changes({ destructive: true, idempotent: true }),
    handler: (ctx, input) => deleteTicket(ctx, input),
  }),
];
