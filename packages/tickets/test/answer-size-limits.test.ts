import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { openPlatformDatabase } from '@switchboard/core';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { encodeCursor } from '../src/domain/cursor.ts';
import { createLabel, withTicketsStore } from '../src/index.ts';
import { BOARDS_MAX, LABELS_MAX, PROJECT_COLUMNS_MAX } from '../src/domain/settings-rules.ts';
import { expectFits, refusal, sizedMcpCaller, useBoard, type SizedAnswer } from './helpers.ts';
import { seedBoard, seedCostlyTickets, seedLargestSettings, seedPeople, type LargestSettings, type SeededPerson } from './factories.ts';
import { signedInUser, webClient, type WebAnswer } from './web-helpers.ts';

const KEY = 'MAXPROJECT';
const TICKETS_PER_COLUMN = 75;
const DESCRIPTION_HINT = `project.description shows only its beginning ("description_truncated": true); GET /api/projects/${KEY}/settings with the same token answers all of it.`;

/** An error answer of the web API: status and exact body. */
function errorOf(answer: WebAnswer) {
  return { status: answer.status, body: answer.body };
}

const ONE_LINE = 'title: must be one line: no line breaks, tabs or other control characters';
const refused = (status: number, code: string, message: string, details?: object) => ({
  status,
  body: { error: { code, message, ...(details ? { details } : {}) } },
});

