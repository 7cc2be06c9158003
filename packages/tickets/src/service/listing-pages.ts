import type { BoardContext } from './board-context.ts';
import { ticketKey } from '../domain/ticket-rules.ts';
import { DOCUMENT_CLIP, SUMMARY_CLIP, clip } from '../domain/text-rules.ts';
import { AnswerRoom, answerCost, entryCost, replacingNullCost } from '../domain/answer-budget.ts';
import { decodeCursor, encodeCursor, type PagePosition } from '../domain/cursor.ts';
import { projectColumns } from '../store/project-store.ts';
import { documentExcerpts, listDocumentMeta, type DocumentPosition } from '../store/document-store.ts';
import { summaryIndexPage } from '../store/ticket-store.ts';
import { presentDocumentMeta, presentMember } from './presenters.ts';

/** Largest `limit` of get_all_tickets and list_documents; without a limit a page holds as many entries as fit. */
export const PAGE_LIMIT_MAX = 1000;

// Rows read by the first query of a page (a page of ordinary entries holds about a hundred); each further query
// of the same page reads twice as many.
const FIRST_CHUNK = 128;

/**
 * Fills a page from a keyset-ordered source: entries are read in chunks after the last one taken and taken
 * while they fit the room (with the cursor that would follow them) and the limit. Returns the entries and
 * whether the source has more after them.
 */
async function fillFrom<R, E>(options: {
  room: AnswerRoom;
  limit: number;
  read: (after: R | undefined, count: number) => Promise<R[]>;
  present: (row: R) => E;
  cursorAfter: (row: R) => PagePosition;
}): Promise<{ entries: E[]; last: R | undefined; more: boolean }> {
  const entries: E[] = [];
  let last: R | undefined;
  for (let chunk = FIRST_CHUNK; ; chunk *= 2) {
    const want = Math.min(options.limit - entries.length, chunk);
    if (want <= 0) return { entries, last, more: (await options.read(last, 1)).length > 0 };
    const rows = await options.read(last, want + 1);
    for (const row of rows.slice(0, want)) {
      const entry = options.present(row);
      if (!options.room.take(entryCost(entry), replacingNullCost(encodeCursor(options.cursorAfter(row))))) return { entries, last, more: true };
      entries.push(entry);
      last = row;
    }
    if (rows.length <= want) return { entries, last, more: false };
  }
}

/**
 * get_all_tickets: one page of the compact index of every ticket (by number) and then of every document (by
 * title, content clipped to 3000 characters). A page holds as many entries as `limit` allows and the answer
 * budget holds; next_cursor (null on the last page) continues where it stopped. A project whose whole index
 * fits answers it in one page, as it always did.
 */
export async function allTickets(ctx: BoardContext, input: { limit?: number; cursor?: string }) {
  const start = input.cursor === undefined ? undefined : decodeCursor('get_all_tickets', input.cursor);
  const answer = { tickets: [] as object[], documents: [] as object[], next_cursor: null as string | null };
  const room = new AnswerRoom(answerCost(answer));
  const limit = input.limit ?? PAGE_LIMIT_MAX;
  const key = (number: number) => ticketKey(ctx.project.key, number);

  let documentsAfter: DocumentPosition | undefined;
  if (start === undefined || start.phase === 'tickets') {
    const columns = new Map((await projectColumns(ctx.db, ctx.project.id)).map((column) => [column.id, column.name]));
    type Row = Awaited<ReturnType<typeof summaryIndexPage>>[number];
    const tickets = await fillFrom<Row, object>({
      room,
      limit,
      read: (after, count) => summaryIndexPage(ctx.db, ctx.project.id, after?.number ?? start?.number ?? 0, count),
      present: (row) => ({
        key: key(row.number),
        title: row.title,
        ticket_type: row.ticket_type,
        column: columns.get(row.column_id) ?? null,
        parent: row.parent_number === null ? null : key(row.parent_number),
        ai_summary: row.ai_summary === null ? null : clip(row.ai_summary, SUMMARY_CLIP).text,
      }),
      cursorAfter: (row) => ({ tool: 'get_all_tickets', phase: 'tickets', number: row.number }),
    });
    answer.tickets = tickets.entries;
    if (tickets.more) {
      answer.next_cursor = encodeCursor({ tool: 'get_all_tickets', phase: 'tickets', number: tickets.last?.number ?? start?.number ?? 0 });
      return answer;
    }
  } else {
    documentsAfter = start.after;
  }

  type DocumentRow = Awaited<ReturnType<typeof documentExcerpts>>[number];
  const documents = await fillFrom<DocumentRow, object>({
    room,
    limit: limit - answer.tickets.length,
    // One character more than the clip, so the clip knows whether the content goes on.
    read: (after, count) => documentExcerpts(ctx.db, ctx.project.id, { after: after ?? documentsAfter, limit: count, contentChars: DOCUMENT_CLIP + 1 }),
    present: (row) => {
      const clipped = clip(row.content, DOCUMENT_CLIP);
      return { ...presentDocumentMeta(row), content: clipped.text, content_truncated: clipped.truncated };
    },
    cursorAfter: (row) => ({ tool: 'get_all_tickets', phase: 'documents', after: { title: row.title, slug: row.slug } }),
  });
  answer.documents = documents.entries;
  if (documents.more) {
    const after = documents.last ?? documentsAfter;
    answer.next_cursor = encodeCursor({ tool: 'get_all_tickets', phase: 'documents', ...(after ? { after: { title: after.title, slug: after.slug } } : {}) });
  }
  return answer;
}

