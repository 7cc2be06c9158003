import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { MembershipStore, UserStore, openPlatformDatabase } from '@switchboard/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createLabel, withTicketsStore } from '../src/index.ts';
import { connectMcp, mcpCaller, restCaller, useBoard, type Caller } from './helpers.ts';

/** The spec's 19 tools and their required parameters. */
const SPEC_TOOLS: Record<string, { required: string[]; params: string[] }> = {
  get_project_status: { required: [], params: [] },
  get_all_tickets: { required: [], params: ['limit', 'cursor'] },
  list_columns: { required: [], params: [] },
  create_ticket: { required: ['title'], params: ['title', 'description', 'column_name', 'priority', 'ticket_type', 'created_at'] },
  create_sub_ticket: { required: ['parent_ticket_id', 'title'], params: ['parent_ticket_id', 'title', 'description', 'priority', 'column_name', 'created_at'] },
  convert_to_sub_ticket: { required: ['ticket_id', 'epic_id'], params: ['ticket_id', 'epic_id'] },
  get_ticket: { required: ['ticket_id'], params: ['ticket_id'] },
  list_tickets: { required: [], params: ['column_name', 'status', 'priority', 'search', 'limit', 'cursor'] },
  update_ticket: { required: ['ticket_id'], params: ['ticket_id', 'title', 'description', 'priority', 'ticket_type', 'created_at'] },
  move_ticket: { required: ['ticket_id', 'column_name'], params: ['ticket_id', 'column_name'] },
  add_comment: { required: ['ticket_id', 'content'], params: ['ticket_id', 'content'] },
  delete_ticket: { required: ['ticket_id'], params: ['ticket_id'] },
  search: { required: ['query'], params: ['query', 'scope'] },
  list_documents: { required: [], params: ['doc_type', 'limit', 'cursor'] },
  get_document: { required: ['doc_id'], params: ['doc_id'] },
  create_document: { required: ['title'], params: ['title', 'content', 'slug', 'doc_type'] },
  update_document: { required: ['doc_id'], params: ['doc_id', 'title', 'content'] },
  list_labels: { required: [], params: [] },
  list_members: { required: [], params: ['limit', 'cursor'] },
};

/** The same session of all 19 tools, addressed with the project's own key. */
function session(key: string): Array<[string, Record<string, unknown>]> {
  return [
    ['get_project_status', {}],
    ['create_ticket', { title: 'Epic: login', ticket_type: 'epic', description: 'Users log in with email.', labels: ['backend'], assignee: 'dev@example.com' }],
    ['create_sub_ticket', { parent_ticket_id: `${key}-1`, title: 'Login form', column_name: 'to do' }],
    ['create_ticket', { title: 'Session store', priority: 'high' }],
    ['convert_to_sub_ticket', { ticket_id: 3, epic_id: `${key.toLowerCase()}-1` }],
    ['get_ticket', { ticket_id: `${key}-1` }],
    ['list_tickets', { status: 'open', limit: 10 }],
    ['update_ticket', { ticket_id: `${key}-2`, description: 'Form with email and password fields.' }],
    ['move_ticket', { ticket_id: `${key}-2`, column_name: 'In Progress' }],
    ['add_comment', { ticket_id: `${key}-2`, content: 'Started the form in `web/login.tsx` (LoginForm).' }],
    ['create_document', { title: 'README', content: 'The login documentation.', doc_type: 'readme' }],
    ['update_document', { doc_id: 'readme', content: 'Login documentation: email and password.' }],
    ['get_document', { doc_id: 'readme' }],
    ['list_documents', {}],
    ['search', { query: 'login', scope: 'all' }],
    ['list_labels', {}],
    ['list_members', {}],
    ['list_columns', {}],
    ['get_all_tickets', {}],
    ['delete_ticket', { ticket_id: `${key}-3` }],
    ['get_project_status', {}],
  ];
}

/**
 * The Ticket JSON's fields, exactly as design/tickets.md lists them, with `ai_summary_source` (documented beside
 * the AI summary: it says which summary it is). A ticket's `rank` is not one of them: only the board's cards show it.
 */
const TICKET_JSON = [
  'id',
  'key',
  'number',
  'title',
  'description',
  'priority',
  'ticket_type',
  'column',
  'board',
  'parent',
  'sub_tickets',
  'labels',
  'assignee',
  'created_at',
  'updated_at',
  'completed_at',
  'ai_summary',
  'ai_summary_source',
];

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;

/** Removes what differs between two projects: ids, times and the project key. */
function normalize(value: unknown, key: string): unknown {
  if (typeof value === 'string') return value.replace(UUID, '<uuid>').replace(TIMESTAMP, '<time>').replaceAll(key, 'KEY');
  if (Array.isArray(value)) return value.map((item) => normalize(item, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'id' ? '<id>' : normalize(v, key)]));
  }
  return value;
}

