import { describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { setProject, withTicketsStore } from '../src/index.ts';
import { boardCaller, connectMcp, refusal, useBoard } from './helpers.ts';

describe.each(dialectsUnderTest())('status, index, documents and search on %s', (dialect) => {
  const board = useBoard(dialect);
  const call = boardCaller(board);

  it('get_project_status shows boards with ticket indexes, stats, the 5 most recently updated tickets and the README clipped to 3000 characters', async () => {
    for (let i = 1; i <= 7; i++)
      await call('create_ticket', { title: `Ticket ${i}`, priority: i === 7 ? 'high' : 'medium', column_name: i === 6 ? 'Done' : undefined });
    await call('update_ticket', { ticket_id: `${board.projectKey}-1`, description: 'touched' });
    await call('create_document', { title: 'README', doc_type: 'readme', content: 'r'.repeat(3500) });
    await call('create_document', { title: 'Notes', content: 'n' });
    const status = await call('get_project_status');
    expect(status.project).toEqual({ key: board.projectKey, name: `Project ${board.projectKey}`, description: '', settings: { auto_summary: true } });
    expect(status.stats).toEqual({
      total: 7,
      open: 6,
      completed: 1,
      by_column: { Backlog: 6, Done: 1 },
      by_type: { task: 7 },
      by_priority: { medium: 6, high: 1 },
    });
    expect(status.boards).toHaveLength(1);
    expect(status.boards[0].name).toBe('Main');
    expect(
      status.boards[0].columns.map((c: { name: string; is_done_column: boolean; ticket_count: number }) => [c.name, c.is_done_column, c.ticket_count]),
    ).toEqual([
      ['Backlog', false, 6],
      ['To Do', false, 0],
      ['In Progress', false, 0],
      ['Review', false, 0],
      ['Done', true, 1],
    ]);
    expect(status.boards[0].columns[4].tickets).toEqual([{ key: `${board.projectKey}-6`, title: 'Ticket 6', ticket_type: 'task', priority: 'medium' }]);
    expect(status.recent_tickets.map((t: { key: string }) => t.key)).toEqual([1, 7, 6, 5, 4].map((n) => `${board.projectKey}-${n}`));
    expect(Object.keys(status.recent_tickets[0])).not.toContain('description');
    const readme = status.documents.find((d: { slug: string }) => d.slug === 'readme');
    expect(readme.content).toHaveLength(3000);
    expect(readme.content_truncated).toBe(true);
    expect(status.documents.find((d: { slug: string }) => d.slug === 'notes')).toEqual({
      id: expect.any(String),
      slug: 'notes',
      title: 'Notes',
      doc_type: 'wiki',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    await withTicketsStore(board.env, (db) => setProject(db, board.projectKey, { autoSummary: false }));
    const quiet = await call('get_project_status');
    expect(quiet.documents.find((d: { slug: string }) => d.slug === 'readme').content).toBeUndefined();
    await withTicketsStore(board.env, (db) => setProject(db, board.projectKey, { autoSummary: true }));
  });

  it('get_all_tickets lists every ticket compactly and every document clipped to 3000 characters', async () => {
    const index = await call('get_all_tickets');
    expect(index.tickets).toHaveLength(7);
    expect(Object.keys(index.tickets[0])).toEqual(['key', 'title', 'ticket_type', 'column', 'parent', 'ai_summary']);
    const readme = index.documents.find((d: { slug: string }) => d.slug === 'readme');
    expect([readme.content.length, readme.content_truncated]).toEqual([3000, true]);
    expect(index.documents.find((d: { slug: string }) => d.slug === 'notes')).toMatchObject({ content: 'n', content_truncated: false });
    expect(await call('list_columns')).toEqual({
      columns: [
        { name: 'Backlog', is_done_column: false, board_name: 'Main', ticket_count: 6 },
        { name: 'To Do', is_done_column: false, board_name: 'Main', ticket_count: 0 },
        { name: 'In Progress', is_done_column: false, board_name: 'Main', ticket_count: 0 },
        { name: 'Review', is_done_column: false, board_name: 'Main', ticket_count: 0 },
        { name: 'Done', is_done_column: true, board_name: 'Main', ticket_count: 1 },
      ],
    });
    expect((await call('list_tickets')).count).toBe(7);
  });

  it('keeps slugs unique per project, derived from the title, and deletes documents over REST only', async () => {
    const first = await call('create_document', { title: 'Release Plan', content: 'v1' });
    const second = await call('create_document', { title: 'Release Plan', content: 'v2', doc_type: 'changelog' });
    expect([first.slug, second.slug, second.doc_type]).toEqual(['release-plan', 'release-plan-2', 'changelog']);
    const taken = await refusal(call('create_document', { title: 'Other', slug: 'release-plan' }));
    expect([taken.status, taken.message]).toEqual([
      409,
      `The slug "release-plan" is already taken in project ${board.projectKey}. Choose another slug or update_document "release-plan".`,
    ]);
    expect((await call('list_documents', { doc_type: 'changelog' })).documents.map((d: { slug: string }) => d.slug)).toEqual(['release-plan-2']);
    expect((await call('get_document', { doc_id: first.id })).content).toBe('v1');
    const updated = await call('update_document', { doc_id: 'release-plan', title: 'Release plan 2025' });
    expect([updated.slug, updated.title, updated.content]).toEqual(['release-plan', 'Release plan 2025', 'v1']);
    expect(await call('delete_document', { doc_id: 'release-plan' })).toEqual({ deleted: true, slug: 'release-plan' });
    expect((await refusal(call('get_document', { doc_id: 'release-plan' }))).status).toBe(404);
  });

  it('searches tickets and documents full-text, ranked, with highlighted snippets and a scope', async () => {
    await call('create_ticket', { title: 'Webhook retries', description: 'Retry failed deliveries with backoff.' });
    await call('create_ticket', { title: 'Billing page', description: 'Show invoices; webhook events update the status.' });
    await call('create_document', { title: 'Webhooks guide', content: 'How webhook signatures are verified.' });
    const all = await call('search', { query: 'webhook' });
    expect(all.results.map((r: { kind: string; title: string }) => [r.kind, r.title])).toEqual(
      expect.arrayContaining([
        ['ticket', 'Webhook retries'],
        ['ticket', 'Billing page'],
        ['document', 'Webhooks guide'],
      ]),
    );
    const tickets = all.results.filter((r: { kind: string }) => r.kind === 'ticket');
    expect(tickets[0]).toMatchObject({ kind: 'ticket', key: `${board.projectKey}-8`, title: 'Webhook retries', ticket_type: 'task', column: 'Backlog' });
    expect(tickets[0].score).toBeGreaterThan(tickets[1].score);
    expect(tickets[1].snippet).toContain('**webhook**');
    expect((await call('search', { query: 'webhook', scope: 'documents' })).results).toEqual([
      {
        kind: 'document',
        slug: 'webhooks-guide',
        title: 'Webhooks guide',
        doc_type: 'wiki',
        score: expect.any(Number),
        snippet: expect.stringContaining('**'),
      },
    ]);
    expect((await call('search', { query: 'retry backoff', scope: 'tickets' })).results.map((r: { title: string }) => r.title)).toEqual(['Webhook retries']);
    expect((await call('search', { query: '"); DROP TABLE tickets; --' })).results).toEqual([]);
  });

  it('answers bad requests with the documented error shape, never a 500', async () => {
    const headers = { authorization: `Bearer ${board.token}`, 'content-type': 'application/json' };
    const created = await fetch(`${board.url}/api/mcp/v1/tickets`, { method: 'POST', headers, body: JSON.stringify({ title: 'Created over REST' }) });
    expect([created.status, (await created.json()).title]).toEqual([201, 'Created over REST']);
    const moved = await fetch(`${board.url}/api/mcp/v1/tickets/${board.projectKey}-1/move`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ column_name: 'To Do' }),
    });
    expect([moved.status, (await moved.json()).column]).toEqual([200, 'To Do']);
    const malformed = await fetch(`${board.url}/api/mcp/v1/tickets`, { method: 'POST', headers, body: '{"title": ' });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe('invalid_json');
    const array = await fetch(`${board.url}/api/mcp/v1/tickets`, { method: 'POST', headers, body: '[1]' });
    expect([array.status, await array.json()]).toEqual([
      400,
      { error: { code: 'invalid_request', message: 'The request body of create_ticket must be a JSON object of its parameters.' } },
    ]);
    const huge = await fetch(`${board.url}/api/mcp/v1/tickets`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'x', description: 'y'.repeat(1_100_000) }),
    });
    expect(huge.status).toBe(413);
    const unknown = await fetch(`${board.url}/api/mcp/v1/nothing`, { headers });
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: { code: 'not_found', message: 'No route GET /api/mcp/v1/nothing.' } }]);
    const openapi = await fetch(`${board.url}/openapi.json`);
    expect(openapi.status).toBe(200);
    expect(Object.keys((await openapi.json()).paths)).toContain('/api/mcp/v1/tickets/{id}/sub-ticket');
  });

  it('refuses NUL characters (which PostgreSQL cannot store) with 400 on every engine, over REST and MCP', async () => {
    const headers = { authorization: `Bearer ${board.token}`, 'content-type': 'application/json' };
    const created = await fetch(`${board.url}/api/mcp/v1/tickets`, { method: 'POST', headers, body: JSON.stringify({ title: 'a\u0000b' }) });
    const titleMessage = 'title must not contain NUL characters (U+0000).';
    expect([created.status, await created.json()]).toEqual([
      400,
      {
        error: {
          code: 'invalid_request',
          message: `Invalid arguments for create_ticket: ${titleMessage}`,
          details: { issues: [{ path: 'title', message: titleMessage }] },
        },
      },
    ]);
    const document = await fetch(`${board.url}/api/mcp/v1/documents/a%00b`, { headers });
    const docMessage = 'doc_id must not contain NUL characters (U+0000).';
    expect([document.status, await document.json()]).toEqual([
      400,
      {
        error: {
          code: 'invalid_request',
          message: `Invalid arguments for get_document: ${docMessage}`,
          details: { issues: [{ path: 'doc_id', message: docMessage }] },
        },
      },
    ]);
    const client = await connectMcp(board.url, board.token);
    try {
      const message = 'Invalid arguments for create_ticket: labels must not contain NUL characters (U+0000).';
      expect(await client.callTool({ name: 'create_ticket', arguments: { title: 'x', labels: ['back\u0000end'] } })).toEqual({
        isError: true,
        content: [{ type: 'text', text: message }],
        _meta: {
          'dev.switchboard/error': {
            code: 'invalid_request',
            message,
            details: { issues: [{ path: 'labels', message: 'labels must not contain NUL characters (U+0000).' }] },
          },
        },
      });
    } finally {
      await client.close();
    }
  });

  it('refuses a ticket number beyond the 9 digits of the string forms with 400, sent as a JSON number too', async () => {
    const headers = { authorization: `Bearer ${board.token}`, 'content-type': 'application/json' };
    const response = await fetch(`${board.url}/api/mcp/v1/tickets/${board.projectKey}-1/convert-to-sub-ticket`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ epic_id: 3_000_000_000 }),
    });
    const message = 'epic_id "3000000000" is not a ticket id. Use the ticket key (e.g. DEMO-12), its number (12) or its UUID.';
    expect([response.status, await response.json()]).toEqual([400, { error: { code: 'invalid_request', message, details: { field: 'epic_id' } } }]);
    const client = await connectMcp(board.url, board.token);
    try {
      expect(await client.callTool({ name: 'get_ticket', arguments: { ticket_id: 1_000_000_000 } })).toEqual({
        isError: true,
        content: [{ type: 'text', text: 'ticket_id "1000000000" is not a ticket id. Use the ticket key (e.g. DEMO-12), its number (12) or its UUID.' }],
        _meta: {
          'dev.switchboard/error': {
            code: 'invalid_request',
            message: 'ticket_id "1000000000" is not a ticket id. Use the ticket key (e.g. DEMO-12), its number (12) or its UUID.',
            details: { field: 'ticket_id' },
          },
        },
      });
    } finally {
      await client.close();
    }
  });
});