/** list_documents: a page of documents without content (by title), optionally of one doc_type; next_cursor continues. */
export async function listDocumentsPage(ctx: BoardContext, input: { doc_type?: string; limit?: number; cursor?: string }) {
  const start = input.cursor === undefined ? undefined : decodeCursor('list_documents', input.cursor);
  const answer = { documents: [] as object[], next_cursor: null as string | null };
  type Row = Awaited<ReturnType<typeof listDocumentMeta>>[number];
  const page = await fillFrom<Row, object>({
    room: new AnswerRoom(answerCost(answer)),
    limit: input.limit ?? PAGE_LIMIT_MAX,
    read: (after, count) => listDocumentMeta(ctx.db, ctx.project.id, { docType: input.doc_type, after: after ?? start?.after, limit: count }),
    present: presentDocumentMeta,
    cursorAfter: (row) => ({ tool: 'list_documents', after: { title: row.title, slug: row.slug } }),
  });
  answer.documents = page.entries;
  if (page.more) {
    const after = page.last ?? start?.after;
    // A page always holds at least one entry (every entry fits an empty page), so `after` is known here.
    answer.next_cursor = encodeCursor({ tool: 'list_documents', after: { title: after!.title, slug: after!.slug } });
  }
  return answer;
}

/**
 * list_members: a page of the project's people (its members plus every admin), by email; as many as `limit`
 * allows and the answer budget holds, next_cursor (null on the last page) continues after the last email. A
 * deployment's users are not bounded by any project rule, so the list pages like the documents.
 */
export async function listMembersPage(ctx: BoardContext, input: { limit?: number; cursor?: string }) {
  const start = input.cursor === undefined ? undefined : decodeCursor('list_members', input.cursor);
  const people = await ctx.members.list(ctx.project.key);
  // People come by email (unique, lower case); the page starts after the cursor's.
  const rest = start === undefined ? people : people.filter((person) => person.email > start.after);
  const answer = { members: [] as object[], next_cursor: null as string | null };
  type Person = (typeof people)[number];
  const page = await fillFrom<Person, object>({
    room: new AnswerRoom(answerCost(answer)),
    limit: input.limit ?? PAGE_LIMIT_MAX,
    read: async (after, count) => {
      const from = after === undefined ? 0 : rest.indexOf(after) + 1;
      return rest.slice(from, from + count);
    },
    present: presentMember,
    cursorAfter: (person) => ({ tool: 'list_members', after: person.email }),
  });
  answer.members = page.entries;
  // A page always holds at least one member (presentMember clips what could not fit), so `last` is known here.
  if (page.more) answer.next_cursor = encodeCursor({ tool: 'list_members', after: page.last!.email });
  return answer;
}
