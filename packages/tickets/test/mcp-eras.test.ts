import { describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { MCP_INSTRUCTIONS, TOOLS } from '../src/index.ts';
import { connectMcp, useBoard } from './helpers.ts';
import { MODERN, connectV2, envelope, modernRequest, postMcp } from './helpers/mcp-wire.ts';

// design/mcp.md, "Protocol revisions: dual-era": 2026-07-28 beside the legacy handshake on the same stateless endpoint.
describe.each(dialectsUnderTest())('the MCP endpoint in both protocol eras on %s', (dialect) => {
  const board = useBoard(dialect);

  it('serves a v2 client pinned to 2026-07-28 (server/discover, then tools with titles and output schemas)', async () => {
    const client = await connectV2(board, 'pinned');
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect(client.getServerVersion()).toMatchObject({ name: 'switchboard-tickets' });
      expect(client.getInstructions()).toBe(MCP_INSTRUCTIONS);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
      for (const tool of tools) {
        expect(tool.title, tool.name).toMatch(/^[A-Z][a-z]/);
        expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
        expect(Object.keys(tool.annotations ?? {}).sort(), tool.name).toEqual(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title']);
      }
      const status = await client.callTool({ name: 'get_project_status', arguments: {} });
      expect((status.structuredContent as { project: { key: string } }).project.key).toBe('DEMO');
      const missing = await client.callTool({ name: 'get_ticket', arguments: { ticket_id: 'DEMO-404' } });
      expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('DEMO-404') }] });
      expect(missing.structuredContent).toBeUndefined();
      expect(missing._meta?.['dev.switchboard/error']).toMatchObject({ code: 'not_found' });
    } finally {
      await client.close();
    }
  });

  it.each([
    ['auto', MODERN],
    ['legacy', '2025-11-25'],
  ] as const)('serves a v2 client negotiating %s in the era it picks (%s)', async (mode, version) => {
    const client = await connectV2(board, mode);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      const created = await client.callTool({ name: 'create_ticket', arguments: { title: `From a v2 client (${mode})` } });
      expect(created.isError).toBeFalsy();
      expect((created.structuredContent as { title: string }).title).toBe(`From a v2 client (${mode})`);
    } finally {
      await client.close();
    }
  });

  it('serves an SDK 1.x client, whose failed calls come back as isError with their message (not a thrown schema mismatch)', async () => {
    const client = await connectMcp(board.url, board.token);
    try {
      const missing = await client.callTool({ name: 'get_ticket', arguments: { ticket_id: 'DEMO-404' } });
      const message = 'Ticket DEMO-404 not found in project DEMO. Use list_tickets or search to find the right key.';
      expect(missing).toEqual({
        isError: true,
        content: [{ type: 'text', text: message }],
        _meta: { 'dev.switchboard/error': { code: 'not_found', message } },
      });
      const refused = await client.callTool({ name: 'move_ticket', arguments: { ticket_id: 'DEMO-1', column_name: 'Nowhere' } });
      expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('Nowhere') }] });
    } finally {
      await client.close();
    }
  });

  it.each(['2025-11-25', '2025-06-18', '2025-03-26'])('answers initialize with revision %s as asked', async (version) => {
    const answer = await postMcp(board, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ protocolVersion: version, serverInfo: { name: 'switchboard-tickets' }, capabilities: { tools: {} } });
    // Then a request in that revision, without a session.
    const listed = await postMcp(board, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { headers: { 'mcp-protocol-version': version } });
    expect(listed.body.result.tools).toHaveLength(19);
    expect(listed.body.result.resultType).toBeUndefined();
  });

  it('answers initialize with an older revision with its newest legacy one', async () => {
    const answer = await postMcp(board, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(answer.body.result.protocolVersion).toBe('2025-11-25');
  });

  it('answers server/discover with the revisions, capabilities, instructions and server, cacheable for a minute', async () => {
    const answer = await modernRequest(board, 'server/discover');
    expect(answer.status).toBe(200);
    expect(answer.body.result).toEqual({
      supportedVersions: [MODERN],
      capabilities: { tools: { listChanged: false } },
      instructions: MCP_INSTRUCTIONS,
      resultType: 'complete',
      ttlMs: 60_000,
      cacheScope: 'private',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'switchboard-tickets', version: '1.0.0' } },
    });
  });

  it('answers tools/list in 2026-07-28 with resultType and its cache hints', async () => {
    const answer = await modernRequest(board, 'tools/list');
    expect(answer.body.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'private' });
    expect(answer.body.result.tools).toHaveLength(19);
  });

  it('refuses a revision it does not implement with -32022 naming the supported and the requested ones', async () => {
    const answer = await postMcp(
      board,
      { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: envelope('2027-01-01') } },
      { headers: { 'mcp-protocol-version': '2027-01-01', 'mcp-method': 'tools/list' } },
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32022, data: { supported: [MODERN], requested: '2027-01-01' } } });
  });

  const call = { name: 'get_project_status', arguments: {}, _meta: envelope() };
  it.each([
    ['Mcp-Method names another method', { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list', 'mcp-name': 'get_project_status' }],
    ['Mcp-Name names another tool', { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'delete_ticket' }],
    ['MCP-Protocol-Version names another revision', { 'mcp-protocol-version': '2025-06-18', 'mcp-method': 'tools/call', 'mcp-name': 'get_project_status' }],
    ['Mcp-Method is missing', { 'mcp-protocol-version': MODERN, 'mcp-name': 'get_project_status' }],
    ['Mcp-Name is missing', { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' }],
  ])('refuses a header that disagrees with the body with HTTP 400 and -32020: %s', async (_label, headers) => {
    const answer = await postMcp(board, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: call }, { headers });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32020 } });
  });

  it.each(['GET', 'DELETE'])('answers %s with 405 (no streams, no sessions) on both endpoints', async (method) => {
    for (const path of ['/api/mcp/v1/mcp', '/api/mcp/v1/mcp/readonly']) {
      const response = await fetch(`${board.url}${path}`, { method, headers: { authorization: `Bearer ${board.token}`, accept: 'text/event-stream' } });
      expect([response.status, response.headers.get('allow')]).toEqual([405, 'POST']);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    }
  });
});
