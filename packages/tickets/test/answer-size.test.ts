import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { createLabel, withTicketsStore } from '../src/index.ts';
import { boardCaller, expectFits, refusal, sizedMcpCaller, useBoard, type SizedAnswer } from './helpers.ts';
import { seedBoard, type SeededBoard, type SeededTicket } from './factories.ts';

/** Tickets per column of the large project: one small column whose index stays whole, four that are cut. */
const SHARES = { Backlog: 3000, 'To Do': 1500, 'In Progress': 500, Review: 12, Done: 4988 };
const INDEX_HINT =
  'Columns with "index_truncated": true list only part of their tickets (an open column its most recently updated, a done column its most recently completed); their ticket_count is exact. To see every ticket of such a column call list_tickets with column_name, then again with cursor set to each next_cursor until next_cursor is null.';

/** The order a cut index keeps tickets in: most recently updated (done column: completed) first, then the higher number. */
function preferred(tickets: SeededTicket[], done: boolean): SeededTicket[] {
  const at = (ticket: SeededTicket) => (done ? ticket.completedAt! : ticket.updatedAt);
  return [...tickets].sort((a, b) => (at(a) < at(b) ? 1 : at(a) > at(b) ? -1 : b.number - a.number));
}

function tally(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const value of values) out[value] = (out[value] ?? 0) + 1;
  return out;
}

