import { beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { boardCaller, useBoard } from './helpers.ts';

const MODERN = '2026-07-28';
/** The per-request envelope a 2026-07-28 client sends in every request's `_meta`. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'direct-call-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

// A plain tools/call (Content-Type exactly application/json) is answered without the SDK; the same call with
// `; charset=utf-8` goes through the SDK. Both must answer the same bytes, in both protocol eras.
describe.each(dialectsUnderTest())('MCP tools/call answered directly on %s', (dialect) => {
  const board = useBoard(dialect);
  beforeAll(async () => {
    const rest = boardCaller(board);
    await rest('create_ticket', { title: 'Checkout epic', ticket_type: 'epic', description: 'Quotes "and" \\ back\u2028slashes ✓ 😀' });
    await rest('create_sub_ticket', { parent_ticket_id: 'DEMO-1', title: 'Pay button' });
    await rest('add_comment', { ticket_id: 'DEMO-2', content: 'Started.' });
  });

  async function post(era: 'legacy' | 'modern', contentType: string, message: { params?: { name?: string; arguments?: unknown } } & Record<string, unknown>) {
    const headers: Record<string, string> = {
      authorization: `Bearer ${board.token}`,
      'content-type': contentType,
      accept: 'application/json, text/event-stream',
    };
    let body: Record<string, unknown> = message;
    if (era === 'legacy') headers['mcp-protocol-version'] = '2025-06-18';
    else {
      Object.assign(headers, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': message.params?.name ?? '' });
      body = { ...message, params: { ...message.params, _meta: ENVELOPE } };
    }
    const response = await fetch(`${board.url}/api/mcp/v1/mcp`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
  }

  const calls: Array<[string, unknown, Record<string, unknown> | undefined]> = [
    ['get_ticket (epic with a sub-ticket)', 1, { ticket_id: 'DEMO-1' }],
    ['get_ticket (sub-ticket with a comment), string id', 'req-7', { ticket_id: 'demo-2' }],
    ['get_ticket of a missing ticket (isError with the error in _meta)', 3, { ticket_id: 'DEMO-99' }],
    ['create_ticket with a bad parameter (isError with details)', 4, { title: 'x', colour: 'red' }],
    ['get_project_status without arguments', 5, undefined],
  ];
  describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
    it.each(calls)('%s: same status, type and bytes as through the SDK', async (label, id, args) => {
      const name = label.split(' ')[0];
      const message = { jsonrpc: '2.0', id, method: 'tools/call', params: args === undefined ? { name } : { name, arguments: args } };
      const direct = await post(era, 'application/json', message);
      const viaSdk = await post(era, 'application/json; charset=utf-8', message);
      expect(direct.status).toBe(200);
      expect(direct).toEqual(viaSdk);
      const parsed = JSON.parse(direct.body);
      expect(parsed.id).toBe(id);
      const { content, structuredContent, isError, _meta, resultType } = parsed.result;
      expect(resultType).toBe(era === 'modern' ? 'complete' : undefined);
      if (isError) {
        expect(structuredContent).toBeUndefined();
        expect(_meta['dev.switchboard/error'].message).toBe(content[0].text);
      } else expect(JSON.parse(content[0].text)).toEqual(structuredContent);
    });

    it('leaves unknown tools and unexpected fields to the SDK (JSON-RPC errors as before)', async () => {
      const unknown = await post(era, 'application/json', { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'nope' } });
      expect(unknown.status).toBe(200);
      expect(JSON.parse(unknown.body).error.code).toBe(-32602);
      const extra = await post(era, 'application/json', {
        jsonrpc: '2.0',
        id: 10,
        method: 'tools/call',
        params: { name: 'get_ticket', arguments: { ticket_id: 'DEMO-1' } },
        extra: 1,
      });
      expect(extra.status).toBe(400);
      expect(JSON.parse(extra.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    });
  });
});
