import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startHarness, simpleFlow, type Harness, type TestFlow } from './helpers/harness.ts';

const routedFlow = {
  name: 'Router',
  slug: 'router',
  nodes: [
    {
      id: 'input',
      type: 'input',
      data: {
        variables: [
          { name: 'question', type: 'string', required: true },
          { name: 'tier', type: 'enum', values: ['free', 'pro'], default: 'free' },
        ],
      },
    },
    { id: 'route', type: 'switch', data: { cases: [{ if: { left: '{{input.tier}}', op: 'equals', right: 'pro' }, then: 'expert' }], else: 'basic' } },
    { id: 'expert', type: 'llm', data: { provider: 'local', model: 'reply:expert answer', prompt: '{{input.question}}' } },
    { id: 'basic', type: 'template', data: { template: 'Basic help for: {{input.question}}' } },
    { id: 'after-expert', type: 'template', data: { template: 'only after expert' } },
    { id: 'output', type: 'output', data: { format: 'raw' } },
  ],
  edges: [
    { from: 'input', to: 'route' },
    { from: 'route', to: 'expert' },
    { from: 'route', to: 'basic' },
    { from: 'expert', to: 'after-expert' },
    { from: 'after-expert', to: 'output' },
    { from: 'basic', to: 'output' },
  ],
};

const parallelFlow: TestFlow = {
  name: 'Parallel',
  slug: 'parallel',
  nodes: [
    {
      id: 'input',
      type: 'input',
      data: {
        variables: [
          { name: 'question', type: 'string', required: true },
          { name: 'tags', type: 'array' },
          { name: 'count', type: 'integer', default: 3 },
        ],
      },
    },
    { id: 'a', type: 'llm', data: { provider: 'local', model: 'reply:alpha one', prompt: 'A: {{input.question}}' } },
    { id: 'b', type: 'llm', data: { provider: 'local', model: 'reply:beta', prompt: 'B: {{input.question}}' } },
    { id: 'join', type: 'template', data: { template: '{{a.text}} + {{b.text}} ({{metadata.user}})' } },
    {
      id: 'output',
      type: 'output',
      data: {
        format: 'json_template',
        template: {
          joined: '{{join.text}}',
          tags: '{{input.tags}}',
          count: '{{input.count}}',
          usage: '{{a.usage}}',
          label: 'n={{input.count}}',
          missing: '{{metadata.nothing}}',
        },
      },
    },
  ],
  edges: [
    { from: 'input', to: 'a' },
    { from: 'input', to: 'b' },
    { from: 'a', to: 'join' },
    { from: 'b', to: 'join' },
    { from: 'join', to: 'output' },
  ],
};

