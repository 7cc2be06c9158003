import { describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { createLabel, withTicketsStore } from '../src/index.ts';
import { boardCaller, connectMcp, expectFits, mcpCaller, restCaller, sizedMcpCaller, useBoard, type SizedAnswer } from './helpers.ts';

interface TicketView {
  id: string;
  key: string;
  number: number;
  title: string;
  ticket_type: string;
  priority: string;
  column: string;
  parent: { key: string } | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  ai_summary: string | null;
  comments?: unknown;
  activity?: unknown;
}

const byRecency = (a: TicketView, b: TicketView) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : b.number - a.number);

function firstAppearance(values: string[]): Record<string, number> {
  const out = new Map<string, number>();
  for (const value of values) out.set(value, (out.get(value) ?? 0) + 1);
  return Object.fromEntries(out);
}

describe.each(dialectsUnderTest())('a project of 20 tickets answers exactly as before on %s', (dialect) => {
  const board = useBoard(dialect, { key: 'SMALL' });
  const call = boardCaller(board);

  it('get_project_status, get_all_tickets, list_tickets and list_documents: no index_truncated, no hint, next_cursor null', async () => {
    await withTicketsStore(board.env, (db) => createLabel(db, board.projectKey, 'backend', '#2563eb'));
    await call('create_ticket', { title: 'Checkout epic', ticket_type: 'epic', priority: 'high' });
    await call('create_sub_ticket', { parent_ticket_id: 'SMALL-1', title: 'Cart page', column_name: 'To Do' });
    await call('create_sub_ticket', { parent_ticket_id: 'SMALL-1', title: 'Payment page' });
    for (let n = 4; n <= 20; n++) {
      await call('create_ticket', {
        title: `Ticket ${n}`,
        priority: ['low', 'medium', 'highest'][n % 3],
        ticket_type: n % 4 === 0 ? 'bug' : 'task',
        column_name: n % 5 === 0 ? 'Done' : n % 7 === 0 ? 'Review' : undefined,
      });
    }
    const readme = await call('create_document', { title: 'README', doc_type: 'readme', content: 'Read me first. '.repeat(40) });
    const notes = await call('create_document', { title: 'Architecture notes', content: 'How it fits together.' });
    const tickets: TicketView[] = [];
    for (let n = 1; n <= 20; n++) tickets.push(await call('get_ticket', { ticket_id: n }));
    const columns = ['Backlog', 'To Do', 'In Progress', 'Review', 'Done'];
    const indexEntry = (t: TicketView) => ({ key: t.key, title: t.title, ticket_type: t.ticket_type, priority: t.priority });
    const documentMeta = (d: typeof readme) => ({
      id: d.id,
      slug: d.slug,
      title: d.title,
      doc_type: d.doc_type,
      created_at: d.created_at,
      updated_at: d.updated_at,
    });
    const done = tickets.filter((t) => t.column === 'Done').length;
    const expectedStatus = {
      project: { key: 'SMALL', name: 'Project SMALL', description: '', settings: { auto_summary: true } },
      stats: {
        total: 20,
        open: 20 - done,
        completed: done,
        by_column: firstAppearance(tickets.map((t) => t.column)),
        by_type: firstAppearance(tickets.map((t) => t.ticket_type)),
        by_priority: firstAppearance(tickets.map((t) => t.priority)),
      },
      boards: [
        {
          name: 'Main',
          columns: columns.map((name) => {
            const mine = tickets.filter((t) => t.column === name);
            return { name, is_done_column: name === 'Done', board_name: 'Main', ticket_count: mine.length, tickets: mine.map(indexEntry) };
          }),
        },
      ],
      recent_tickets: [...tickets]
        .sort(byRecency)
        .slice(0, 5)
        .map((t) => ({
          ...indexEntry(t),
          column: t.column,
          parent: t.parent?.key ?? null,
          created_at: t.created_at,
          updated_at: t.updated_at,
          completed_at: t.completed_at,
        })),
      documents: [documentMeta(notes), { ...documentMeta(readme), content: readme.content, content_truncated: false }],
      labels: [{ id: expect.any(String), name: 'backend', color: '#2563eb' }],
    };
    const client = await connectMcp(board.url, board.token);
    try {
      const mcp = mcpCaller(client);
      const status = await call('get_project_status');
      expect(status).toStrictEqual(expectedStatus);
      expect(JSON.stringify(status)).toBe(JSON.stringify({ ...expectedStatus, labels: status.labels }));
      expect(await mcp('get_project_status')).toStrictEqual(status);

      const expectedIndex = {
        tickets: tickets.map((t) => ({
          key: t.key,
          title: t.title,
          ticket_type: t.ticket_type,
          column: t.column,
          parent: t.parent?.key ?? null,
          ai_summary: t.ai_summary,
        })),
        documents: [
          { ...documentMeta(notes), content: notes.content, content_truncated: false },
          { ...documentMeta(readme), content: readme.content, content_truncated: false },
        ],
        next_cursor: null,
      };
      const index = await mcp('get_all_tickets');
      expect(JSON.stringify(index)).toBe(JSON.stringify(expectedIndex));
      expect(await call('get_all_tickets')).toStrictEqual(index);

      const listed = await mcp('list_tickets', { limit: 100 });
      const full = (t: TicketView) => {
        const { comments: _comments, activity: _activity, ...ticket } = t;
        return ticket;
      };
      expect(JSON.stringify(listed)).toBe(JSON.stringify({ tickets: [...tickets].sort(byRecency).map(full), count: 20, next_cursor: null }));
      expect(await mcp('list_documents')).toStrictEqual({ documents: [documentMeta(notes), documentMeta(readme)], next_cursor: null });

      // With a limit, get_all_tickets pages: tickets by number, then the documents.
      const first = await mcp('get_all_tickets', { limit: 15 });
      expect([first.tickets.length, first.documents.length, typeof first.next_cursor]).toEqual([15, 0, 'string']);
      const second = await mcp('get_all_tickets', { limit: 15, cursor: first.next_cursor });
      expect(second).toStrictEqual({ tickets: expectedIndex.tickets.slice(15), documents: expectedIndex.documents, next_cursor: null });
      const allTickets = await mcp('get_all_tickets', { limit: 20 });
      expect([allTickets.tickets.length, allTickets.documents.length, typeof allTickets.next_cursor]).toEqual([20, 0, 'string']);
      expect(await mcp('get_all_tickets', { limit: 20, cursor: allTickets.next_cursor })).toStrictEqual({
        tickets: [],
        documents: expectedIndex.documents,
        next_cursor: null,
      });
      const pageOfOne = await call('list_documents', { limit: 1 });
      expect(pageOfOne.documents).toEqual([documentMeta(notes)]);
      expect(await call('list_documents', { limit: 1, cursor: pageOfOne.next_cursor })).toEqual({ documents: [documentMeta(readme)], next_cursor: null });
    } finally {
      await client.close();
    }
  });
});