describe.each(dialectsUnderTest())('tool contract on %s', (dialect) => {
  const board = useBoard(dialect);
  let client: Client;
  let mcpKey: string;
  let restKey: string;
  let mcp: Caller;
  let rest: Caller;
  beforeAll(async () => {
    mcpKey = 'MCPC';
    restKey = 'RESTC';
    const platform = await openPlatformDatabase(board.env);
    const { user } = await new UserStore(platform.db).create({ email: 'dev@example.com', name: 'Dev', password: 'password-123' });
    // Members of a project are the ones list_members lists and assignee accepts.
    for (const key of [mcpKey, restKey]) await new MembershipStore(platform.db).add('tickets', key, user.id);
    await platform.close();
    const mcpToken = await board.addProject(mcpKey);
    const restToken = await board.addProject(restKey);
    await withTicketsStore(board.env, async (db) => {
      await createLabel(db, mcpKey, 'backend', '#2563eb');
      await createLabel(db, restKey, 'backend', '#2563eb');
    });
    client = await connectMcp(board.url, mcpToken);
    mcp = mcpCaller(client);
    rest = restCaller(board.url, restToken);
  });
  afterAll(() => client.close());

  it('lists exactly the 19 spec tools with their parameters, required ones marked, and a description each', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(SPEC_TOOLS).sort());
    for (const tool of tools) {
      const spec = SPEC_TOOLS[tool.name];
      expect(tool.inputSchema.type).toBe('object');
      expect([...(tool.inputSchema.required ?? [])].sort()).toEqual([...spec.required].sort());
      for (const param of spec.params) expect(Object.keys(tool.inputSchema.properties ?? {})).toContain(param);
      expect(tool.description!.length).toBeGreaterThan(40);
    }
  });

  it('sends the conventions for AI clients as initialize instructions', () => {
    const instructions = client.getInstructions()!;
    for (const phrase of [
      'first call of every session is get_project_status',
      'Feature work is an epic with sub-tickets',
      'Only sub-tickets are moved',
      'column_name',
      'add_comment after any update, move or completed work',
      'A bug report reopens the completed sub-ticket',
      'created_at',
      'index_truncated',
      'next_cursor',
    ]) {
      expect(instructions).toContain(phrase);
    }
    expect(client.getServerVersion()).toEqual({ name: 'switchboard-tickets', version: '1.0.0' });
  });

  it('answers every tool the same over MCP and over REST', async () => {
    const mcpSession = session(mcpKey);
    const restSession = session(restKey);
    const called = new Set<string>();
    for (let i = 0; i < mcpSession.length; i++) {
      const [name, mcpArgs] = mcpSession[i];
      const viaMcp = await mcp(name, mcpArgs);
      const viaRest = await rest(name, restSession[i][1]);
      expect(normalize(viaMcp, mcpKey), `${name} (step ${i + 1})`).toEqual(normalize(viaRest, restKey));
      called.add(name);
    }
    expect([...called].sort()).toEqual(Object.keys(SPEC_TOOLS).sort());
    const status = await mcp('get_project_status');
    expect(status.stats).toEqual({
      total: 2,
      open: 2,
      completed: 0,
      by_column: { 'In Progress': 2 },
      by_type: { epic: 1, task: 1 },
      by_priority: { medium: 2 },
    });
    expect(status.documents).toEqual([
      expect.objectContaining({ slug: 'readme', doc_type: 'readme', content: 'Login documentation: email and password.', content_truncated: false }),
    ]);
    const epic = await mcp('get_ticket', { ticket_id: `${mcpKey}-1` });
    expect(epic.labels).toEqual([{ id: expect.any(String), name: 'backend', color: '#2563eb' }]);
    expect(epic.assignee).toEqual({ id: expect.any(String), name: 'Dev', email: 'dev@example.com' });
    expect(Object.keys(epic)).toEqual([...TICKET_JSON, 'comments', 'activity']);
    expect(await mcp('list_members')).toEqual({
      members: [{ id: expect.any(String), name: 'Dev', email: 'dev@example.com', role: 'member' }],
      next_cursor: null,
    });
  });

  it.each(['mcp', 'rest'] as const)('answers every ticket with exactly the Ticket JSON fields over %s, whatever the tool (no rank)', async (transport) => {
    const token = await board.addProject(transport === 'mcp' ? 'FIELDSM' : 'FIELDSR');
    const fieldsClient = transport === 'mcp' ? await connectMcp(board.url, token) : undefined;
    const call = fieldsClient ? mcpCaller(fieldsClient) : restCaller(board.url, token);
    try {
      const epic = await call('create_ticket', { title: 'Epic', ticket_type: 'epic' });
      const answers = [
        epic,
        await call('create_sub_ticket', { parent_ticket_id: epic.key, title: 'Sub' }),
        await call('create_ticket', { title: 'Loose' }),
        await call('convert_to_sub_ticket', { ticket_id: 3, epic_id: epic.key }),
        await call('update_ticket', { ticket_id: 2, title: 'Sub, renamed' }),
        await call('move_ticket', { ticket_id: 2, column_name: 'To Do' }),
        await call('move_ticket', { ticket_id: 3, column_name: 'To Do', position: { after: 2 } }),
        ...(await call('list_tickets', {})).tickets,
        ...(await call('list_tickets', { order: 'board' })).tickets,
      ];
      expect(answers).toHaveLength(13);
      for (const answer of answers) expect(Object.keys(answer)).toEqual(TICKET_JSON);
      expect(Object.keys(await call('get_ticket', { ticket_id: 3 }))).toEqual([...TICKET_JSON, 'comments', 'activity']);
    } finally {
      await fieldsClient?.close();
    }
  });

  it('refuses an unknown tool with a protocol error naming the valid tools', async () => {
    await expect(client.callTool({ name: 'create_issue', arguments: {} })).rejects.toThrow(
      /Unknown tool "create_issue". Valid tools: get_project_status, get_all_tickets/,
    );
  });

  it('reports bad arguments as an isError result that says how to fix the call', async () => {
    const result = await client.callTool({ name: 'move_ticket', arguments: { ticket_id: 'MCPC-2' } });
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Invalid arguments for move_ticket: column_name is required.' }],
      _meta: {
        'dev.switchboard/error': {
          code: 'invalid_request',
          message: 'Invalid arguments for move_ticket: column_name is required.',
          details: { issues: [{ path: 'column_name', message: 'column_name is required.' }] },
        },
      },
    });
  });
});
