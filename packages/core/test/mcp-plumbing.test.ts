import { Server } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  SERVED_PROTOCOL_VERSIONS,
  createHttpServer,
  createLogger,
  envOrigins,
  listen,
  isLoopbackHost,
  mcpRequestRefusal,
  plainToolCall,
  registerMcpEndpoint,
  toolCallResponseBody,
  toolFailure,
  toolResult,
  type App,
} from '../src/index.ts';

const SERVER_INFO = { name: 'plumbing-test', version: '0.0.1' };
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A service's MCP endpoint as the flows service will mount one: its caller, one tool, the fast path. */
function buildApp(): App {
  const app = createHttpServer({ logger: createLogger({ service: 'flows', level: 'silent' }), bodyLimit: 65_536 });
  registerMcpEndpoint<{ who: string }>(app, {
    paths: ['/mcp'],
    guard: { publicBaseUrl: undefined, allowedOrigins: [], listenHost: '127.0.0.1' },
    callerOf: (request) => ({ who: String(request.headers['x-who'] ?? 'nobody') }),
    serverFor(caller) {
      const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, supportedProtocolVersions: [...SERVED_PROTOCOL_VERSIONS] });
      server.setRequestHandler('tools/list', async () => ({ tools: [{ name: 'whoami', title: 'Who am I', inputSchema: { type: 'object' } }] }));
      server.setRequestHandler('tools/call', async () => toolResult({ who: caller.who }));
      return server;
    },
    fastPath: async (_request, caller, call) => toolCallResponseBody(call, toolResult({ who: caller.who }), SERVER_INFO),
  });
  return app;
}

async function post(app: App, body: unknown, headers: Record<string, string> = {}) {
  const response = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { host: '127.0.0.1:8102', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-who': 'ada', ...headers },
    payload: JSON.stringify(body),
  });
  return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : undefined, raw: response.body };
}

describe('core MCP plumbing (registerMcpEndpoint)', () => {
  let app: App;
  beforeAll(() => {
    app = buildApp();
  });
  afterAll(() => app.close());

  it('serves the legacy handshake and a 2025 request, with the caller reaching the tools', async () => {
    const init = await post(app, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(init.body.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: SERVER_INFO });
    const called = await post(
      app,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami' } },
      { 'content-type': 'application/json; charset=utf-8', 'mcp-protocol-version': '2025-06-18' },
    );
    expect(called.body.result.structuredContent).toEqual({ who: 'ada' });
  });

  it('serves 2026-07-28: server/discover and tools/call with the envelope, and the fast path answers the same bytes', async () => {
    const headers = { 'mcp-protocol-version': '2026-07-28' };
    const discover = await post(
      app,
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ENVELOPE } },
      { ...headers, 'mcp-method': 'server/discover' },
    );
    expect(discover.body.result).toMatchObject({ supportedVersions: ['2026-07-28'], resultType: 'complete' });
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'whoami', arguments: {}, _meta: ENVELOPE } };
    const callHeaders = { ...headers, 'mcp-method': 'tools/call', 'mcp-name': 'whoami' };
    const viaSdk = await post(app, call, { ...callHeaders, 'content-type': 'application/json; charset=utf-8' });
    const direct = await post(app, call, callHeaders);
    expect(viaSdk.body.result).toMatchObject({ structuredContent: { who: 'ada' }, resultType: 'complete' });
    expect(direct.raw).toBe(viaSdk.raw);
  });

  it('answers GET and DELETE 405, and refuses a foreign Origin or Host with 403', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await app.inject({ method, url: '/mcp', headers: { host: 'localhost' } });
      expect([response.statusCode, response.headers.allow]).toEqual([405, 'POST']);
    }
    expect((await post(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { host: 'evil.example' })).status).toBe(403);
    expect((await post(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'http://127.0.0.1:8102' })).status).toBe(200);
  });
});