describe.each(dialectsUnderTest())('the largest project the rules allow answers every listing tool within the budget on %s', (dialect) => {
  const board = useBoard(dialect, { key: KEY });
  let settings: LargestSettings;
  let recent: string[];
  let people: SeededPerson[];
  let mcp: Awaited<ReturnType<typeof sizedMcpCaller>>;
  beforeAll(async () => {
    settings = await seedLargestSettings(board.env, KEY);
    const columns = settings.boards.flatMap((b) => b.columns);
    await seedBoard(board.env, KEY, Object.fromEntries(columns.map((name) => [name, TICKETS_PER_COLUMN])), 300);
    recent = await seedCostlyTickets(board.env, KEY, 5, 150);
    people = await seedPeople(board.env, KEY, { members: 600, admins: 3, nameLength: 120 });
    mcp = await sizedMcpCaller(board.url, board.token);
  });
  afterAll(() => mcp.client.close());

  it('keeps the text of every listing tool under 40,000 characters and the whole MCP response under 90,000', async () => {
    const firstColumn = settings.boards[0].columns[0];
    const calls: Array<[string, Record<string, unknown>]> = [
      ['get_project_status', {}],
      ['get_all_tickets', {}],
      ['get_all_tickets', { limit: 1000 }],
      ['list_tickets', { limit: 100 }],
      ['list_tickets', { column_name: firstColumn, limit: 100 }],
      ['search', { query: 'work', limit: 100 }],
      ['list_documents', {}],
      ['list_columns', {}],
      ['list_labels', {}],
      ['list_members', {}],
      ['list_members', { limit: 1000 }],
    ];
    for (const [name, args] of calls) expectFits(await mcp.call(name, args), `${name} ${JSON.stringify(args)}`);
  });

  it('get_project_status lists every board, column and label with exact counts, and shortens the description to make room', async () => {
    const answer = await mcp.call('get_project_status');
    const status = answer.result;
    expect(Object.keys(status)).toEqual([
      'project',
      'stats',
      'boards',
      'recent_tickets',
      'documents',
      'documents_truncated',
      'documents_total',
      'labels',
      'hint',
    ]);
    expect(
      status.boards.map((b: { name: string; columns: Array<{ name: string }> }) => ({ name: b.name, columns: b.columns.map((column) => column.name) })),
    ).toEqual(settings.boards);
    const columns = status.boards.flatMap((b: { columns: object[] }) => b.columns);
    expect(columns).toHaveLength(PROJECT_COLUMNS_MAX);
    for (const column of columns) {
      expect([column.ticket_count, column.index_truncated, column.tickets.length > 0], column.name).toEqual([TICKETS_PER_COLUMN, true, true]);
    }
    expect(status.stats.total).toBe(PROJECT_COLUMNS_MAX * TICKETS_PER_COLUMN);
    expect(Object.values(status.stats.by_column)).toEqual(Array.from({ length: PROJECT_COLUMNS_MAX }, () => TICKETS_PER_COLUMN));
    expect(status.labels.map((label: { name: string }) => label.name)).toEqual([...settings.labels].sort());
    expect(status.recent_tickets.map((ticket: { key: string; title: string }) => [ticket.key, ticket.title.length])).toEqual(recent.map((key) => [key, 500]));
    // The description is what gave way first: its beginning, cut where its escapes reach the room (3000 plain characters).
    const { description, description_truncated: truncated, ...project } = status.project;
    expect(project).toEqual({ key: KEY, name: settings.name, settings: { auto_summary: true } });
    expect([truncated, settings.description.startsWith(description), description.length > 400, description.length < 3000]).toEqual([true, true, true, true]);
    expect(Object.keys(status.project)).toEqual(['key', 'name', 'description', 'description_truncated', 'settings']);
    expect(status.hint.startsWith(`${DESCRIPTION_HINT} Columns with "index_truncated": true`)).toBe(true);
    expect(status.documents_total).toBe(300);
    expect(answer.text).toBeLessThan(40_000);
    // The settings answer the whole description, with the same token.
    const whole = await fetch(`${board.url}/api/projects/${KEY}/settings`, { headers: { authorization: `Bearer ${board.token}` } });
    expect((await whole.json()).project.description).toBe(settings.description);
  });

  it('list_columns and list_labels answer everything; list_members pages through every person exactly once', async () => {
    const columns = (await mcp.call('list_columns')).result.columns;
    expect(columns.map((column: { name: string; board_name: string }) => [column.board_name, column.name])).toEqual(
      settings.boards.flatMap((b) => b.columns.map((name) => [b.name, name])),
    );
    expect((await mcp.call('list_labels')).result.labels).toHaveLength(LABELS_MAX);
    const listed: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: SizedAnswer = await mcp.call('list_members', cursor === null ? {} : { cursor });
      expectFits(page, `list_members page ${pages + 1}`);
      expect(Object.keys(page.result)).toEqual(['members', 'next_cursor']);
      listed.push(...page.result.members.map((member: { email: string }) => member.email));
      cursor = page.result.next_cursor;
      pages++;
    } while (cursor !== null && pages < 50);
    expect(listed).toEqual(people.map((person) => person.email));
    expect(pages).toBeGreaterThan(1);
    const first = (await mcp.call('list_members', { limit: 2 })).result;
    expect(first.members).toEqual(people.slice(0, 2).map(({ id, name, email, role }) => ({ id, name, email, role })));
    expect((await mcp.call('list_members', { limit: 1, cursor: first.next_cursor })).result.members[0].email).toBe(people[2].email);
  });

  it('clips a person no page could hold, and refuses an unknown assignee without listing every email', async () => {
    const giant = { id: randomUUID(), email: `${'g'.repeat(400)}@people.example.com`, name: '"'.repeat(50_000), role: 'member' as const };
    const platform = await openPlatformDatabase(board.env);
    try {
      await platform.db
        .insertInto('users')
        .values({ ...giant, password_hash: 'not-a-password-hash', created_at: '2025-01-01T00:00:00.000Z' })
        .execute();
      await platform.db
        .insertInto('memberships')
        .values({ service: 'tickets', scope_key: KEY, user_id: giant.id, created_at: '2025-01-01T00:00:00.000Z' })
        .execute();
    } finally {
      await platform.close();
    }
    const after = people.filter((person) => person.email < giant.email).at(-1)!;
    const page = await mcp.call('list_members', { cursor: encodeCursor({ tool: 'list_members', after: after.email }) });
    expectFits(page, 'list_members with a giant');
    expect(page.result.members[0]).toEqual({
      id: giant.id,
      name: '"'.repeat(200),
      name_truncated: true,
      email: giant.email.slice(0, 320),
      email_truncated: true,
      role: 'member',
    });
    const assigned = await mcp.call('create_ticket', { title: 'For the giant', assignee: giant.id });
    expect(assigned.result.assignee).toEqual({ id: giant.id, name: '"'.repeat(200), email: giant.email.slice(0, 320) });
    expect((await refusal(mcp.call('create_ticket', { title: 'For nobody', assignee: 'nobody@example.com' }))).message).toBe(
      `Unknown assignee "nobody@example.com": not one of the project's ${people.length + 1} people. list_members lists them (paged); pass one's email or id.`,
    );
  });

  it('refuses one board, column or label more over REST, naming the limit', async () => {
    const web = webClient(board, { token: board.token });
    const base = `/api/projects/${KEY}`;
    expect(errorOf(await web(`${base}/boards`, { method: 'POST', body: { name: 'One more', columns: ['Done'] } }))).toEqual(
      refused(409, 'conflict', `A project has at most ${BOARDS_MAX} boards and this one has ${BOARDS_MAX}: add columns to one of them instead.`),
    );
    const boards = (await web(`${base}/settings`)).body.boards;
    expect(errorOf(await web(`${base}/boards/${boards[0].id}/columns`, { method: 'POST', body: { name: 'One more' } }))).toEqual(
      refused(
        409,
        'conflict',
        `A project has at most ${PROJECT_COLUMNS_MAX} columns on all its boards together and this one has ${PROJECT_COLUMNS_MAX}: delete an empty column first.`,
      ),
    );
    expect(errorOf(await web(`${base}/labels`, { method: 'POST', body: { name: 'one-more' } }))).toEqual(
      refused(409, 'conflict', `A project has at most ${LABELS_MAX} labels and this one has ${LABELS_MAX}: delete one it no longer uses first.`),
    );
    // The same rule for a signed-in user and for the CLI's path.
    const admin = await signedInUser(board, 'root@example.com', { admin: true });
    expect(errorOf(await webClient(board, admin)(`${base}/labels`, { method: 'POST', body: { name: 'one-more' } })).status).toBe(409);
    await expect(withTicketsStore(board.env, (db) => createLabel(db, KEY, 'one-more'))).rejects.toThrow(
      `A project has at most ${LABELS_MAX} labels and this one has ${LABELS_MAX}`,
    );
  });
});