describe.each(dialectsUnderTest())('running flows on %s', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(dialect);
    await h.save(simpleFlow({ slug: 'cc-flow' }));
    await h.save(simpleFlow({ slug: 'raw-flow', format: 'raw' }));
    await h.save(routedFlow);
    await h.save(parallelFlow);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers a chat_completion flow with the ChatCompletion object, X-Run-Id and usage', async () => {
    const response = await h.post('/api/llm/acme/flows/cc-flow/run', { input: { question: 'hello there' } }, h.runToken);
    expect(response.status).toBe(200);
    const runId = response.headers.get('x-run-id')!;
    expect(runId).toMatch(/^run_[0-9a-f]{24}$/);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await response.json()) as { created: number };
    expect(body).toEqual({
      id: `chatcmpl-${runId.slice(4)}`,
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'service-flow',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Echo: hello there' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
    });
    expect(Math.abs(body.created - Date.now() / 1000)).toBeLessThan(60);
    const call = h.upstream.calls.at(-1)!;
    expect(call.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hello there' },
    ]);
    expect(call.authorization).toBe('Bearer sk-upstream-secret-123456');
  });

  it('answers a raw flow with the reply alone as text/plain', async () => {
    const response = await h.post('/api/llm/acme/flows/raw-flow/run', { input: { question: 'plain please' } }, h.runToken);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('x-run-id')).toMatch(/^run_/);
    expect(await response.text()).toBe('Echo: plain please');
  });

  it('renders a json_template keeping the JSON type of single references, runs branches and sums usage', async () => {
    const response = await h.post('/api/llm/acme/flows/parallel/run', { input: { question: 'q', tags: ['x', 'y'] }, metadata: { user: 'u1' } }, h.runToken);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      joined: 'alpha one + beta (u1)',
      tags: ['x', 'y'],
      count: 3,
      usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
      label: 'n=3',
      missing: null,
    });
    const run = (await (await h.get(`/api/llm/acme/runs/${response.headers.get('x-run-id')}`)).json()) as Record<string, unknown>;
    expect(run.usage).toEqual({ prompt_tokens: 14, completion_tokens: 3, total_tokens: 17 });
  });

  it('runs only the chosen branch of a switch and skips nodes reachable only through the other', async () => {
    const before = h.upstream.calls.length;
    const free = await h.post('/api/llm/acme/flows/router/run', { input: { question: 'help' } }, h.runToken);
    expect(await free.text()).toBe('Basic help for: help');
    expect(h.upstream.calls.length).toBe(before);
    const run = (await (await h.get(`/api/llm/acme/runs/${free.headers.get('x-run-id')}`)).json()) as { trace: Array<{ node: string; status: string }> };
    expect(run.trace.map((t) => [t.node, t.status])).toEqual([
      ['input', 'succeeded'],
      ['route', 'succeeded'],
      ['expert', 'skipped'],
      ['basic', 'succeeded'],
      ['after-expert', 'skipped'],
      ['output', 'succeeded'],
    ]);

    const pro = await h.post('/api/llm/acme/flows/router/run', { input: { question: 'help', tier: 'pro' } }, h.runToken);
    expect(await pro.text()).toBe('only after expert');
    expect(h.upstream.calls.length).toBe(before + 1);
  });

  it('records runs with input, metadata, output, usage, version and a per-node trace, newest first', async () => {
    const response = await h.post('/api/llm/acme/flows/raw-flow/run', { input: { question: 'record me' }, metadata: { session_id: 's1' } }, h.runToken);
    const runId = response.headers.get('x-run-id')!;
    await response.text();
    const got = await h.get(`/api/llm/acme/runs/${runId}`);
    expect(got.status).toBe(200);
    const run: unknown = await got.json();
    expect(run).toEqual({
      id: runId,
      flow: 'raw-flow',
      version: 1,
      status: 'succeeded',
      input: { question: 'record me' },
      metadata: { session_id: 's1' },
      output: 'Echo: record me',
      error: null,
      usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
      latency_ms: expect.any(Number),
      started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      finished_at: expect.stringMatching(/Z$/),
      trace: [
        { node: 'input', type: 'input', status: 'succeeded', started_at: expect.any(String), ms: expect.any(Number), output: { question: 'record me' } },
        {
          node: 'answer',
          type: 'llm',
          status: 'succeeded',
          started_at: expect.any(String),
          ms: expect.any(Number),
          output: { text: 'Echo: record me', finish_reason: 'stop' },
          usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
          model_calls: [
            {
              messages: [
                { role: 'system', content: 'Be brief.' },
                { role: 'user', content: 'record me' },
              ],
            },
          ],
        },
        { node: 'output', type: 'output', status: 'succeeded', started_at: expect.any(String), ms: expect.any(Number) },
      ],
      deleted_flow: null,
      trigger: 'api',
      schedule: null,
      // The fake upstream's model has no price.
      cost: { usd: 0, priced: false },
    });

    const list = (await (await h.get('/api/llm/acme/runs?flow=raw-flow')).json()) as { runs: Array<{ id: string; flow: string }> };
    expect(list.runs[0].id).toBe(runId);
    expect(list.runs.every((r) => r.flow === 'raw-flow')).toBe(true);
    const all = (await (await h.get('/api/llm/acme/runs')).json()) as { runs: Array<{ flow: string }> };
    expect(new Set(all.runs.map((r) => r.flow))).toEqual(new Set(['raw-flow', 'cc-flow', 'router', 'parallel']));
  });

  it('reads runs only with a manage token', async () => {
    const response = await h.get('/api/llm/acme/runs', h.runToken);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: { message: 'This token lacks the "manage" scope', type: 'permission_error', param: null, code: 'permission_denied' },
    });
    const missing = await h.get('/api/llm/acme/runs/run_nope');
    expect(missing.status).toBe(404);
  });

  it('fails with 502 upstream_error without leaking the provider key, and records the failed run', async () => {
    await h.save(simpleFlow({ slug: 'failing', model: 'fail' }));
    const response = await h.post('/api/llm/acme/flows/failing/run', { input: { question: 'boom' } }, h.runToken);
    expect(response.status).toBe(502);
    const body = (await response.json()) as { error: { message: string } };
    expect(body).toEqual({ error: { message: expect.stringContaining('upstream exploded'), type: 'api_error', param: null, code: 'upstream_error' } });
    expect(body.error.message).not.toContain('sk-upstream-secret');
    const run = (await (await h.get(`/api/llm/acme/runs/${response.headers.get('x-run-id')}`)).json()) as { status: string; error: unknown; trace: unknown[] };
    expect(run.status).toBe('failed');
    expect(run.error).toEqual(body.error);
    expect(run.trace[1]).toMatchObject({ node: 'answer', status: 'failed', error: { type: 'api_error', code: 'upstream_error' } });
  });
});