/** An endpoint with progress streams: `count` reports 1..3 then answers; `wait` reports once, then waits for its client to go. */
function buildProgressApp(released: { resolve: (reason: unknown) => void }): App {
  const app = createHttpServer({ logger: createLogger({ service: 'flows', level: 'silent' }), bodyLimit: 65_536 });
  registerMcpEndpoint<null>(app, {
    paths: ['/mcp'],
    guard: { publicBaseUrl: undefined, allowedOrigins: [], listenHost: '127.0.0.1' },
    callerOf: () => null,
    progressStreams: true,
    serverFor() {
      const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, supportedProtocolVersions: [...SERVED_PROTOCOL_VERSIONS] });
      server.setRequestHandler('tools/call', async (request, ctx) => {
        const token = ctx.mcpReq._meta?.progressToken;
        if (token === undefined) return toolResult({ progress: 'none' });
        const notify = (progress: number) => ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress } });
        if (request.params.name === 'count') {
          for (const progress of [1, 2, 3]) await notify(progress);
          return toolResult({ counted: 3 });
        }
        await notify(1);
        await new Promise((resolve) => ctx.mcpReq.signal.addEventListener('abort', resolve, { once: true }));
        released.resolve(ctx.mcpReq.signal.reason);
        return toolResult({ never: 'sent' });
      });
      return server;
    },
  });
  return app;
}

