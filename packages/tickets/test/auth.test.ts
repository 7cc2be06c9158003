import { describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createToken, listProjectTokens, revokeProjectToken, withTicketsStore } from '../src/index.ts';
import { connectMcp, mcpCaller, refusal, restCaller, useBoard } from './helpers.ts';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe.each(dialectsUnderTest())('tokens on %s', (dialect) => {
  const board = useBoard(dialect);

  it('answers 401 with WWW-Authenticate on REST without a valid token', async () => {
    for (const authorization of [undefined, 'Bearer sbt_unknown', 'Basic abc', 'Bearer']) {
      const response = await fetch(`${board.url}/api/mcp/v1/status`, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer realm="switchboard-tickets", resource_metadata="${board.url}/.well-known/oauth-protected-resource/api/mcp/v1/mcp", scope="tickets:read tickets:write"`,
      );
      const body = await response.json();
      expect(body.error.code).toBe('unauthorized');
    }
    const missing = await fetch(`${board.url}/api/mcp/v1/status`);
    expect(await missing.json()).toEqual({
      error: { code: 'unauthorized', message: 'Missing bearer token: send Authorization: Bearer <token> (a project token starting with sbt_).' },
    });
  });

  it('answers 401 with WWW-Authenticate on the MCP endpoint without a valid token', async () => {
    const response = await fetch(`${board.url}/api/mcp/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(INIT),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer realm="switchboard-tickets", resource_metadata="${board.url}/.well-known/oauth-protected-resource/api/mcp/v1/mcp", scope="tickets:read tickets:write"`,
    );
    const client = new Client({ name: 't', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`${board.url}/api/mcp/v1/mcp`), {
      requestInit: { headers: { Authorization: 'Bearer sbt_nope' } },
    });
    await expect(client.connect(transport)).rejects.toThrow();
  });

  it('checks the token before reading the body, and answers GET on the MCP endpoint with 405', async () => {
    const bad = await fetch(`${board.url}/api/mcp/v1/tickets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' });
    expect(bad.status).toBe(401);
    const get = await fetch(`${board.url}/api/mcp/v1/mcp`, { headers: { authorization: `Bearer ${board.token}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    const parse = await fetch(`${board.url}/api/mcp/v1/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${board.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{oops',
    });
    expect(parse.status).toBe(400);
    expect((await parse.json()).error.code).toBe(-32700);
  });

  it('serves /health without a token', async () => {
    const response = await fetch(`${board.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', service: 'tickets', database: dialect });
  });

  it('revokes a token with immediate effect on REST and MCP, and records last_used_at', async () => {
    const { token_id, token } = await withTicketsStore(board.env, (db) => createToken(db, board.projectKey, 'short-lived'));
    const rest = restCaller(board.url, token);
    const client = await connectMcp(board.url, token);
    const mcp = mcpCaller(client);
    expect((await rest('list_columns')).columns).toHaveLength(5);
    expect((await mcp('list_columns')).columns).toHaveLength(5);
    const listed = await withTicketsStore(board.env, (db) => listProjectTokens(db, board.projectKey));
    expect(listed.tokens.find((t) => t.token_id === token_id)?.last_used_at).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(token);
    expect(await withTicketsStore(board.env, (db) => revokeProjectToken(db, board.projectKey, token_id))).toEqual({ revoked: true });
    expect((await refusal(rest('list_columns'))).status).toBe(401);
    await expect(client.callTool({ name: 'list_columns', arguments: {} })).rejects.toThrow();
    await client.close().catch(() => undefined);
  });

  it('never lets a token reach another project', async () => {
    const otherToken = await board.addProject('OTHER');
    const mine = restCaller(board.url, board.token);
    const theirs = restCaller(board.url, otherToken);
    const secret = await theirs('create_ticket', { title: 'Secret plan zebra' });
    await theirs('create_document', { title: 'Private zebra notes', content: 'zebra' });
    expect((await refusal(mine('get_ticket', { ticket_id: secret.id }))).status).toBe(404);
    expect((await refusal(mine('get_ticket', { ticket_id: 'OTHER-1' }))).status).toBe(404);
    expect((await refusal(mine('move_ticket', { ticket_id: secret.id, column_name: 'Done' }))).status).toBe(404);
    expect((await refusal(mine('delete_ticket', { ticket_id: secret.id }))).status).toBe(404);
    expect((await refusal(mine('get_document', { doc_id: 'private-zebra-notes' }))).status).toBe(404);
    expect(await mine('search', { query: 'zebra' })).toEqual({ results: [] });
    expect((await mine('list_tickets', { search: 'zebra' })).count).toBe(0);
    const mineTicket = await mine('create_ticket', { title: 'Mine' });
    expect((await refusal(mine('convert_to_sub_ticket', { ticket_id: mineTicket.key, epic_id: secret.id }))).status).toBe(404);
    expect((await theirs('get_ticket', { ticket_id: secret.id })).title).toBe('Secret plan zebra');
  });
});
