import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startAgentHarness, toolFlow, type AgentHarness } from './helpers/agent-harness.ts';
import { simpleFlow } from './helpers/harness.ts';
import { EchoTool } from './helpers/echo-tool.ts';

const SECRET = 'sk-tool-secret/Value+1';
type Trace = Array<{ node: string; model_calls?: Array<{ messages: unknown[] }> }>;

describe.each(dialectsUnderTest())('what model calls were sent, in run traces, and provider model lists on %s', (dialect) => {
  let h: AgentHarness;
  let echo: EchoTool;
  const traceOf = async (response: Response): Promise<Trace> => (await (await h.get(`/api/llm/acme/runs/${response.headers.get('x-run-id')}`)).json()).trace;
  beforeAll(async () => {
    h = await startAgentHarness(dialect);
    echo = await new EchoTool().start('127.0.0.2');
    await h.put('/api/llm/acme/secrets/API_KEY', { value: SECRET });
  });
  afterAll(async () => {
    await echo?.close();
    await h?.close();
  });

  it('records the messages of a plain model call after templating: system, then the prompt', async () => {
    const flow = simpleFlow({ slug: 'plain', format: 'raw' });
    flow.nodes[1].data.system = 'Answer {{input.question}} briefly.';
    await h.save(flow);
    const response = await h.post('/api/llm/acme/flows/plain/run', { input: { question: 'Why?' } }, h.runToken);
    expect(response.status).toBe(200);
    const trace = await traceOf(response);
    expect(trace.find((t) => t.node === 'answer')!.model_calls).toEqual([
      {
        messages: [
          { role: 'system', content: 'Answer Why? briefly.' },
          { role: 'user', content: 'Why?' },
        ],
      },
    ]);
    expect(trace.find((t) => t.node === 'input')!.model_calls).toBeUndefined();
  });

  it('records every step of a tool loop, with tool calls and results, secrets masked', async () => {
    h.model.plans.set('echoer', [[{ name: 'echo_headers', args: { q: 'x' } }]]);
    await h.save(
      toolFlow('echoer', 'plan:echoer', [
        {
          id: 'echo',
          data: { kind: 'http', name: 'echo_headers', request: { method: 'GET', url: `${echo.base}/echo`, headers: { 'X-Key': '{{secrets.API_KEY}}' } } },
        },
      ]),
    );
    const response = await h.post('/api/llm/acme/flows/echoer/run', { input: { question: 'Who am I?' } }, h.runToken);
    expect(response.status).toBe(200);
    const calls = (await traceOf(response)).find((t) => t.node === 'answer')!.model_calls!;
    expect(calls).toHaveLength(2);
    expect(calls[0].messages).toEqual([{ role: 'user', content: 'Who am I?' }]);
    const [user, assistant, tool] = calls[1].messages as [unknown, { tool_calls: Array<{ call_id: string }> }, { content: string }];
    expect(user).toEqual({ role: 'user', content: 'Who am I?' });
    expect(assistant).toEqual({ role: 'assistant', content: '', tool_calls: [{ call_id: expect.any(String), tool: 'echo_headers', args: { q: 'x' } }] });
    expect(tool).toMatchObject({ role: 'tool', tool: 'echo_headers', call_id: assistant.tool_calls[0].call_id });
    expect(tool.content).toContain('"x-key":"***"');
    expect(JSON.stringify(calls)).not.toContain(SECRET);
  });

  it('records what a failed call was sent', async () => {
    await h.save(simpleFlow({ slug: 'failing', format: 'raw', model: 'fail' }));
    const response = await h.post('/api/llm/acme/flows/failing/run', { input: { question: 'Break?' } }, h.runToken);
    expect(response.status).toBe(502);
    const entry = (await traceOf(response)).find((t) => t.node === 'answer')!;
    expect(entry.model_calls).toEqual([
      {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Break?' },
        ],
      },
    ]);
  });

  it("lists a provider's models (401, 403, 404 first), asking the provider once per 10 minutes unless refreshed", async () => {
    expect((await fetch(`${h.base}/api/llm/acme/providers/local/models`)).status).toBe(401);
    expect((await h.get('/api/llm/acme/providers/local/models', h.runToken)).status).toBe(403);
    const missing = await h.get('/api/llm/acme/providers/nowhere/models');
    expect([missing.status, await missing.json()]).toEqual([
      404,
      { error: { message: 'Provider connection "nowhere" not found', type: 'not_found_error', param: 'name', code: 'provider_not_found' } },
    ]);
    const asked = () => h.upstream.calls.filter((c) => c.model === '').length;
    const before = asked();
    const first = await h.get('/api/llm/acme/providers/local/models');
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body).toEqual({ models: [{ id: 'echo' }, { id: 'slow' }, { id: 'text-embedding-test' }], fetched_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(await (await h.get('/api/llm/acme/providers/local/models')).json()).toEqual(body);
    expect(asked()).toBe(before + 1);
    expect((await h.get('/api/llm/acme/providers/local/models?refresh=true')).status).toBe(200);
    expect(asked()).toBe(before + 2);
    expect((await h.get('/api/llm/acme/providers/local/models?refresh=maybe')).status).toBe(400);
  });

  it("answers 502 with the provider's message (never its key) when the provider refuses, and a changed connection is asked again", async () => {
    await h.put('/api/llm/acme/providers/local', { kind: 'openai-compatible', base_url: h.upstream.url, api_key: 'sk-wrong-key-999' });
    const refused = await h.get('/api/llm/acme/providers/local/models');
    expect(refused.status).toBe(502);
    const { error } = await refused.json();
    expect([error.type, error.code]).toEqual(['api_error', 'upstream_error']);
    expect(error.message).toMatch(/^Provider error \(HTTP 401\): Incorrect API key provided: /);
    expect(error.message).not.toContain('sk-wrong-key-999');
    await h.put('/api/llm/acme/providers/local', { kind: 'openai-compatible', base_url: h.upstream.url, api_key: 'sk-good' });
    expect((await h.get('/api/llm/acme/providers/local/models')).status).toBe(200);
  });
});