describe('core MCP plumbing, progress streams for 2025-era tools/call', () => {
  let resolveReleased: (reason: unknown) => void = () => undefined;
  const released = { promise: new Promise<unknown>((resolve) => (resolveReleased = resolve)), resolve: (reason: unknown) => resolveReleased(reason) };
  let app: App;
  let base: string;
  beforeAll(async () => {
    app = buildProgressApp(released);
    base = await listen(app, '127.0.0.1', 0);
  });
  afterAll(() => app.close());

  const call = (name: string, meta: Record<string, unknown>, signal?: AbortSignal) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {}, _meta: meta } }),
      signal,
    });
  const event = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
  const progress = (value: number) => event({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: value } });

  it('streams the progress, then the response, and ends; a call without a token is answered in JSON', async () => {
    const streamed = await call('count', { progressToken: 'p' });
    expect([streamed.status, streamed.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    const result = { result: { content: [{ type: 'text', text: '{"counted":3}' }], structuredContent: { counted: 3 } }, jsonrpc: '2.0', id: 1 };
    expect(await streamed.text()).toBe(progress(1) + progress(2) + progress(3) + event(result));
    const plain = await call('count', {});
    expect([plain.status, plain.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    expect(await plain.json()).toEqual({
      ...result,
      result: { content: [{ type: 'text', text: '{"progress":"none"}' }], structuredContent: { progress: 'none' } },
    });
  });

  it("ends the request's server when its client leaves mid-stream: the tool call's signal aborts", async () => {
    const leaving = new AbortController();
    const response = await call('wait', { progressToken: 'p' }, leaving.signal);
    const reader = response.body!.getReader();
    let received = '';
    while (received !== progress(1)) received += new TextDecoder().decode((await reader.read()).value);
    leaving.abort();
    expect(await released.promise).toMatchObject({ message: 'Connection closed' });
  });

  it('keeps JSON for the same call on an endpoint without progress streams', async () => {
    const plainApp = buildApp();
    try {
      const response = await post(
        plainApp,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', _meta: { progressToken: 'p' } } },
        { 'mcp-protocol-version': '2025-11-25' },
      );
      expect(response.body).toEqual({
        result: { content: [{ type: 'text', text: '{"who":"ada"}' }], structuredContent: { who: 'ada' } },
        jsonrpc: '2.0',
        id: 2,
      });
    } finally {
      await plainApp.close();
    }
  });
});

describe('core MCP plumbing, the pieces', () => {
  it('knows the loopback listening addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', 'LOCALHOST']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'example.com', '128.0.0.1']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('reads MCP_ALLOWED_ORIGINS as origins, and names the variable of anything else', () => {
    expect(envOrigins({}, 'MCP_ALLOWED_ORIGINS')).toEqual([]);
    expect(envOrigins({ MCP_ALLOWED_ORIGINS: ' https://App.example/ , http://localhost:5173' }, 'MCP_ALLOWED_ORIGINS')).toEqual([
      'https://app.example',
      'http://localhost:5173',
    ]);
    for (const bad of ['app.example', 'https://app.example/path', 'ftp://app.example', 'https://user@app.example']) {
      expect(() => envOrigins({ MCP_ALLOWED_ORIGINS: bad }, 'MCP_ALLOWED_ORIGINS')).toThrow(
        new ConfigError('MCP_ALLOWED_ORIGINS', `must be origins such as https://app.example separated by commas, got "${bad}"`),
      );
    }
  });

  it('refuses by Origin against the own, public and allowed origins, and by Host only on a loopback address', () => {
    const request = (host: string, origin?: string) => ({ host, protocol: 'http', headers: origin === undefined ? {} : { origin } }) as never;
    const guard = { publicBaseUrl: 'https://public.example', allowedOrigins: ['https://app.example'], listenHost: '127.0.0.1' };
    expect(mcpRequestRefusal(request('127.0.0.1:8103'), guard)).toBeUndefined();
    expect(mcpRequestRefusal(request('127.0.0.1:8103', 'http://127.0.0.1:8103'), guard)).toBeUndefined();
    expect(mcpRequestRefusal(request('public.example', 'https://public.example'), guard)).toBeUndefined();
    expect(mcpRequestRefusal(request('localhost:1', 'https://app.example'), guard)).toBeUndefined();
    expect(mcpRequestRefusal(request('localhost:1', 'https://evil.example'), guard)).toMatch(/^Forbidden: Origin "https:\/\/evil.example"/);
    expect(mcpRequestRefusal(request('evil.example'), guard)).toMatch(/^Forbidden: Host "evil.example"/);
    expect(mcpRequestRefusal(request('evil.example'), { ...guard, listenHost: '0.0.0.0' })).toBeUndefined();
  });

  it('finds only the plainest tools/call for the fast path', () => {
    const request = (body: unknown, headers: Record<string, string> = {}) =>
      ({ method: 'POST', body, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }) as never;
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: { a: 1 } } };
    expect(plainToolCall(request(call))).toEqual({ era: 'legacy', id: 1, name: 'x', args: { a: 1 } });
    expect(plainToolCall(request(call, { 'mcp-protocol-version': '2025-03-26' }))?.era).toBe('legacy');
    expect(plainToolCall(request([call]))).toBeUndefined();
    expect(plainToolCall(request({ ...call, id: undefined }))).toBeUndefined();
    expect(plainToolCall(request({ ...call, params: { ...call.params, _meta: {} } }))).toBeUndefined();
    expect(plainToolCall(request(call, { accept: 'application/json' }))).toBeUndefined();
    expect(plainToolCall(request(call, { 'mcp-protocol-version': '2024-11-05' }))).toBeUndefined();
    const modern = { ...call, params: { ...call.params, _meta: ENVELOPE } };
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'x' };
    expect(plainToolCall(request(modern, headers))).toEqual({ era: 'modern', id: 1, name: 'x', args: { a: 1 } });
    expect(plainToolCall(request(modern, { ...headers, 'mcp-name': 'y' }))).toBeUndefined();
    expect(plainToolCall(request(call, headers))).toBeUndefined();
    expect(
      plainToolCall(request({ ...modern, params: { ...modern.params, _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': 7 } } }, headers)),
    ).toBeUndefined();
  });

  it("makes successes and failures in the board's shapes", () => {
    expect(toolResult({ a: 1 })).toEqual({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
    expect(toolFailure('not_found', 'No such thing.')).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'No such thing.' }],
      _meta: { 'dev.switchboard/error': { code: 'not_found', message: 'No such thing.' } },
    });
  });
});