describe.each(dialectsUnderTest())('answers sized for agents: 10,000 tickets and 300 documents on %s', (dialect) => {
  const board = useBoard(dialect, { key: 'BIG' });
  const rest = boardCaller(board);
  let seeded: SeededBoard;
  let mcp: Awaited<ReturnType<typeof sizedMcpCaller>>;
  beforeAll(async () => {
    seeded = await seedBoard(board.env, board.projectKey, SHARES, 300);
    await withTicketsStore(board.env, async (db) => {
      await createLabel(db, board.projectKey, 'backend', '#2563eb');
      await createLabel(db, board.projectKey, 'urgent', '#dc2626');
    });
    mcp = await sizedMcpCaller(board.url, board.token);
  });
  afterAll(() => mcp.client.close());

  it('keeps the text of every listing tool under 40,000 characters and the whole MCP response under 90,000', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['get_project_status', {}],
      ['get_all_tickets', {}],
      ['get_all_tickets', { limit: 1000 }],
      ['list_tickets', { limit: 100 }],
      ['list_tickets', { column_name: 'Done', limit: 100 }],
      ['search', { query: 'checkout', limit: 100 }],
      ['search', { query: 'part', scope: 'documents', limit: 100 }],
      ['list_documents', {}],
      ['list_columns', {}],
      ['list_labels', {}],
      ['list_members', {}],
    ];
    for (const [name, args] of calls) expectFits(await mcp.call(name, args), `${name} ${JSON.stringify(args)}`);
    const page = (await mcp.call('list_tickets', { limit: 100 })).result;
    // 100 tickets with descriptions and summaries pass the budget: the page ends sooner and says where to go on.
    expect([page.count > 40, page.count < 100, page.count === page.tickets.length, typeof page.next_cursor]).toEqual([true, true, true, 'string']);
    expect((await mcp.call('search', { query: 'checkout', limit: 100 })).result.results).toHaveLength(100);
  });

  it('get_project_status keeps everything complete but the column indexes, which keep their most recent tickets and say they were cut', async () => {
    const answer = await mcp.call('get_project_status');
    const status = answer.result;
    expect(Object.keys(status)).toEqual(['project', 'stats', 'boards', 'recent_tickets', 'documents', 'labels', 'hint']);
    expect(status.stats).toEqual({
      total: 10_000,
      open: 10_000 - SHARES.Done,
      completed: SHARES.Done,
      by_column: SHARES,
      by_type: tally(seeded.tickets.map((ticket) => ticket.ticketType)),
      by_priority: tally(seeded.tickets.map((ticket) => ticket.priority)),
    });
    const columns = status.boards[0].columns;
    expect(
      columns.map((column: { name: string; ticket_count: number; index_truncated?: boolean }) => [column.name, column.ticket_count, column.index_truncated]),
    ).toEqual([
      ['Backlog', 3000, true],
      ['To Do', 1500, true],
      ['In Progress', 500, true],
      ['Review', 12, undefined],
      ['Done', 4988, true],
    ]);
    expect(Object.keys(columns[0])).toEqual(['name', 'is_done_column', 'board_name', 'ticket_count', 'index_truncated', 'tickets']);
    expect(Object.keys(columns[3])).toEqual(['name', 'is_done_column', 'board_name', 'ticket_count', 'tickets']);
    const kept = columns.map((column: { tickets: unknown[] }) => column.tickets.length);
    // The cut columns take turns: each keeps about as many tickets as the others.
    const cut = kept.filter((_: number, i: number) => i !== 3);
    expect(Math.max(...cut) - Math.min(...cut)).toBeLessThanOrEqual(1);
    expect(Math.min(...cut)).toBeGreaterThan(10);
    for (const column of columns) {
      const mine = seeded.tickets.filter((ticket) => ticket.column === column.name);
      const expected = preferred(mine, column.is_done_column)
        .slice(0, column.tickets.length)
        .sort((a, b) => a.number - b.number)
        .map((ticket) => ticket.key);
      expect(
        column.tickets.map((ticket: { key: string }) => ticket.key),
        column.name,
      ).toEqual(expected);
    }
    expect(columns[3].tickets).toHaveLength(12);
    expect(Object.keys(columns[0].tickets[0])).toEqual(['key', 'title', 'ticket_type', 'priority']);
    expect(status.recent_tickets.map((ticket: { key: string }) => ticket.key)).toEqual(
      preferred(seeded.tickets, false)
        .slice(0, 5)
        .map((ticket) => ticket.key),
    );
    // 300 documents in full would crowd out the indexes: every one is listed, by slug, title and doc_type.
    expect(status.documents).toHaveLength(300);
    expect(status.documents.map((doc: { slug: string }) => doc.slug).sort()).toEqual(seeded.documents.map((doc) => doc.slug).sort());
    const readme = status.documents.find((doc: { slug: string }) => doc.slug === 'readme');
    expect(Object.keys(readme)).toEqual(['slug', 'title', 'doc_type', 'content', 'content_truncated']);
    expect([readme.content.length, readme.content_truncated]).toEqual([3000, true]);
    expect(status.documents.find((doc: { slug: string }) => doc.slug === 'guide-001')).toEqual({ slug: 'guide-001', title: 'Guide page 1', doc_type: 'wiki' });
    expect(status.labels.map((label: { name: string }) => label.name)).toEqual(['backend', 'urgent']);
    expect(status.hint).toBe(
      `${INDEX_HINT} documents are listed by slug, title and doc_type only: list_documents gives their dates, get_document their content.`,
    );
    // REST answers the same JSON.
    expect(await rest('get_project_status')).toEqual(status);
  });

  it('pages get_all_tickets with next_cursor until null: every ticket and every document exactly once, each page within the budget', async () => {
    const keys: string[] = [];
    const slugs: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer: SizedAnswer = await mcp.call('get_all_tickets', cursor === null ? {} : { cursor });
      expectFits(answer, `get_all_tickets page ${pages + 1}`);
      expect(Object.keys(answer.result)).toEqual(['tickets', 'documents', 'next_cursor']);
      keys.push(...answer.result.tickets.map((ticket: { key: string }) => ticket.key));
      slugs.push(...answer.result.documents.map((doc: { slug: string }) => doc.slug));
      cursor = answer.result.next_cursor;
      pages++;
    } while (cursor !== null && pages < 500);
    expect(keys).toEqual(seeded.tickets.map((ticket) => ticket.key));
    expect(slugs.length).toBe(300);
    expect(new Set(slugs)).toEqual(new Set(seeded.documents.map((doc) => doc.slug)));
    expect(pages).toBeGreaterThan(50);
    // limit caps a page; the next one starts after its last entry, over REST too.
    const first = await rest('get_all_tickets', { limit: 7 });
    expect(first.tickets.map((ticket: { key: string }) => ticket.key)).toEqual(seeded.tickets.slice(0, 7).map((ticket) => ticket.key));
    expect(first.documents).toEqual([]);
    const second = await rest('get_all_tickets', { limit: 3, cursor: first.next_cursor });
    expect(second.tickets.map((ticket: { key: string }) => ticket.key)).toEqual(['BIG-8', 'BIG-9', 'BIG-10']);
  });

  it('pages list_tickets through a cut column completely with column_name, beginning with the tickets the status index kept', async () => {
    const status = (await mcp.call('get_project_status')).result;
    const inProgress = status.boards[0].columns.find((column: { name: string }) => column.name === 'In Progress');
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const answer: SizedAnswer = await mcp.call('list_tickets', { column_name: 'in progress', limit: 100, ...(cursor === null ? {} : { cursor }) });
      expectFits(answer, 'list_tickets page');
      expect(answer.result.count).toBe(answer.result.tickets.length);
      listed.push(...answer.result.tickets.map((ticket: { key: string }) => ticket.key));
      cursor = answer.result.next_cursor;
    } while (cursor !== null);
    const expected = preferred(
      seeded.tickets.filter((ticket) => ticket.column === 'In Progress'),
      false,
    ).map((ticket) => ticket.key);
    expect(listed).toEqual(expected);
    expect(new Set(listed.slice(0, inProgress.tickets.length))).toEqual(new Set(inProgress.tickets.map((ticket: { key: string }) => ticket.key)));
    // The same pages over REST, the cursor in the query string.
    const overRest: string[] = [];
    let restCursor: string | null = null;
    do {
      const page: { tickets: Array<{ key: string }>; next_cursor: string | null } = await rest('list_tickets', {
        column_name: 'In Progress',
        limit: 100,
        ...(restCursor === null ? {} : { cursor: restCursor }),
      });
      overRest.push(...page.tickets.map((ticket: { key: string }) => ticket.key));
      restCursor = page.next_cursor;
    } while (restCursor !== null);
    expect(overRest).toEqual(expected);
  });

  it('pages list_documents, and refuses a cursor that is not one of the tool it is sent to, saying how to page', async () => {
    const slugs: string[] = [];
    let cursor: string | null = null;
    do {
      const answer: SizedAnswer = await mcp.call('list_documents', cursor === null ? { limit: 120 } : { limit: 120, cursor });
      expectFits(answer, 'list_documents page');
      slugs.push(...answer.result.documents.map((doc: { slug: string }) => doc.slug));
      cursor = answer.result.next_cursor;
    } while (cursor !== null);
    expect(slugs).toHaveLength(300);
    expect(new Set(slugs)).toEqual(new Set(seeded.documents.map((doc) => doc.slug)));

    const other = (await rest('get_all_tickets', { limit: 1 })).next_cursor;
    const message = `cursor "${other}" is not a cursor of list_tickets. Pass the next_cursor of the previous list_tickets answer unchanged, or leave cursor out to start from the first page.`;
    const headers = { authorization: `Bearer ${board.token}` };
    const response = await fetch(`${board.url}/api/mcp/v1/tickets?cursor=${other}`, { headers });
    expect([response.status, await response.json()]).toEqual([400, { error: { code: 'invalid_request', message, details: { field: 'cursor' } } }]);
    const overMcp = await refusal(mcp.call('list_tickets', { cursor: 'not-a-cursor' }));
    expect([overMcp.code, overMcp.message]).toEqual([
      'invalid_request',
      'cursor "not-a-cursor" is not a cursor of list_tickets. Pass the next_cursor of the previous list_tickets answer unchanged, or leave cursor out to start from the first page.',
    ]);
  });
});
