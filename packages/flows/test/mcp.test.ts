// Flows as MCP tools (design/mcp.md, "Flows as MCP tools"; issue 24): per-flow opt-in, tools listed with the
// flow's input schema, tools/call running the latest version as POST …/run does, through the official SDK
// clients of both generations (v1 in the legacy era, v2 in both), on every dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { RUN_OUTPUT_SCHEMA } from '../src/mcp/flow-tools.ts';
import { startHarness, type Harness } from './helpers/harness.ts';

const GREETER = {
  name: 'Greeter',
  slug: 'greeter',
  description: 'Greets someone',
  nodes: [
    {
      id: 'input',
      type: 'input',
      data: {
        variables: [
          { name: 'who', type: 'string', required: true, description: 'Whom to greet' },
          { name: 'times', type: 'integer', minimum: 1, maximum: 3 },
        ],
      },
    },
    { id: 'reply', type: 'template', data: { template: 'Hello {{input.who}}' } },
    { id: 'output', type: 'output', data: { format: 'raw' } },
  ],
  edges: [
    { from: 'input', to: 'reply' },
    { from: 'reply', to: 'output' },
  ],
};

/** A flow whose one model call uses the fake upstream's `model` (`late:MS:TEXT`: TEXT after MS, `hang`: no answer). */
function modelFlow(slug: string, model: string) {
  return {
    name: `Model ${model}`,
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

const validateOutput = new AjvJsonSchemaValidator().getValidator(RUN_OUTPUT_SCHEMA as unknown as Record<string, unknown>);

function expectRunOutput(structured: unknown): void {
  const checked = validateOutput(structured);
  expect(checked.valid, checked.errorMessage).toBe(true);
}

async function connectV1(h: Harness, token: string): Promise<ClientV1> {
  const client = new ClientV1({ name: 'flows-test-v1', version: '1.0.0' });
  await client.connect(new TransportV1(new URL(`${h.base}/api/llm/acme/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

async function connectV2(h: Harness, token: string, mode: 'pinned' | 'legacy'): Promise<ClientV2> {
  const client = new ClientV2(
    { name: 'flows-test-v2', version: '1.0.0' },
    { versionNegotiation: { mode: mode === 'pinned' ? { pin: '2026-07-28' } : 'legacy' } },
  );
  await client.connect(new TransportV2(new URL(`${h.base}/api/llm/acme/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

describe.each(dialectsUnderTest())('flows as MCP tools on %s', (dialect) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(dialect);
    await h.save(GREETER);
    await h.save({ ...GREETER, name: 'Shy', slug: 'shy', description: undefined });
  });
  afterAll(() => h?.close());

  it('answers 401 with the resource metadata to a call without a token, and 405 to GET', async () => {
    const response = await fetch(`${h.base}/api/llm/acme/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(`resource_metadata="${h.base}/.well-known/oauth-protected-resource/api/llm/acme/mcp"`);
    const get = await fetch(`${h.base}/api/llm/acme/mcp`, { headers: { authorization: `Bearer ${h.runToken}` } });
    expect(get.status).toBe(405);
  });

  it('enables a flow with its default tool name, and GET answers the same settings', async () => {
    const put = await h.put('/api/llm/acme/flows/greeter/mcp', { enabled: true });
    expect(put.status).toBe(200);
    const settings = { enabled: true, tool_name: 'greeter', description: null, mcp_url: `${h.base}/api/llm/acme/mcp` };
    expect(await put.json()).toEqual(settings);
    expect(await (await h.get('/api/llm/acme/flows/greeter/mcp')).json()).toEqual(settings);
    expect(await (await h.get('/api/llm/acme/flows/shy/mcp')).json()).toEqual({ ...settings, enabled: false, tool_name: 'shy' });
  });

  it('refuses a tool name another enabled flow has (409) and a malformed one (422 naming every problem)', async () => {
    const taken = await h.put('/api/llm/acme/flows/shy/mcp', { enabled: true, tool_name: 'greeter' });
    expect(taken.status).toBe(409);
    expect((await taken.json()).error).toMatchObject({ code: 'tool_name_taken', param: 'tool_name', message: expect.stringContaining('flow "greeter"') });
    const bad = await h.put('/api/llm/acme/flows/shy/mcp', { enabled: 'yes', tool_name: 'no spaces' });
    expect(bad.status).toBe(422);
    expect((await bad.json()).error.details.map((d: { param: string }) => d.param)).toEqual(['enabled', 'tool_name']);
    const reserved = await h.put('/api/llm/acme/flows/shy/mcp', { enabled: true, tool_name: 'get_flow_run' });
    expect(reserved.status).toBe(409);
    const missing = await h.put('/api/llm/acme/flows/nope/mcp', { enabled: true });
    expect(missing.status).toBe(404);
    const run = await h.put('/api/llm/acme/flows/shy/mcp', { enabled: true }, h.runToken);
    expect(run.status).toBe(403);
  });

  it('lists enabled flows as tools for a v2 client on 2026-07-28 and runs one, recorded with trigger "mcp"', async () => {
    const client = await connectV2(h, h.runToken, 'pinned');
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['greeter', 'get_flow_run']);
      const schema = await (await h.get('/api/llm/acme/flows/greeter/schema')).json();
      delete schema.$schema;
      expect(tools[0]).toMatchObject({
        name: 'greeter',
        title: 'Greeter',
        description: 'Greets someone',
        inputSchema: schema,
        outputSchema: RUN_OUTPUT_SCHEMA,
        annotations: { openWorldHint: true, readOnlyHint: false },
      });
      expect(tools[1].annotations).toMatchObject({ readOnlyHint: true });
      const result = await client.callTool({ name: 'greeter', arguments: { who: 'Ada' } });
      expect(result.isError).toBeFalsy();
      const structured = result.structuredContent as { run_id: string };
      expect(structured).toEqual({ run_id: expect.stringMatching(/^run_/), status: 'succeeded', output: 'Hello Ada' });
      expect(JSON.parse((result.content as Array<{ text: string }>)[0].text)).toEqual(structured);
      expectRunOutput(structured);
      const record = await (await h.get(`/api/llm/acme/runs/${structured.run_id}`)).json();
      expect(record).toMatchObject({ flow: 'greeter', status: 'succeeded', trigger: 'mcp', input: { who: 'Ada' }, output: 'Hello Ada' });
      const later = await client.callTool({ name: 'get_flow_run', arguments: { run_id: structured.run_id } });
      expect(later.structuredContent).toEqual(structured);
    } finally {
      await client.close();
    }
  });

  it('serves a v1 client and a v2 client in the legacy era; bad arguments are isError naming every problem', async () => {
    for (const client of [await connectV1(h, h.runToken), await connectV2(h, h.runToken, 'legacy')]) {
      try {
        const ok = await client.callTool({ name: 'greeter', arguments: { who: 'Bo', times: 2 } });
        expect(ok.structuredContent).toMatchObject({ status: 'succeeded', output: 'Hello Bo' });
        const bad = await client.callTool({ name: 'greeter', arguments: { times: '5', extra: 1 } });
        expect(bad.isError).toBe(true);
        expect(bad.structuredContent).toBeUndefined();
        const meta = bad._meta as Record<string, { code: string; details: Array<{ param: string }> }>;
        const problems = meta['dev.switchboard/error'].details;
        expect(problems.map((p) => p.param).sort()).toEqual(['input.extra', 'input.times', 'input.who']);
        expect((bad.content as Array<{ text: string }>)[0].text).toContain('Missing required variable "who"');
        const notMine = await client.callTool({ name: 'get_flow_run', arguments: { run_id: 'run_missing' } });
        expect(notMine).toMatchObject({ isError: true, _meta: { 'dev.switchboard/error': { code: 'not_found' } } });
      } finally {
        await client.close();
      }
    }
  });

  it('refuses an unknown tool and a disabled or deleted flow as unknown tools (-32602)', async () => {
    const client = await connectV1(h, h.manageToken);
    try {
      await expect(client.callTool({ name: 'nothing', arguments: {} })).rejects.toThrow(/Unknown tool "nothing"/);
      await h.save({ ...GREETER, name: 'Gone', slug: 'gone' });
      expect((await h.put('/api/llm/acme/flows/gone/mcp', { enabled: true, tool_name: 'gone_tool', description: 'Soon gone' })).status).toBe(200);
      expect((await client.listTools()).tools.find((tool) => tool.name === 'gone_tool')?.description).toBe('Soon gone');
      expect((await h.put('/api/llm/acme/flows/greeter/mcp', { enabled: false })).status).toBe(200);
      await expect(client.callTool({ name: 'greeter', arguments: { who: 'x' } })).rejects.toThrow(/Unknown tool "greeter"/);
      expect((await h.del('/api/llm/acme/flows/gone')).status).toBe(200);
      await expect(client.callTool({ name: 'gone_tool', arguments: { who: 'x' } })).rejects.toThrow(/Unknown tool "gone_tool"/);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['get_flow_run']);
    } finally {
      await client.close();
      await h.put('/api/llm/acme/flows/greeter/mcp', { enabled: true });
    }
  });

  it.each([
    ['2025-11-25', {}],
    ['2026-07-28', { 'mcp-method': 'tools/call', 'mcp-name': 'greeter' }],
  ] as const)('answers a plain tools/call in %s byte for byte as the SDK does (its fast path)', async (version, headers) => {
    const params =
      version === '2025-11-25'
        ? { name: 'greeter', arguments: { who: 'Cy' } }
        : {
            name: 'greeter',
            arguments: { who: 'Cy' },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': version,
              'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          };
    const send = async (contentType: string, args: Record<string, unknown>) => {
      const response = await fetch(`${h.base}/api/llm/acme/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.runToken}`,
          'content-type': contentType,
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': version,
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { ...params, arguments: args } }),
      });
      expect(response.status).toBe(200);
      return (await response.text()).replace(/run_[0-9a-f]+/g, 'run_ID');
    };
    // A Content-Type with a charset is not the plainest form: the SDK answers it.
    for (const args of [{ who: 'Cy' }, { times: 9 }]) expect(await send('application/json', args)).toBe(await send('application/json; charset=utf-8', args));
  });

  it('sends progress notifications while a run streams to a v2 client that asks for them, in both eras', async () => {
    await h.save(modelFlow('talker', 'echo'));
    await h.put('/api/llm/acme/flows/talker/mcp', { enabled: true });
    for (const mode of ['pinned', 'legacy'] as const) {
      const client = await connectV2(h, h.runToken, mode);
      try {
        const seen: Array<{ progress: number; message?: string }> = [];
        const result = await client.callTool({ name: 'talker', arguments: { q: 'one two' } }, { onprogress: (progress) => seen.push(progress) });
        expect(result.structuredContent).toMatchObject({ status: 'succeeded', output: 'Echo: one two' });
        expect(seen.map((p) => p.message)).toEqual(['node input finished', 'Echo: ', 'one ', 'two', 'node answer finished', 'node output finished']);
        expect(seen.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5, 6]);
      } finally {
        await client.close();
      }
    }
  });

  it('answers a token of another organization as if the organization did not exist', async () => {
    const beta = await h.stores.orgs.createOrg('beta', 'Beta');
    const stranger = await h.stores.orgs.createToken(beta.id, { scope: 'manage', name: 'beta' });
    const response = await fetch(`${h.base}/api/llm/acme/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stranger.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body.error).toMatchObject({ code: 'org_not_found', message: 'Organization "acme" not found' });
    expect(JSON.stringify(body)).not.toContain('greeter');
  });
});

describe.each(dialectsUnderTest())('MCP flow runs that take long on %s', (dialect) => {
  let slow: Harness;
  let short: Harness;

  beforeAll(async () => {
    [slow, short] = await Promise.all([startHarness(dialect, { FLOWS_MCP_WAIT_MS: '200' }), startHarness(dialect, { FLOWS_RUN_TIMEOUT_MS: '300' })]);
    for (const [h, model] of [
      [slow, 'late:1000:Thought it through'],
      [short, 'hang'],
    ] as const) {
      await h.save(modelFlow('thinker', model));
      await h.put('/api/llm/acme/flows/thinker/mcp', { enabled: true });
    }
  });
  afterAll(async () => {
    await slow?.close();
    await short?.close();
  });

  it('answers "running" past FLOWS_MCP_WAIT_MS, and get_flow_run answers the run later', async () => {
    const client = await connectV2(slow, slow.runToken, 'pinned');
    try {
      const first = await client.callTool({ name: 'thinker', arguments: { q: 'think' } });
      const { run_id: runId } = first.structuredContent as { run_id: string };
      expect(first.structuredContent).toEqual({ run_id: runId, status: 'running', output: null });
      expectRunOutput(first.structuredContent);
      const now = await client.callTool({ name: 'get_flow_run', arguments: { run_id: runId } });
      expect(now.structuredContent).toEqual({ run_id: runId, status: 'running', output: null });
      let state: { status: string; output: unknown } = { status: 'running', output: null };
      for (let i = 0; i < 100 && state.status === 'running'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        state = (await client.callTool({ name: 'get_flow_run', arguments: { run_id: runId } })).structuredContent as typeof state;
      }
      expect(state).toEqual({ run_id: runId, status: 'succeeded', output: 'Thought it through' });
      expectRunOutput(state);
    } finally {
      await client.close();
    }
  }, 20_000);

  it('answers a run that times out as isError with its error, and records it failed', async () => {
    const client = await connectV1(short, short.runToken);
    try {
      const result = await client.callTool({ name: 'thinker', arguments: { q: 'wait' } });
      expect(result.isError).toBe(true);
      const meta = result._meta?.['dev.switchboard/error'] as { code: string; details: { run_id: string } };
      expect(meta.code).toBe('timeout');
      expect((result.content as Array<{ text: string }>)[0].text).toMatch(/failed/);
      const record = await (await short.get(`/api/llm/acme/runs/${meta.details.run_id}`)).json();
      expect(record).toMatchObject({ status: 'failed', trigger: 'mcp', error: { code: 'timeout' } });
    } finally {
      await client.close();
    }
  });
});