describe.each(dialectsUnderTest())('the limits of boards, columns, labels and names on %s', (dialect) => {
  const board = useBoard(dialect, { key: 'WIDE' });
  const base = '/api/projects/WIDE';
  let web: ReturnType<typeof webClient>;
  beforeAll(() => {
    web = webClient(board, { token: board.token });
  });

  it('refuses a column more on a board of 30 and a board that would pass 40 columns in the project, and names the limit', async () => {
    expect(
      errorOf(await web(`${base}/boards`, { method: 'POST', body: { name: 'Too wide', columns: Array.from({ length: 31 }, (_, i) => `C${i}`) } })),
    ).toEqual(refused(400, 'invalid_request', 'A board has at most 30 columns.', { field: 'columns' }));
    const wide = await web(`${base}/boards`, { method: 'POST', body: { name: 'Wide', columns: Array.from({ length: 30 }, (_, i) => `Step ${i + 1}`) } });
    expect([wide.status, wide.body.columns.length]).toEqual([201, 30]);
    expect(errorOf(await web(`${base}/boards/${wide.body.id}/columns`, { method: 'POST', body: { name: 'Step 31' } }))).toEqual(
      refused(409, 'conflict', 'A board has at most 30 columns and "Wide" has 30: delete an empty column first.'),
    );
    // 5 default columns and 30: a board of 6 would make 41.
    expect(errorOf(await web(`${base}/boards`, { method: 'POST', body: { name: 'Six', columns: ['1', '2', '3', '4', '5', '6'] } }))).toEqual(
      refused(
        409,
        'conflict',
        'A project has at most 40 columns on all its boards together and this one has 35: a board of 6 more would pass that. Give the board fewer columns, or delete empty ones first.',
        {
          field: 'columns',
        },
      ),
    );
    expect((await web(`${base}/boards`, { method: 'POST', body: { name: 'Five' } })).status).toBe(201);
  });

  it('lets concurrent label creations take turns, so exactly the limit is reached', async () => {
    await withTicketsStore(board.env, async (db) => {
      for (let i = 0; i < 47; i++) await createLabel(db, 'WIDE', `label-${i}`);
    });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => web(`${base}/labels`, { method: 'POST', body: { name: `late-${i}` } })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    expect((await web(`${base}/labels`)).body.labels).toHaveLength(50);
  });

  it('refuses names past their length or holding control characters, quotes or backslashes, and ticket titles on more than one line', async () => {
    expect(errorOf(await web(`${base}/labels/any-label`, { method: 'PUT', body: { name: 'x'.repeat(51) } }))).toEqual(
      refused(400, 'invalid_request', 'A label name must be at most 50 characters.', { field: 'name' }),
    );
    expect(errorOf(await web(`${base}/boards`, { method: 'POST', body: { name: 'Say "hi"' } }))).toEqual(
      refused(400, 'invalid_request', 'A board name must not contain double quotes (") or backslashes (\\).', { field: 'name' }),
    );
    const boards = (await web(`${base}/settings`)).body.boards;
    expect(errorOf(await web(`${base}/columns/${boards[0].columns[0].id}`, { method: 'PUT', body: { name: 'Two\nlines' } }))).toEqual(
      refused(400, 'invalid_request', 'A column name must be one line: no line breaks, tabs or other control characters.', { field: 'name' }),
    );
    expect(errorOf(await web(`${base}/settings`, { method: 'PUT', body: { description: 'x'.repeat(10_001) } }))).toEqual(
      refused(400, 'invalid_request', 'A project description must be at most 10000 characters.', { field: 'description' }),
    );
    const title = await fetch(`${board.url}/api/mcp/v1/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${board.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'First line\nsecond line' }),
    });
    expect([title.status, await title.json()]).toEqual([
      400,
      {
        error: {
          code: 'invalid_request',
          message: `Invalid arguments for create_ticket: ${ONE_LINE}`,
          details: { issues: [{ path: 'title', message: ONE_LINE }] },
        },
      },
    ]);
    const mcp = await sizedMcpCaller(board.url, board.token);
    try {
      expect((await refusal(mcp.call('create_ticket', { title: 'Tab\there' }))).message).toBe(`Invalid arguments for create_ticket: ${ONE_LINE}`);
    } finally {
      await mcp.client.close();
    }
  });

  it('keeps a long description whole when the answer is cut but the indexes still have their room', async () => {
    await seedBoard(board.env, 'WIDE', { Backlog: 1000, Done: 500 }, 20);
    const description = 'Plain words about the project. '.repeat(320).slice(0, 10_000);
    expect((await web(`${base}/settings`, { method: 'PUT', body: { description } })).status).toBe(200);
    const mcp = await sizedMcpCaller(board.url, board.token);
    try {
      const status = await mcp.call('get_project_status');
      expectFits(status, 'get_project_status');
      expect(status.result.project).toEqual({ key: 'WIDE', name: 'Project WIDE', description, settings: { auto_summary: true } });
      expect(
        status.result.boards
          .flatMap((b: { columns: Array<{ index_truncated?: true }> }) => b.columns)
          .some((column: { index_truncated?: true }) => column.index_truncated),
      ).toBe(true);
      expect(status.result.hint.startsWith('Columns with "index_truncated": true')).toBe(true);
    } finally {
      await mcp.client.close();
    }
  });
});