describe.each(dialectsUnderTest())('answers sized for agents: long tickets and titles on %s', (dialect) => {
  const board = useBoard(dialect, { key: 'LONG' });
  const rest = boardCaller(board);

  it('lists a ticket too long for a page of its own with its description clipped, on a page of its own', async () => {
    await rest('create_ticket', { title: 'First', description: 'short' });
    await rest('create_ticket', { title: 'Huge', description: 'word '.repeat(18_000) });
    await rest('create_ticket', { title: 'Third', description: 'short' });
    const mcp = await sizedMcpCaller(board.url, board.token);
    try {
      const pages: SizedAnswer[] = [];
      let cursor: string | null = null;
      do {
        const answer: SizedAnswer = await mcp.call('list_tickets', cursor === null ? {} : { cursor });
        expectFits(answer, 'list_tickets page');
        pages.push(answer);
        cursor = answer.result.next_cursor;
      } while (cursor !== null);
      expect(pages.map((page) => page.result.tickets.map((ticket: { key: string }) => ticket.key))).toEqual([['LONG-3'], ['LONG-2'], ['LONG-1']]);
      const huge = pages[1].result.tickets[0];
      expect(Object.keys(huge).slice(4, 7)).toEqual(['description', 'description_truncated', 'priority']);
      expect(huge.description_truncated).toBe(true);
      expect(huge.description.length).toBeGreaterThan(30_000);
      expect('word '.repeat(18_000).startsWith(huge.description)).toBe(true);
      expect(pages[0].result.tickets[0].description_truncated).toBeUndefined();
      // get_ticket still has all of it.
      expect((await rest('get_ticket', { ticket_id: 'LONG-2' })).description).toHaveLength(90_000);
    } finally {
      await mcp.client.close();
    }
  });

  it('answers search within the budget when 100 results would not fit, best ranked first', async () => {
    const long = (i: number) => `Needle ${i} ${'haystack '.repeat(54)}`.trim();
    for (let start = 0; start < 100; start += 25) {
      await Promise.all(Array.from({ length: 25 }, (_, i) => rest('create_ticket', { title: long(start + i), description: `needle number ${start + i}` })));
    }
    const mcp = await sizedMcpCaller(board.url, board.token);
    try {
      const answer = await mcp.call('search', { query: 'needle', scope: 'tickets', limit: 100 });
      expectFits(answer, 'search');
      const results = answer.result.results;
      expect(results.length).toBeGreaterThan(20);
      expect(results.length).toBeLessThan(100);
      const scores = results.map((result: { score: number }) => result.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(await restCaller(board.url, board.token)('search', { query: 'needle', scope: 'tickets', limit: 100 })).toEqual(answer.result);
    } finally {
      await mcp.client.close();
    }
  });
});
