import { describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { useBoard, type Board } from './helpers.ts';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

/** An initialize POSTed through the app with the given Origin and Host (fetch cannot set Host). */
async function initialize(board: Board, headers: { origin?: string; host?: string }, token: string | undefined = board.token) {
  const response = await board.app.inject({
    method: 'POST',
    url: '/api/mcp/v1/mcp',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      host: headers.host ?? board.url.slice('http://'.length),
      ...(headers.origin === undefined ? {} : { origin: headers.origin }),
    },
    payload: INITIALIZE,
  });
  return { status: response.statusCode, body: response.json() };
}

// design/mcp.md: a foreign Origin is refused with 403 (the transport pages' MUST); on a loopback address a Host
// other than the machine's own names (DNS rebinding) is refused too.
describe.each(dialectsUnderTest())("the MCP endpoint's Origin and Host checks on %s", (dialect) => {
  describe('with PUBLIC_BASE_URL and MCP_ALLOWED_ORIGINS', () => {
    const board = useBoard(dialect, { env: { PUBLIC_BASE_URL: 'https://board.example/', MCP_ALLOWED_ORIGINS: 'https://app.example, http://localhost:5173' } });

    it('refuses a page of another site with 403 before looking at the token', async () => {
      const refused = await initialize(board, { origin: 'https://evil.example' });
      expect(refused).toEqual({
        status: 403,
        body: {
          jsonrpc: '2.0',
          error: {
            code: -32000,
            message:
              'Forbidden: Origin "https://evil.example" may not call this MCP server (allowed: this service\'s own origin, PUBLIC_BASE_URL\'s and MCP_ALLOWED_ORIGINS).',
          },
          id: null,
        },
      });
      expect((await initialize(board, { origin: 'https://evil.example' }, undefined)).status).toBe(403);
      expect((await initialize(board, { origin: 'https://evil.example' }, 'sbt_not-a-token')).status).toBe(403);
    });

    it.each([
      ['no Origin (a client that is not a browser)', undefined],
      ["the service's own origin", 'own'],
      ["PUBLIC_BASE_URL's origin", 'https://board.example'],
      ['an origin of MCP_ALLOWED_ORIGINS', 'https://app.example'],
      ['another origin of MCP_ALLOWED_ORIGINS', 'http://localhost:5173'],
    ])('serves %s', async (_label, origin) => {
      const answer = await initialize(board, { origin: origin === 'own' ? board.url : origin });
      expect(answer.status).toBe(200);
      expect(answer.body.result.serverInfo.name).toBe('switchboard-tickets');
    });

    it.each([
      ['another port of an allowed origin', 'https://app.example:8443'],
      ['another scheme of PUBLIC_BASE_URL', 'http://board.example'],
      ['an opaque origin', 'null'],
      ['something that is not an origin', 'not a url'],
    ])('refuses %s', async (_label, origin) => {
      expect((await initialize(board, { origin })).status).toBe(403);
    });

    it.each(['localhost:8103', '127.0.0.1', '[::1]:9000', 'board.example'])('serves Host %s on a loopback address', async (host) => {
      expect((await initialize(board, { host })).status).toBe(200);
    });

    it.each(['evil.example.com', 'evil.example.com:8103', '10.0.0.5:8103'])('refuses Host %s on a loopback address (DNS rebinding)', async (host) => {
      const refused = await initialize(board, { host, origin: `http://${host}` });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(/^Forbidden: Host ".*" is not this server's name/);
    });

    it("leaves REST and the web UI's API to their own checks", async () => {
      const response = await board.app.inject({
        method: 'GET',
        url: '/api/mcp/v1/status',
        headers: { authorization: `Bearer ${board.token}`, origin: 'https://evil.example' },
      });
      expect(response.statusCode).toBe(200);
    });
  });

  describe('listening on every interface (HOST=0.0.0.0)', () => {
    const board = useBoard(dialect, { env: { HOST: '0.0.0.0' } });

    it('serves any Host name, and still refuses a foreign Origin', async () => {
      expect((await initialize(board, { host: 'tickets.internal:8103' })).status).toBe(200);
      expect((await initialize(board, { host: 'tickets.internal:8103', origin: 'https://evil.example' })).status).toBe(403);
      expect((await initialize(board, { host: 'tickets.internal:8103', origin: 'http://tickets.internal:8103' })).status).toBe(200);
    });
  });
});
