// Progress notifications for 2025-era MCP clients (design/mcp.md, "Flows as MCP tools"; issue 24): a legacy
// tools/call that carries a progress token is answered as an SSE stream (its notifications/progress while the run
// streams, then the result, then the end of the response); every other legacy request keeps its JSON answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startHarness, type Harness } from './helpers/harness.ts';

/** A flow whose one model call uses the fake upstream's `model` (`echo`: "Echo: Q" a word at a time). */
function modelFlow(slug: string, model: string) {
  return {
    name: `Model ${slug}`,
    slug,
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'q', type: 'string', required: true }] } },
      { id: 'answer', type: 'llm', data: { provider: 'local', model, prompt: '{{input.q}}' } },
      { id: 'output', type: 'output', data: { format: 'raw' } },
    ],
    edges: [
      { from: 'input', to: 'answer' },
      { from: 'answer', to: 'output' },
    ],
  };
}

/** What a run of `talker` with q "one two" reports, in order (each finished node and each streamed fragment). */
const TALKER_PROGRESS = ['node input finished', 'Echo: ', 'one ', 'two', 'node answer finished', 'node output finished'];

/**
 * A v1 SDK client at `version`: the v1 client always offers its newest revision, so its `initialize` is rewritten
 * to offer `version` (the server then speaks it, and the client follows). Records each request's
 * MCP-Protocol-Version header.
 */
async function connectV1(h: Harness, version: string, seenVersions: string[]): Promise<Client> {
  const client = new Client({ name: 'flows-progress-v1', version: '1.0.0' });
  const fetchAt = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    if (body?.method === 'initialize') body.params.protocolVersion = version;
    const header = new Headers(init?.headers).get('mcp-protocol-version');
    if (header !== null) seenVersions.push(header);
    return fetch(url, body === undefined ? init : { ...init, body: JSON.stringify(body) });
  };
  const transport = new StreamableHTTPClientTransport(new URL(`${h.base}/api/llm/acme/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${h.runToken}` } },
    fetch: fetchAt,
  });
  await client.connect(transport);
  return client;
}

/** A raw 2025-06-18 POST to the endpoint. */
function post(h: Harness, body: unknown, accept = 'application/json, text/event-stream', signal?: AbortSignal): Promise<Response> {
  return fetch(`${h.base}/api/llm/acme/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.runToken}`, 'content-type': 'application/json', accept, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify(body),
    signal,
  });
}

function progressEvent(token: string, progress: number, message: string): string {
  const notification = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress, message } };
  return `event: message\ndata: ${JSON.stringify(notification)}\n\n`;
}

