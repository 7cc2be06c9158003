import { z } from 'zod';
import { DOC_TYPES, SEARCH_SCOPES } from '../domain/vocabulary.ts';
import { LABELS_MAX, PROJECT_COLUMNS_MAX } from '../domain/settings-rules.ts';
import { listColumns } from '../service/ticket-queries.ts';
import { projectStatus } from '../service/project-status.ts';
import { PAGE_LIMIT_MAX, allTickets, listDocumentsPage, listMembersPage } from '../service/listing-pages.ts';
import { search, SEARCH_LIMIT } from '../service/search-service.ts';
import { createDocument, deleteDocument, getDocument, updateDocument } from '../service/document-service.ts';
import { listLabels } from '../store/project-store.ts';
import { presentLabel } from '../service/presenters.ts';
import { READ_ONLY, changes, cursorParam, defineMcpTool, defineTool, enumParam, limitParam } from './tool.ts';
import { toggleTaskParam } from './toggle-task-param.ts';
import {
  allTicketsOutput,
  columnsOutput,
  documentOutput,
  documentPageOutput,
  labelsOutput,
  memberPageOutput,
  projectStatusOutput,
  searchOutput,
} from './tool-outputs.ts';

const docType = enumParam('doc_type', DOC_TYPES, 'One of readme, claude_md, wiki (default), changelog, custom.');
const docId = z.string().trim().min(1).describe('The document\'s slug (e.g. "readme") or id.');

