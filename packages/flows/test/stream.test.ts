import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startHarness, simpleFlow, type Harness } from './helpers/harness.ts';

/** Replaces what differs between runs (timings, timestamps) so streams compare byte by byte. */
function normalize(text: string): string {
  return text.replace(/"ms":[0-9.]+/g, '"ms":0').replace(/"created":\d+/g, '"created":0');
}

function chunk(id: string, delta: object, finish: string | null, usage?: object): string {
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: 'service-flow', choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
}

describe.each(dialectsUnderTest())('streaming on %s', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(dialect);
    await h.save(simpleFlow({ slug: 'cc-flow' }));
    await h.save(simpleFlow({ slug: 'raw-flow', format: 'raw' }));
    await h.save(simpleFlow({ slug: 'json-flow', format: 'json_template', template: { answer: '{{answer.text}}', n: '{{answer.usage.completion_tokens}}' } }));
    await h.save(simpleFlow({ slug: 'fail-mid', model: 'fail-mid' }));
    await h.save(simpleFlow({ slug: 'fail-first', model: 'fail' }));
    await h.save(simpleFlow({ slug: 'error-chunk', model: 'error-chunk' }));
    await h.save(simpleFlow({ slug: 'slow', model: 'slow' }));
  });
  afterAll(async () => {
    await h?.close();
  });

  it('streams JSON Lines on /run with stream: true, exactly in the design format', async () => {
    const response = await h.post('/api/llm/acme/flows/cc-flow/run', { input: { question: 'hello there' }, stream: true }, h.runToken);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers.get('content-encoding')).toBeNull();
    const runId = response.headers.get('x-run-id')!;
    const usage = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 };
    const completion = {
      id: `chatcmpl-${runId.slice(4)}`,
      object: 'chat.completion',
      created: 0,
      model: 'service-flow',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Echo: hello there' }, finish_reason: 'stop' }],
      usage,
    };
    const expected = [
      { type: 'run', run_id: runId, flow: 'cc-flow', version: 1 },
      { type: 'node', node: 'input', status: 'started' },
      { type: 'node', node: 'input', status: 'finished', ms: 0 },
      { type: 'node', node: 'answer', status: 'started' },
      { type: 'delta', content: 'Echo: ' },
      { type: 'delta', content: 'hello ' },
      { type: 'delta', content: 'there' },
      { type: 'node', node: 'answer', status: 'finished', ms: 0 },
      { type: 'node', node: 'output', status: 'started' },
      { type: 'node', node: 'output', status: 'finished', ms: 0 },
      { type: 'done', output: completion, usage },
    ];
    expect(normalize(await response.text())).toBe(expected.map((line) => `${JSON.stringify(line)}\n`).join(''));
  });

  it('sends a raw reply as a string and a json_template as the object in the done line', async () => {
    const rawLines = await h.streamLines('raw-flow', { input: { question: 'hi' } });
    expect(rawLines.at(-1)).toEqual({ type: 'done', output: 'Echo: hi', usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } });
    const jsonLines = await h.streamLines('json-flow', { input: { question: 'hi' } });
    expect(jsonLines.filter((l) => l.type === 'delta')).toEqual([]);
    expect(jsonLines.at(-1)).toEqual({
      type: 'done',
      output: { answer: 'Echo: hi', n: 2 },
      usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
    });
  });

  it('streams Server-Sent Events on /run/stream, exactly OpenAI chunks then [DONE]', async () => {
    const response = await h.post('/api/llm/acme/flows/cc-flow/run/stream', { input: { question: 'hello there' }, stream: false }, h.runToken);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    const id = `chatcmpl-${response.headers.get('x-run-id')!.slice(4)}`;
    expect(normalize(await response.text())).toBe(
      chunk(id, { role: 'assistant', content: 'Echo: ' }, null) +
        chunk(id, { content: 'hello ' }, null) +
        chunk(id, { content: 'there' }, null) +
        chunk(id, {}, 'stop', { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 }) +
        'data: [DONE]\n\n',
    );
  });

  it('sends a json_template output over SSE as one content fragment at the end', async () => {
    const response = await h.post('/api/llm/acme/flows/json-flow/run/stream', { input: { question: 'hi' } }, h.runToken);
    const id = `chatcmpl-${response.headers.get('x-run-id')!.slice(4)}`;
    expect(normalize(await response.text())).toBe(
      chunk(id, { role: 'assistant', content: '{"answer":"Echo: hi","n":2}' }, null) +
        chunk(id, {}, 'stop', { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 }) +
        'data: [DONE]\n\n',
    );
  });

  it('ends a stream whose upstream fails mid-way with one error event (SSE and JSON Lines)', async () => {
    const sse = await h.post('/api/llm/acme/flows/fail-mid/run/stream', { input: { question: 'one two three' } }, h.runToken);
    expect(sse.status).toBe(200);
    const id = `chatcmpl-${sse.headers.get('x-run-id')!.slice(4)}`;
    const text = normalize(await sse.text());
    const prefix = chunk(id, { role: 'assistant', content: 'Echo: ' }, null) + chunk(id, { content: 'one ' }, null);
    expect(text.startsWith(prefix)).toBe(true);
    const rest = text.slice(prefix.length).split('\n\n');
    expect(rest).toHaveLength(3);
    expect(JSON.parse(rest[0].slice('data: '.length))).toEqual({
      error: { message: expect.any(String), type: 'api_error', param: null, code: 'upstream_error' },
    });
    expect(rest[1]).toBe('data: [DONE]');
    expect(rest[2]).toBe('');

    const jsonl = await h.post('/api/llm/acme/flows/fail-mid/run', { input: { question: 'one two three' }, stream: true }, h.runToken);
    const lines = (await jsonl.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === 'delta').map((l) => l.content)).toEqual(['Echo: ', 'one ']);
    expect(lines.at(-1)).toEqual({ type: 'error', error: { message: expect.any(String), type: 'api_error', param: null, code: 'upstream_error' } });
    const run = (await (await h.get(`/api/llm/acme/runs/${jsonl.headers.get('x-run-id')}`)).json()) as { status: string };
    expect(run.status).toBe('failed');
  });

  it('ends a stream with one error event when the upstream sends an error chunk mid-way', async () => {
    const response = await h.post('/api/llm/acme/flows/error-chunk/run', { input: { question: 'one two three' }, stream: true }, h.runToken);
    expect(response.status).toBe(200);
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === 'delta').map((l) => l.content)).toEqual(['Echo: ', 'one ']);
    expect(lines.at(-1)).toEqual({
      type: 'error',
      error: { message: 'Provider error: The server had an error while processing your request', type: 'api_error', param: null, code: 'upstream_error' },
    });
    const run = (await (await h.get(`/api/llm/acme/runs/${response.headers.get('x-run-id')}`)).json()) as { status: string };
    expect(run.status).toBe('failed');
  });

  it('answers 200 and then an error event when the upstream fails before the first token', async () => {
    const response = await h.post('/api/llm/acme/flows/fail-first/run/stream', { input: { question: 'x' } }, h.runToken);
    expect(response.status).toBe(200);
    const text = await response.text();
    const [event, done, tail] = text.split('\n\n');
    const error = JSON.parse(event.slice('data: '.length));
    expect(error).toEqual({ error: { message: 'Provider error (HTTP 500): upstream exploded', type: 'api_error', param: null, code: 'upstream_error' } });
    expect(done).toBe('data: [DONE]');
    expect(tail).toBe('');
  });

  it('still refuses before streaming: 422 for bad input, 401 without a token', async () => {
    const bad = await h.post('/api/llm/acme/flows/cc-flow/run/stream', { input: { question: 5 } }, h.runToken);
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const anonymous = await fetch(`${h.base}/api/llm/acme/flows/cc-flow/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: { question: 'x' }, stream: true }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('aborts the upstream call when the client disconnects', async () => {
    const controller = new AbortController();
    const response = await fetch(`${h.base}/api/llm/acme/flows/slow/run/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.runToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { question: 'take your time' } }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"content":"t0 "');
    // A run still going after a second is listed as running (the slow upstream sends a token every 100 ms).
    let status = '';
    for (let i = 0; i < 45 && status !== 'running'; i++) {
      await reader.read();
      const listed = (await (await h.get('/api/llm/acme/runs?flow=slow')).json()) as {
        runs: Array<{ id: string; status: string; finished_at: string | null }>;
      };
      const mine = listed.runs.find((r) => r.id === response.headers.get('x-run-id'));
      if (mine) {
        status = mine.status;
        expect(mine.finished_at).toBeNull();
      }
    }
    expect(status).toBe('running');
    controller.abort();
    await h.upstream.waitForAbort('slow');
    const call = h.upstream.calls.find((c) => c.model === 'slow')!;
    expect(call.aborted).toBe(true);
    const runId = response.headers.get('x-run-id');
    const run = (await (await h.get(`/api/llm/acme/runs/${runId}`)).json()) as { status: string; error: { code: string } };
    expect(run.status).toBe('failed');
    expect(run.error.code).toBe('client_closed');
  });
});