describe.each(dialectsUnderTest())('run timeout and concurrency on %s', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(dialect, { FLOWS_RUN_TIMEOUT_MS: '1500' });
    await h.save(simpleFlow({ slug: 'hanging', model: 'hang' }));
    await h.save(simpleFlow({ slug: 'slow', model: 'slow' }));
    const concurrent = structuredClone(parallelFlow);
    concurrent.slug = 'concurrent';
    concurrent.nodes[1].data.model = 'barrier:left';
    concurrent.nodes[2].data.model = 'barrier:right';
    await h.save(concurrent);
  });

  it('ends a stream that passes the timeout with a timeout error event after the tokens sent so far', async () => {
    const response = await h.post('/api/llm/acme/flows/slow/run/stream', { input: { question: 'x' } }, h.runToken);
    expect(response.status).toBe(200);
    const events = (await response.text()).split('\n\n').filter((e) => e !== '');
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(events.at(-2)!.slice('data: '.length))).toEqual({
      error: { message: 'The run took longer than 1500 ms', type: 'api_error', param: null, code: 'timeout' },
    });
    expect(events[0]).toContain('"content":"t0 "');
  });

  it('runs independent branches concurrently (each upstream call waits for the other)', async () => {
    const response = await h.post('/api/llm/acme/flows/concurrent/run', { input: { question: 'q' }, metadata: { user: 'u' } }, h.runToken);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { joined: string }).joined).toBe('left + right (u)');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers 504 timeout when the run passes FLOWS_RUN_TIMEOUT_MS and aborts the upstream call', async () => {
    const response = await h.post('/api/llm/acme/flows/hanging/run', { input: { question: 'wait' } }, h.runToken);
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({ error: { message: 'The run took longer than 1500 ms', type: 'api_error', param: null, code: 'timeout' } });
    await h.upstream.waitForAbort('hang');
    expect(h.upstream.calls.find((c) => c.model === 'hang')!.aborted).toBe(true);
  });
});

describe.each(dialectsUnderTest())('the record of a run answered 504 on %s', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    // A timeout of one second: the run ends just as a run still going is recorded `running` (after a second).
    h = await startHarness(dialect, { FLOWS_RUN_TIMEOUT_MS: '1000' });
    await h.save(simpleFlow({ slug: 'late', model: 'late:3000:too late', format: 'raw' }));
  });
  afterAll(async () => {
    await h?.close();
  });

  it('says failed with code timeout before the 504 leaves, and still does once the upstream would have answered (3 s)', async () => {
    const timeout = { message: 'The run took longer than 1000 ms', type: 'api_error', param: null, code: 'timeout' };
    const response = await h.post('/api/llm/acme/flows/late/run', { input: { question: 'wait' } }, h.runToken);
    expect([response.status, await response.json()]).toEqual([504, { error: timeout }]);
    const read = async () => {
      const run = (await (await h.get(`/api/llm/acme/runs/${response.headers.get('x-run-id')}`)).json()) as Record<string, unknown>;
      return { status: run.status, error: run.error, output: run.output, finished: typeof run.finished_at };
    };
    expect(await read()).toEqual({ status: 'failed', error: timeout, output: null, finished: 'string' });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await read()).toEqual({ status: 'failed', error: timeout, output: null, finished: 'string' });
  });
});
