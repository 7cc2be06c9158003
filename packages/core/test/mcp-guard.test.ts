import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpGuard } from '../src/mcp/index.ts';

// A server configured for 127.0.0.1 but listening on 127.0.0.2 (as a test or a second loopback address does).
describe('the MCP Host check (DNS rebinding) on a loopback address', () => {
  const app = Fastify();
  const guard = createMcpGuard({ publicBaseUrl: undefined, allowedOrigins: [], listenHost: '127.0.0.1' });
  app.post('/mcp', async (request) => ({ refusal: guard(request) ?? null }));
  let port = 0;
  beforeAll(async () => {
    await app.listen({ host: '127.0.0.2', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());
  it('serves a request whose Host is the address it came in on (127.0.0.2:PORT)', async () => {
    const response = await fetch(`http://127.0.0.2:${port}/mcp`, { method: 'POST' });
    expect(await response.json()).toEqual({ refusal: null });
  });

  it.each(['localhost:8103', '127.0.0.1'])('serves Host %s', async (host) => {
    expect((await app.inject({ method: 'POST', url: '/mcp', headers: { host } })).json().refusal).toBeNull();
  });

  it.each(['127.0.0.3:8103', 'evil.example:8103'])('refuses Host %s', async (host) => {
    expect((await app.inject({ method: 'POST', url: '/mcp', headers: { host } })).json().refusal).toBe(
      `Forbidden: Host ${JSON.stringify(host)} is not this server's name (a server on a loopback address answers localhost, 127.0.0.1, [::1], its own address or PUBLIC_BASE_URL's host).`,
    );
  });
});
