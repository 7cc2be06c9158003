import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { boardCaller, connectMcp, mcpCaller, refusal, restCaller, useBoard, type Caller } from './helpers.ts';
import { signedInUser, webClient, type SignedIn, type WebAnswer } from './web-helpers.ts';

const DEFAULT_COLUMNS = ['Backlog', 'To Do', 'In Progress', 'Review', 'Done'];
const column = (name: string, position: number, isDone = false, ticketCount = 0) => ({
  id: expect.any(String),
  name,
  position,
  is_done_column: isDone,
  ticket_count: ticketCount,
});

describe.each(dialectsUnderTest())('settings of the web UI API on %s', (dialect) => {
  const board = useBoard(dialect, { key: 'SET' });
  let admin: SignedIn;
  let member: SignedIn;
  let client: Client;
  let mcp: Caller;
  let web: ReturnType<typeof webClient>;
  let settings: { boards: Array<{ columns: Array<{ id: string; name: string }> }> };
  const base = '/api/projects/SET';
  const expectError = (answer: WebAnswer, status: number, code: string, message: string) => {
    expect({ status: answer.status, body: answer.body }).toEqual({
      status,
      body: { error: { code, message, ...(answer.body?.error?.details ? { details: answer.body.error.details } : {}) } },
    });
  };

  beforeAll(async () => {
    admin = await signedInUser(board, 'root@example.com', { admin: true });
    member = await signedInUser(board, 'mia@example.com', { memberOf: ['SET'], name: 'Mia' });
    web = webClient(board, member);
    client = await connectMcp(board.url, board.token);
    mcp = mcpCaller(client);
    settings = (await web(`${base}/settings`)).body;
  });
  afterAll(() => client.close());

  it('answers GET settings with the project and every board with its columns', async () => {
    expect(settings).toEqual({
      project: { key: 'SET', name: 'Project SET', description: '', settings: { auto_summary: true } },
      boards: [{ id: expect.any(String), name: 'Main', columns: DEFAULT_COLUMNS.map((name, i) => column(name, i, name === 'Done')) }],
    });
  });

  it("changes the project's name, description and Auto-Summary, which the tools then report", async () => {
    expectError(await web(`${base}/settings`, { method: 'PUT', body: { name: '   ' } }), 400, 'invalid_request', 'A project name must not be empty.');
    expectError(
      await web(`${base}/settings`, { method: 'PUT', body: { auto_summary: 'yes' } }),
      400,
      'invalid_request',
      'Invalid arguments for update_settings: auto_summary must be a boolean.',
    );
    expectError(
      await web(`${base}/settings`, { method: 'PUT', body: { colour: 'red' } }),
      400,
      'invalid_request',
      'Invalid arguments for update_settings: Unknown parameter "colour". Valid parameters: name, description, auto_summary, settings.',
    );
    const changed = await web(`${base}/settings`, {
      method: 'PUT',
      body: { name: ' Settings demo ', description: 'The board of the settings', auto_summary: false },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.project).toEqual({ key: 'SET', name: 'Settings demo', description: 'The board of the settings', settings: { auto_summary: false } });
    expect((await mcp('get_project_status')).project).toEqual(changed.body.project);
    // The settings object as GET answers it is accepted too.
    const again = await web(`${base}/settings`, { method: 'PUT', body: { settings: { auto_summary: true } } });
    expect(again.body.project.settings).toEqual({ auto_summary: true });
  });

  it('renames a column: get_project_status over MCP reports the new name and move_ticket takes it', async () => {
    const main = settings.boards[0];
    const review = main.columns.find((c) => c.name === 'Review')!;
    expectError(
      await web(`${base}/columns/${review.id}`, { method: 'PUT', body: { name: 'to do' } }),
      409,
      'conflict',
      'A column named "To Do" already exists on this board (names are compared without case). Choose another name.',
    );
    const renamed = await web(`${base}/columns/${review.id}`, { method: 'PUT', body: { name: 'Code review' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ id: review.id, name: 'Code review', position: 3, is_done_column: false, ticket_count: 0 });
    const status = await mcp('get_project_status');
    expect(status.boards[0].columns.map((c: { name: string }) => c.name)).toEqual(['Backlog', 'To Do', 'In Progress', 'Code review', 'Done']);
    const ticket = await mcp('create_ticket', { title: 'Reviewed work' });
    expect((await mcp('move_ticket', { ticket_id: ticket.key, column_name: 'code review' })).column).toBe('Code review');
    const old = await refusal(mcp('move_ticket', { ticket_id: ticket.key, column_name: 'Review' }));
    expect(old.message).toBe(
      'Unknown column "Review". Valid columns: Backlog, To Do, In Progress, Code review, Done. Column names come from get_project_status or list_columns.',
    );
  });

  it('adds and renames boards, refusing a name another board has in any case', async () => {
    const created = await web(`${base}/boards`, { method: 'POST', body: { name: 'Ops' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'Ops', columns: DEFAULT_COLUMNS.map((name, i) => column(name, i, name === 'Done')) });
    const custom = await web(`${base}/boards`, { method: 'POST', body: { name: 'Bugs', columns: ['Reported', 'Fixing', 'Fixed'] } });
    expect(custom.body.columns).toEqual([column('Reported', 0), column('Fixing', 1), column('Fixed', 2, true)]);
    expectError(
      await web(`${base}/boards`, { method: 'POST', body: { name: 'ops' } }),
      409,
      'conflict',
      'A board named "Ops" already exists in this project (names are compared without case). Choose another name.',
    );
    expectError(
      await web(`${base}/boards`, { method: 'POST', body: { name: 'Dup', columns: ['A', 'a'] } }),
      409,
      'conflict',
      'A column named "A" already exists on this board (names are compared without case). Choose another name.',
    );
    expectError(
      await web(`${base}/boards`, { method: 'POST', body: { name: 'Empty', columns: [] } }),
      400,
      'invalid_request',
      'A board needs at least one column; leave columns out for the default ones.',
    );
    const renamed = await web(`${base}/boards/${custom.body.id}`, { method: 'PUT', body: { name: 'Bug triage' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Bug triage');
    expectError(
      await web(`${base}/boards/${custom.body.id}`, { method: 'PUT', body: { name: 'MAIN' } }),
      409,
      'conflict',
      'A board named "Main" already exists in this project (names are compared without case). Choose another name.',
    );
    expectError(
      await web(`${base}/boards/no-such-board`, { method: 'PUT', body: { name: 'X' } }),
      404,
      'not_found',
      'Board "no-such-board" not found in project SET. GET /api/projects/SET/settings lists the boards.',
    );
    const columns = await mcp('list_columns');
    expect(columns.columns.filter((c: { board_name: string }) => c.board_name === 'Bug triage').map((c: { name: string }) => c.name)).toEqual([
      'Reported',
      'Fixing',
      'Fixed',
    ]);
  });

  it('reorders columns by position and moves the done column, giving and taking completed_at', async () => {
    const main = (await web(`${base}/settings`)).body.boards[0];
    const id = (name: string) => main.columns.find((c: { name: string }) => c.name === name).id;
    const added = await web(`${base}/boards/${main.id}/columns`, { method: 'POST', body: { name: 'Shipped' } });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ id: expect.any(String), name: 'Shipped', position: 5, is_done_column: false, ticket_count: 0 });
    const moved = await web(`${base}/columns/${added.body.id}`, { method: 'PUT', body: { position: 1 } });
    expect(moved.body.position).toBe(1);
    const order = async () =>
      (await web(`${base}/settings`)).body.boards[0].columns.map((c: { name: string; position: number; is_done_column: boolean }) => [
        c.position,
        c.name,
        c.is_done_column,
      ]);
    expect(await order()).toEqual([
      [0, 'Backlog', false],
      [1, 'Shipped', false],
      [2, 'To Do', false],
      [3, 'In Progress', false],
      [4, 'Code review', false],
      [5, 'Done', true],
    ]);
    await web(`${base}/columns/${added.body.id}`, { method: 'PUT', body: { position: 99 } });
    expect((await order()).map((entry: unknown[]) => entry[1])).toEqual(['Backlog', 'To Do', 'In Progress', 'Code review', 'Done', 'Shipped']);

    const done = await mcp('create_ticket', { title: 'Already done', column_name: 'Done' });
    const shipped = await mcp('create_ticket', { title: 'Out the door', column_name: 'Shipped' });
    expect(done.completed_at).not.toBeNull();
    expect(shipped.completed_at).toBeNull();
    expectError(
      await web(`${base}/columns/${id('Done')}`, { method: 'PUT', body: { is_done_column: false } }),
      409,
      'conflict',
      '"Done" is the board\'s done column and every board has exactly one: make another column the done column instead (is_done_column: true on it).',
    );
    const chosen = await web(`${base}/columns/${added.body.id}`, { method: 'PUT', body: { is_done_column: true } });
    expect(chosen.body).toEqual({ id: added.body.id, name: 'Shipped', position: 5, is_done_column: true, ticket_count: 1 });
    expect((await order()).filter((entry: unknown[]) => entry[2]).map((entry: unknown[]) => entry[1])).toEqual(['Shipped']);
    expect((await mcp('get_ticket', { ticket_id: done.key })).completed_at).toBeNull();
    expect((await mcp('get_ticket', { ticket_id: shipped.key })).completed_at).not.toBeNull();
    expect((await mcp('list_tickets', { status: 'completed' })).tickets.map((t: { key: string }) => t.key)).toEqual([shipped.key]);
    // The tools' epic rule follows the new done column.
    const epic = await mcp('create_ticket', { title: 'Release', ticket_type: 'epic' });
    const part = await mcp('create_sub_ticket', { parent_ticket_id: epic.key, title: 'Ship it' });
    await mcp('move_ticket', { ticket_id: part.key, column_name: 'Shipped' });
    expect((await mcp('get_ticket', { ticket_id: epic.key })).column).toBe('Shipped');
    await mcp('move_ticket', { ticket_id: done.key, column_name: 'Backlog' });
  });

  it('deletes only an empty column that is neither the last nor the done column', async () => {
    const main = (await web(`${base}/settings`)).body.boards[0];
    const byName = (name: string) => main.columns.find((c: { name: string }) => c.name === name);
    const holding = byName('Code review');
    expectError(
      await web(`${base}/columns/${holding.id}`, { method: 'DELETE' }),
      409,
      'conflict',
      'Column "Code review" still holds 1 ticket(s): move them to another column first.',
    );
    expectError(
      await web(`${base}/columns/${byName('Shipped').id}`, { method: 'DELETE' }),
      409,
      'conflict',
      'Column "Shipped" still holds 3 ticket(s): move them to another column first.',
    );
    const single = await web(`${base}/boards`, { method: 'POST', body: { name: 'Single', columns: ['Only'] } });
    expectError(
      await web(`${base}/columns/${single.body.columns[0].id}`, { method: 'DELETE' }),
      409,
      'conflict',
      '"Only" is the board\'s last column; a board needs at least one.',
    );
    const pair = await web(`${base}/boards`, { method: 'POST', body: { name: 'Pair', columns: ['Open', 'Closed'] } });
    expectError(
      await web(`${base}/columns/${pair.body.columns[1].id}`, { method: 'DELETE' }),
      409,
      'conflict',
      '"Closed" is the board\'s done column: make another column the done column first.',
    );
    const removed = await web(`${base}/columns/${byName('Done').id}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ deleted: true, id: byName('Done').id });
    expect((await web(`${base}/settings`)).body.boards[0].columns.map((c: { name: string; position: number }) => [c.position, c.name])).toEqual([
      [0, 'Backlog'],
      [1, 'To Do'],
      [2, 'In Progress'],
      [3, 'Code review'],
      [4, 'Shipped'],
    ]);
    expectError(
      await web(`${base}/columns/${byName('Done').id}`, { method: 'DELETE' }),
      404,
      'not_found',
      `Column "${byName('Done').id}" not found in project SET. GET /api/projects/SET/settings lists the columns.`,
    );
  });

  it('creates, edits and deletes labels; a deleted label leaves its tickets', async () => {
    const created = await web(`${base}/labels`, { method: 'POST', body: { name: 'backend', color: '#2563EB' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'backend', color: '#2563eb' });
    expect((await web(`${base}/labels`, { method: 'POST', body: { name: 'plain' } })).body.color).toBe('#6b7280');
    expectError(
      await web(`${base}/labels`, { method: 'POST', body: { name: 'Backend', color: '#000' } }),
      409,
      'conflict',
      'A label named "backend" already exists in this project (names are compared without case). Choose another name.',
    );
    expectError(
      await web(`${base}/labels`, { method: 'POST', body: { name: 'red', color: 'crimson' } }),
      400,
      'invalid_request',
      'Color "crimson" is invalid: use #rgb or #rrggbb, e.g. #e11d48.',
    );
    const ticket = await mcp('create_ticket', { title: 'Labelled', labels: ['backend'] });
    const edited = await web(`${base}/labels/${created.body.id}`, { method: 'PUT', body: { name: 'server', color: '#e11d48' } });
    expect(edited.body).toEqual({ id: created.body.id, name: 'server', color: '#e11d48' });
    expect((await mcp('get_ticket', { ticket_id: ticket.key })).labels).toEqual([{ id: created.body.id, name: 'server', color: '#e11d48' }]);
    const removed = await web(`${base}/labels/${created.body.id}`, { method: 'DELETE' });
    expect(removed.body).toEqual({ deleted: true, id: created.body.id });
    expect((await mcp('get_ticket', { ticket_id: ticket.key })).labels).toEqual([]);
    expect((await mcp('list_labels')).labels.map((l: { name: string }) => l.name)).toEqual(['plain']);
    expectError(
      await web(`${base}/labels/${created.body.id}`, { method: 'DELETE' }),
      404,
      'not_found',
      `Label "${created.body.id}" not found in project SET. list_labels shows the labels.`,
    );
  });

  it('lets only an admin add and remove members; list_members lists members plus admins', async () => {
    const newcomer = await signedInUser(board, 'nina@example.com', { name: 'Nina' });
    expect((await webClient(board, newcomer)(`${base}/status`)).status).toBe(404);
    expectError(
      await web(`${base}/members`, { method: 'POST', body: { email: 'nina@example.com' } }),
      403,
      'forbidden',
      'Only an admin can add or remove members',
    );
    expectError(
      await webClient(board, { token: board.token })(`${base}/members`, { method: 'POST', body: { email: 'nina@example.com' } }),
      403,
      'forbidden',
      'Managing tokens and members needs a signed-in user: use Settings in the web UI, or the CLI.',
    );
    const asAdmin = webClient(board, admin);
    expect(await asAdmin(`${base}/members`, { method: 'POST', body: { email: 'ghost@example.com' } })).toMatchObject({
      status: 422,
      body: {
        error: {
          code: 'validation_failed',
          message: 'No user has the email ghost@example.com: invite them first (or create them with switchboard user create)',
          details: {
            issues: [{ path: 'email', message: 'No user has the email ghost@example.com: invite them first (or create them with switchboard user create)' }],
          },
        },
      },
    });
    const added = await asAdmin(`${base}/members`, { method: 'POST', body: { email: 'Nina@Example.com' } });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ email: 'nina@example.com', added: true });
    expect((await asAdmin(`${base}/members`, { method: 'POST', body: { email: 'nina@example.com' } })).body).toEqual({
      email: 'nina@example.com',
      added: true,
    });
    expect((await webClient(board, newcomer)(`${base}/status`)).status).toBe(200);
    const members = await mcp('list_members');
    expect(members).toEqual({
      members: [
        { id: expect.any(String), name: 'Mia', email: 'mia@example.com', role: 'member' },
        { id: newcomer.id, name: 'Nina', email: 'nina@example.com', role: 'member' },
        { id: admin.id, name: 'root', email: 'root@example.com', role: 'admin' },
      ],
      next_cursor: null,
    });
    expect((await web(`${base}/members`)).body).toEqual(members);
    // Paged by email like list_documents: limit, then next_cursor until null.
    const first = await mcp('list_members', { limit: 2 });
    expect(first.members).toEqual(members.members.slice(0, 2));
    expect(await mcp('list_members', { limit: 2, cursor: first.next_cursor })).toEqual({ members: members.members.slice(2), next_cursor: null });
    // assignee takes exactly the project's people.
    expect((await mcp('create_ticket', { title: 'For Nina', assignee: 'nina@example.com' })).assignee).toEqual({
      id: newcomer.id,
      name: 'Nina',
      email: 'nina@example.com',
    });
    const outsider = await signedInUser(board, 'otto@example.com');
    expect((await refusal(mcp('create_ticket', { title: 'For Otto', assignee: outsider.email }))).message).toBe(
      'Unknown assignee "otto@example.com". Valid values: mia@example.com, nina@example.com, root@example.com.',
    );
    expectError(await web(`${base}/members/${newcomer.id}`, { method: 'DELETE' }), 403, 'forbidden', 'Only an admin can add or remove members');
    expect((await asAdmin(`${base}/members/${newcomer.id}`, { method: 'DELETE' })).body).toEqual({ removed: true });
    expect((await webClient(board, newcomer)(`${base}/status`)).status).toBe(404);
    expectError(
      await asAdmin(`${base}/members/${newcomer.id}`, { method: 'DELETE' }),
      404,
      'not_found',
      `User "${newcomer.id}" is not a member of project SET. GET /api/projects/SET/members lists them.`,
    );
  });

  it('creates a token shown once, lists tokens without secrets, and revokes one: its next MCP and REST calls are refused', async () => {
    expectError(
      await webClient(board, { token: board.token })(`${base}/tokens`),
      403,
      'forbidden',
      'Managing tokens and members needs a signed-in user: use Settings in the web UI, or the CLI.',
    );
    expectError(await web(`${base}/tokens`, { method: 'POST', body: { name: ' ' } }), 400, 'invalid_request', 'A token name must not be empty.');
    const created = await web(`${base}/tokens`, { method: 'POST', body: { name: 'claude-code' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      token_id: expect.any(String),
      token: expect.stringMatching(/^sbt_[A-Za-z0-9_-]{43}$/),
      name: 'claude-code',
      access: 'write',
      created_at: expect.any(String),
      mcp_url: `${board.url}/api/mcp/v1/mcp`,
    });
    const { token, token_id } = created.body;
    const agent = mcpCaller(await connectMcp(board.url, token));
    const made = await agent('create_ticket', { title: 'By the new token' });
    const listed = await web(`${base}/tokens`);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(token);
    expect(listed.body.tokens.map((t: { name: string }) => t.name)).toEqual(['agent', 'claude-code']);
    expect(listed.body.tokens[1]).toEqual({
      id: token_id,
      name: 'claude-code',
      access: 'write',
      created_at: created.body.created_at,
      last_used_at: expect.any(String),
      revoked_at: null,
    });
    expect((await mcp('get_ticket', { ticket_id: made.key })).activity[0].actor).toBe('token:claude-code');

    expect((await web(`${base}/tokens/${token_id}`, { method: 'DELETE' })).body).toEqual({ revoked: true });
    expect((await refusal(restCaller(board.url, token)('list_labels'))).status).toBe(401);
    await expect(agent('list_labels')).rejects.toThrow();
    expect((await web(`${base}/tokens`)).body.tokens[1].revoked_at).toEqual(expect.any(String));
    expectError(
      await web(`${base}/tokens/${token_id}`, { method: 'DELETE' }),
      404,
      'not_found',
      `No live token "${token_id}" in project SET: it does not exist or was already revoked.`,
    );
    // The project's own token still works.
    expect((await boardCaller(board)('list_labels')).labels).toBeDefined();
  });

  it('records each settings change as a project event by its user', async () => {
    const events = await fetch(`${board.url}${base}/events?since=0`, { headers: { authorization: `Bearer ${board.token}` } });
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('"action":"token_revoked"')) text += (await reader.read()).value;
    await reader.cancel();
    const projectEvents = [...text.matchAll(/data: (\{"seq".*\})/g)].map((m) => JSON.parse(m[1])).filter((e) => e.kind === 'project');
    expect(projectEvents.map((e) => [e.action, e.actor])).toEqual([
      ['settings_updated', 'user:mia@example.com'],
      ['settings_updated', 'user:mia@example.com'],
      ['column_updated', 'user:mia@example.com'],
      ['board_created', 'user:mia@example.com'],
      ['board_created', 'user:mia@example.com'],
      ['board_updated', 'user:mia@example.com'],
      ['column_created', 'user:mia@example.com'],
      ['column_updated', 'user:mia@example.com'],
      ['column_updated', 'user:mia@example.com'],
      ['column_updated', 'user:mia@example.com'],
      ['board_created', 'user:mia@example.com'],
      ['board_created', 'user:mia@example.com'],
      ['column_deleted', 'user:mia@example.com'],
      ['label_created', 'user:mia@example.com'],
      ['label_created', 'user:mia@example.com'],
      ['label_updated', 'user:mia@example.com'],
      ['label_deleted', 'user:mia@example.com'],
      ['member_added', 'user:root@example.com'],
      ['member_added', 'user:root@example.com'],
      ['member_removed', 'user:root@example.com'],
      ['token_created', 'user:mia@example.com'],
      ['token_revoked', 'user:mia@example.com'],
    ]);
  });
});