describe.each(dialectsUnderTest())('MCP progress notifications for 2025-era clients on %s', (dialect) => {
  let h: Harness;
  /** A service whose runs time out soon (only `stuck` runs there). */
  let short: Harness;

  beforeAll(async () => {
    [h, short] = await Promise.all([startHarness(dialect), startHarness(dialect, { FLOWS_RUN_TIMEOUT_MS: '300' })]);
    for (const [service, slug, model] of [
      [h, 'talker', 'echo'],
      [h, 'gated', 'gated:one two three'],
      [short, 'talker', 'echo'],
      [short, 'stuck', 'hang'],
    ] as const) {
      await service.save(modelFlow(slug, model));
      expect((await service.put(`/api/llm/acme/flows/${slug}/mcp`, { enabled: true })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await h?.close();
    await short?.close();
  });

  it.each(['2025-06-18', '2025-11-25'])('sends a v1 client at %s each fragment and finished node, then the result', async (version) => {
    const versions: string[] = [];
    const client = await connectV1(h, version, versions);
    try {
      const seen: unknown[] = [];
      const result = await client.callTool({ name: 'talker', arguments: { q: 'one two' } }, undefined, { onprogress: (p) => seen.push(p) });
      expect(seen).toEqual(TALKER_PROGRESS.map((message, index) => ({ progress: index + 1, message })));
      const structured = result.structuredContent as { run_id: string };
      expect(result).toEqual({
        content: [{ type: 'text', text: JSON.stringify(structured) }],
        structuredContent: { run_id: expect.stringMatching(/^run_[0-9a-f]+$/), status: 'succeeded', output: 'Echo: one two' },
      });
      expect(versions.at(-1)).toBe(version);
      const record = await (await h.get(`/api/llm/acme/runs/${structured.run_id}`)).json();
      expect(record).toMatchObject({ flow: 'talker', status: 'succeeded', trigger: 'mcp', output: 'Echo: one two' });
      // The same client without onprogress sends no token: a plain JSON answer, no notification.
      const plain = await client.callTool({ name: 'talker', arguments: { q: 'three' } });
      expect(plain.structuredContent).toMatchObject({ status: 'succeeded', output: 'Echo: three' });
    } finally {
      await client.close();
    }
  });

  it('still delivers refused arguments, an unknown tool and a run that times out to a client asking for progress', async () => {
    const client = await connectV1(short, '2025-06-18', []);
    try {
      const seen: unknown[] = [];
      const onprogress = (p: unknown) => seen.push(p);
      const refused = await client.callTool({ name: 'talker', arguments: { q: 3, extra: true } }, undefined, { onprogress });
      expect(refused.isError).toBe(true);
      const refusal = (refused._meta as Record<string, { code: string; details: Array<{ param: string }> }>)['dev.switchboard/error'];
      expect([refusal.code, refusal.details.map((d) => d.param).sort()]).toEqual(['invalid_input', ['input.extra', 'input.q']]);
      await expect(client.callTool({ name: 'nothing', arguments: {} }, undefined, { onprogress })).rejects.toThrow(
        'MCP error -32602: Unknown tool "nothing". Valid tools: stuck, talker, get_flow_run.',
      );
      expect(seen).toEqual([]);
      const timedOut = await client.callTool({ name: 'stuck', arguments: { q: 'wait' } }, undefined, { onprogress });
      expect(seen).toEqual([{ progress: 1, message: 'node input finished' }]);
      expect(timedOut.isError).toBe(true);
      const error = (timedOut._meta as Record<string, { code: string; details: { run_id: string } }>)['dev.switchboard/error'];
      expect(error.code).toBe('timeout');
      expect((timedOut.content as Array<{ text: string }>)[0].text).toMatch(new RegExp(`^Run ${error.details.run_id} of flow "stuck" failed: `));
      const record = await (await short.get(`/api/llm/acme/runs/${error.details.run_id}`)).json();
      expect(record).toMatchObject({ flow: 'stuck', status: 'failed', trigger: 'mcp', error: { code: 'timeout' } });
    } finally {
      await client.close();
    }
  });

  it('frames the stream as SSE messages carrying the progress token, and ends the response after the result', async () => {
    const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'talker', arguments: { q: 'one two' }, _meta: { progressToken: 'tok-1' } } };
    const response = await post(h, call);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    // text() resolves only once the response has ended.
    const text = await response.text();
    const runId = /"run_id":"(run_[0-9a-f]+)"/.exec(text)?.[1];
    const structured = { run_id: runId, status: 'succeeded', output: 'Echo: one two' };
    const result = { jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured } };
    const frames = text.split('\n\n');
    expect(frames.at(-1)).toBe('');
    expect(frames.at(-2)).toMatch(/^event: message\ndata: \{/);
    expect(JSON.parse(frames.at(-2)!.slice('event: message\ndata: '.length))).toEqual(result);
    expect(text).toBe(`${TALKER_PROGRESS.map((message, index) => progressEvent('tok-1', index + 1, message)).join('')}${frames.at(-2)}\n\n`);
  });

  it('keeps the JSON answer for a client that accepts JSON alone, a call without a token and any other request', async () => {
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'talker', arguments: { q: 'x' }, _meta: { progressToken: 7 } } };
    const jsonOnly = await post(h, call, 'application/json');
    // As without a token: the 2025 revisions require both in Accept, and the SDK says so in JSON.
    expect([jsonOnly.status, jsonOnly.headers.get('content-type')]).toEqual([406, 'application/json; charset=utf-8']);
    expect(await jsonOnly.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' },
      id: null,
    });
    for (const body of [
      { ...call, params: { name: 'talker', arguments: { q: 'x' }, _meta: {} } },
      { ...call, params: { name: 'talker', arguments: { q: 'x' } } },
    ]) {
      const response = await post(h, body);
      expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
      expect((await response.json()).result.structuredContent).toMatchObject({ status: 'succeeded', output: 'Echo: x' });
    }
    const list = await post(h, { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: { progressToken: 'list' } } });
    expect([list.status, list.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    expect((await list.json()).result.tools.map((tool: { name: string }) => tool.name)).toEqual(['gated', 'talker', 'get_flow_run']);
  });

  it('lets a run go on to its end when the client leaves mid-stream, and serves the next call', async () => {
    const leaving = new AbortController();
    const call = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'gated', arguments: { q: 'go' }, _meta: { progressToken: 'gone' } } };
    const response = await post(h, call, undefined, leaving.signal);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes(progressEvent('gone', 3, 'two '))) {
      const { value } = await reader.read();
      received += new TextDecoder().decode(value);
    }
    leaving.abort();
    await reader.cancel().catch(() => undefined);
    while (h.upstream.gateHeld === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    h.upstream.openGate();
    let runs: Array<{ status: string; output: unknown; trigger: string }> = [];
    for (let i = 0; i < 200 && runs[0]?.status !== 'succeeded'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      runs = (await (await h.get('/api/llm/acme/runs?flow=gated')).json()).runs;
    }
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'succeeded', trigger: 'mcp', output: 'one two three' });
    const next = await (await post(h, { ...call, params: { ...call.params, name: 'talker', _meta: { progressToken: 'next' } } })).text();
    expect(next.startsWith(progressEvent('next', 1, 'node input finished'))).toBe(true);
    expect(next).toContain('"output":"Echo: go"');
  });
});
