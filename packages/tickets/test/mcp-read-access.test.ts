import { beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { TOOLS, createToken, withTicketsStore } from '../src/index.ts';
import { connectMcp, useBoard } from './helpers.ts';
import { signedInUser, webClient } from './web-helpers.ts';
import { connectV2, modernRequest, postMcp } from './helpers/mcp-wire.ts';

const READ_TOOLS = TOOLS.filter((tool) => tool.annotations.readOnlyHint).map((tool) => tool.name);
const READONLY_PATH = '/api/mcp/v1/mcp/readonly';

// design/mcp.md, "Read-only access": a read token (or …/mcp/readonly) sees and calls only the read tools.
describe.each(dialectsUnderTest())('read-only access on %s', (dialect) => {
  const board = useBoard(dialect);
  let reader: string;
  beforeAll(async () => {
    reader = (await withTicketsStore(board.env, (db) => createToken(db, board.projectKey, 'reader', 'read'))).token;
  });

  it('has the ten read tools, each honestly read-only', () => {
    expect(READ_TOOLS).toEqual([
      'get_project_status',
      'get_all_tickets',
      'list_columns',
      'get_ticket',
      'list_tickets',
      'search',
      'list_documents',
      'get_document',
      'list_labels',
      'list_members',
    ]);
  });

  it('lists only the read tools to a read token, to an SDK 1.x client and a v2 client in both eras', async () => {
    const v1 = await connectMcp(board.url, reader);
    const modern = await connectV2(board, 'pinned', { token: reader });
    const legacy = await connectV2(board, 'legacy', { token: reader });
    try {
      for (const client of [v1, modern, legacy]) {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(READ_TOOLS);
        expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
      }
      expect((await v1.callTool({ name: 'list_columns', arguments: {} })).isError).toBeFalsy();
      expect((await modern.callTool({ name: 'get_project_status', arguments: {} })).isError).toBeFalsy();
    } finally {
      await Promise.all([v1.close(), modern.close(), legacy.close()]);
    }
  });

  it('refuses a read token calling another tool as an unknown tool (-32602), through every client and path', async () => {
    const v1 = await connectMcp(board.url, reader);
    const modern = await connectV2(board, 'pinned', { token: reader });
    try {
      const refused = await v1.callTool({ name: 'create_ticket', arguments: { title: 'Not allowed' } }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(McpError);
      expect(refused).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool "create_ticket"') });
      await expect(modern.callTool({ name: 'delete_ticket', arguments: { ticket_id: 'DEMO-1' } })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await Promise.all([v1.close(), modern.close()]);
    }
    // The plain calls the board answers without the SDK refuse it the same way, in both eras.
    const legacy = await postMcp(
      board,
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'add_comment', arguments: { ticket_id: 'DEMO-1', content: 'x' } } },
      { token: reader },
    );
    const modernPlain = await modernRequest(board, 'tools/call', { name: 'add_comment', arguments: { ticket_id: 'DEMO-1', content: 'x' } }, { token: reader });
    for (const answer of [legacy, modernPlain]) {
      expect(answer.status).toBe(200);
      expect(answer.body.error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^Unknown tool "add_comment". Valid tools: get_project_status, /),
      });
      expect(answer.body.error.message).not.toContain('create_ticket');
    }
  });

  it("answers a read token's REST writes 403 insufficient_scope, and its reads 200", async () => {
    const headers = { authorization: `Bearer ${reader}`, 'content-type': 'application/json' };
    const write = await fetch(`${board.url}/api/mcp/v1/tickets`, { method: 'POST', headers, body: JSON.stringify({ title: 'Not allowed' }) });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toContain('insufficient_scope');
    expect((await write.json()).error).toEqual({
      code: 'insufficient_scope',
      message: 'This token may only read (create_ticket changes the project): use a token made with write access (the default).',
    });
    const project = await fetch(`${board.url}/api/projects/${board.projectKey}/labels`, { method: 'POST', headers, body: JSON.stringify({ name: 'nope' }) });
    expect([project.status, (await project.json()).error.code]).toEqual([403, 'insufficient_scope']);
    const read = await fetch(`${board.url}/api/mcp/v1/status`, { headers });
    expect(read.status).toBe(200);
  });

  it('narrows any token to the read tools on …/mcp/readonly, and never widens one', async () => {
    for (const token of [board.token, reader]) {
      const client = await connectMcp(board.url, token, undefined, READONLY_PATH);
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(READ_TOOLS);
        await expect(client.callTool({ name: 'create_ticket', arguments: { title: 'x' } })).rejects.toMatchObject({ code: -32602 });
        expect((await client.callTool({ name: 'list_labels', arguments: {} })).isError).toBeFalsy();
      } finally {
        await client.close();
      }
    }
    const modern = await modernRequest(board, 'tools/list', {}, { path: READONLY_PATH });
    expect(modern.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(READ_TOOLS);
    const plain = await postMcp(
      board,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_ticket', arguments: { title: 'x' } } },
      { path: READONLY_PATH },
    );
    expect(plain.body.error.code).toBe(-32602);
    // The full endpoint still gives the write token every tool.
    const full = await postMcp(board, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(full.body.result.tools).toHaveLength(19);
  });

  it('creates a read token in Settings → MCP Connection ("access": "read") and lists each token\'s access', async () => {
    const user = await signedInUser(board, `reader-${dialect}@example.com`, { memberOf: [board.projectKey] });
    const web = webClient(board, { cookie: user.cookie });
    const base = `/api/projects/${board.projectKey}/tokens`;
    const bad = await web(base, { method: 'POST', body: { name: 'x', access: 'admin' } });
    expect([bad.status, bad.body.error.message]).toEqual([400, 'Invalid arguments for create_token: Unknown access "admin". Valid values: read, write.']);
    const created = await web(base, { method: 'POST', body: { name: 'dashboard', access: 'read' } });
    expect([created.status, created.body.access]).toEqual([201, 'read']);
    const listed = await web(base);
    expect(listed.body.tokens.map((token: { name: string; access: string }) => [token.name, token.access])).toEqual([
      ['agent', 'write'],
      ['reader', 'read'],
      ['dashboard', 'read'],
    ]);
    const listedTools = await postMcp(board, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token: created.body.token });
    expect(listedTools.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(READ_TOOLS);
  });
});