/** The project-wide tools: status, index, columns, search, documents, labels, members. */
// Tool declarations: each repeats the same fields (name, input, rest, output, annotations, handler) with its own values.
export const projectTools = [
  defineMcpTool({
    name: 'get_project_status',
    title: 'Get project status',
    description:
      'Call this FIRST in every session. Returns the project (key, name, settings), stats, every board with its columns (use these exact column names, never guess) and each column\'s ticket index, the 5 most recently updated tickets, documents (the README\'s first 3000 characters when Auto-Summary is on) and labels. On a large project the answer stays under 40,000 characters: a column whose index is cut says "index_truncated": true beside its exact ticket_count and keeps its most recently updated tickets (the done column its most recently completed), and "hint" says how to see the rest: list_tickets with column_name, following next_cursor. Boards, columns, ticket_counts and labels are always complete; a long project description may be shortened ("description_truncated": true), and documents listed in short or in part (list_documents has them all).',
    input: z.strictObject({}),
    rest: { method: 'GET', path: '/status' },
    output: projectStatusOutput,
    annotations: READ_ONLY,
    handler: (ctx) => projectStatus(ctx),
  }),
  defineMcpTool({
    name: 'get_all_tickets',
    title: 'Get all tickets (compact index)',
    description:
      'Compact index of every ticket (key, title, ticket_type, column, parent key, AI summary cut to 200 characters; no descriptions or comments) and then every document with its content clipped to 3000 characters. Use it to find related epics before creating feature work. Paged: a page holds as much as fits 40,000 characters (or limit entries), tickets by number first, then documents; next_cursor is null on the last page, else call again with cursor set to it. A small project comes whole in the first page.',
    input: z.strictObject({
      limit: limitParam(
        PAGE_LIMIT_MAX,
        `Largest number of entries (tickets, then documents) on the page, at most ${PAGE_LIMIT_MAX}; by default as many as fit 40,000 characters.`,
      ).optional(),
      cursor: cursorParam('get_all_tickets').optional(),
    }),
    rest: { method: 'GET', path: '/all-tickets' },
    output: allTicketsOutput,
    annotations: READ_ONLY,
    handler: (ctx, input) => allTickets(ctx, input),
  }),
  defineMcpTool({
    name: 'list_columns',
    title: 'List columns',
    description: `All columns of all boards with name, is_done_column, board_name and ticket_count (a project has at most ${PROJECT_COLUMNS_MAX}, so this is always the whole list). Column names for column_name come from here or get_project_status.`,
    input: z.strictObject({}),
    rest: { method: 'GET', path: '/columns' },
    output: columnsOutput,
    annotations: READ_ONLY,
    handler: (ctx) => listColumns(ctx),
  }),
  defineMcpTool({
    name: 'search',
    title: 'Search tickets and documents',
    description: `Ranked full-text search over ticket titles and descriptions and document titles and content, with highlighted snippets (**match**). Search before creating feature work or a bug ticket: a related epic or completed sub-ticket may exist. scope: all (default), tickets, documents. At most limit results (default ${SEARCH_LIMIT.default}, maximum ${SEARCH_LIMIT.max}), best first; the answer stays under 40,000 characters, so very long titles can bring fewer.`,
    input: z.strictObject({
      query: z.string().trim().min(1).describe('Words to find (all must match; prefixes match too).'),
      scope: enumParam('scope', SEARCH_SCOPES, 'all (default), tickets or documents.').optional(),
      limit: z.coerce
        .number()
        .int()
        .min(1)
        .max(SEARCH_LIMIT.max, { error: () => `must be at most ${SEARCH_LIMIT.max} (the maximum)` })
        .describe(`Largest number of results: default ${SEARCH_LIMIT.default}, maximum ${SEARCH_LIMIT.max}.`)
        .optional(),
    }),
    rest: { method: 'GET', path: '/search', aliases: { q: 'query' } },
    output: searchOutput,
    annotations: READ_ONLY,
    handler: (ctx, input) => search(ctx, input),
  }),
  defineMcpTool({
    name: 'list_documents',
    title: 'List documents',
    description:
      "List the project's wiki and documentation pages (metadata, no content), by title; optionally only one doc_type. Paged: a page holds as many as fit 40,000 characters (or limit); next_cursor is null on the last page, else call again with cursor set to it.",
    input: z.strictObject({
      doc_type: docType.optional(),
      limit: limitParam(
        PAGE_LIMIT_MAX,
        `Largest number of documents on the page, at most ${PAGE_LIMIT_MAX}; by default as many as fit 40,000 characters.`,
      ).optional(),
      cursor: cursorParam('list_documents').optional(),
    }),
    rest: { method: 'GET', path: '/documents' },
    output: documentPageOutput,
    annotations: READ_ONLY,
    handler: (ctx, input) => listDocumentsPage(ctx, input),
  }),
  defineMcpTool({
    name: 'get_document',
    title: 'Get document',
    description: 'A document with its full content, by slug or id.',
    input: z.strictObject({ doc_id: docId }),
    rest: { method: 'GET', path: '/documents/{id}', idParam: 'doc_id' },
    output: documentOutput,
    annotations: READ_ONLY,
    handler: (ctx, input) => getDocument(ctx, input),
  }),
  defineMcpTool({
    name: 'create_document',
    title: 'Create document',
    description:
      'Create a wiki or documentation page (markdown). slug is unique in the project and made from the title when not given; doc_type is readme, claude_md, wiki (default), changelog or custom. The README (doc_type readme) is shown in get_project_status.',
    input: z.strictObject({
      title: z.string().trim().min(1).max(500).describe('Page title.'),
      content: z.string().max(1_000_000).describe('Markdown content.').optional(),
      slug: z.string().describe('URL slug: lower-case letters, digits and dashes; from the title when omitted.').optional(),
      doc_type: docType.optional(),
    }),
    rest: { method: 'POST', path: '/documents', status: 201 },
    output: documentOutput,
    annotations: changes({ destructive: false, idempotent: false }),
    handler: (ctx, input) => createDocument(ctx, input),
  }),
  defineMcpTool({
    name: 'update_document',
    title: 'Update document',
    description:
      "Change a document's title or content (by slug or id), or check/uncheck one task list item of the content (toggle_task: only that line changes); the slug stays.",
    input: z.strictObject({
      doc_id: docId,
      title: z.string().trim().min(1).max(500).describe('New title.').optional(),
      content: z.string().max(1_000_000).describe('New markdown content (replaces the old).').optional(),
      doc_type: docType.optional(),
      toggle_task: toggleTaskParam('content').optional(),
    }),
    rest: { method: 'PUT', path: '/documents/{id}', idParam: 'doc_id' },
    output: documentOutput,
    annotations: changes({ destructive: true, idempotent: true }),
    handler: (ctx, input) => updateDocument(ctx, input),
  }),
  defineMcpTool({
    name: 'list_labels',
    title: 'List labels',
    description: `All labels of the project ({id, name, color}; a project has at most ${LABELS_MAX}, so this is always the whole list); use their names in the labels parameter of create_ticket and update_ticket.`,
    input: z.strictObject({}),
    rest: { method: 'GET', path: '/labels' },
    output: labelsOutput,
    annotations: READ_ONLY,
    handler: async (ctx) => ({ labels: (await listLabels(ctx.db, ctx.project.id)).map(presentLabel) }),
  }),
  defineMcpTool({
    name: 'list_members',
    title: 'List members',
    description:
      'People of the project available for assignment ({id, name, email, role}: its members and the administrators), by email; pass an email (or the id) as assignee to create_ticket or update_ticket. Paged: a page holds as many as fit 40,000 characters (or limit); next_cursor is null on the last page, else call again with cursor set to it.',
    input: z.strictObject({
      limit: limitParam(
        PAGE_LIMIT_MAX,
        `Largest number of people on the page, at most ${PAGE_LIMIT_MAX}; by default as many as fit 40,000 characters.`,
      ).optional(),
      cursor: cursorParam('list_members').optional(),
    }),
    rest: { method: 'GET', path: '/members' },
    output: memberPageOutput,
    annotations: READ_ONLY,
    handler: (ctx, input) => listMembersPage(ctx, input),
  }),
];

/** REST-only endpoints that are not MCP tools. */
export const restOnlyEndpoints = [
  defineTool({
    name: 'delete_document',
    description: 'Delete a document by slug or id (REST only).',
    input: z.strictObject({ doc_id: docId }),
    rest: { method: 'DELETE', path: '/documents/{id}', idParam: 'doc_id' },
    mcp: false,
    handler: (ctx, input) => deleteDocument(ctx, input),
  }),
];
