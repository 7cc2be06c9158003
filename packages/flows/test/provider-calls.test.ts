import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, simpleFlow, type Harness } from './helpers/harness.ts';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// OpenAI-compatible connections are called through the official openai client (engine/chat-models.ts).
describe('calls to an OpenAI-compatible provider', () => {
  let h: Harness;
  let orgId: number;
  beforeAll(async () => {
    h = await startHarness('sqlite', { FLOWS_PROVIDER_RETRIES: '2' });
    orgId = (await h.stores.orgs.findOrg('acme'))!.id;
  });
  afterAll(async () => h.close());

  const run = (slug: string, body: Record<string, unknown> = {}) =>
    h.post(`/api/llm/acme/flows/${slug}/run`, { input: { question: 'Hi' }, ...body }, h.runToken);

  it('sends the chat request with the node parameters, streaming or not', async () => {
    const flow = simpleFlow({ slug: 'tuned', model: 'reply:fine thanks' });
    Object.assign(flow.nodes[1].data, { temperature: 0.3, max_tokens: 40 });
    await h.save(flow);
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ];
    const plain = await run('tuned');
    expect(plain.status).toBe(200);
    expect(h.upstream.calls.at(-1)!.body).toEqual({ model: 'reply:fine thanks', max_tokens: 40, temperature: 0.3, messages });
    const streamed = await run('tuned', { stream: true });
    expect(streamed.status).toBe(200);
    const done = JSON.parse((await streamed.text()).trim().split('\n').at(-1)!);
    expect(done).toMatchObject({
      type: 'done',
      output: { choices: [{ message: { content: 'fine thanks' }, finish_reason: 'stop' }] },
      usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
    });
    expect(h.upstream.calls.at(-1)!.body).toEqual({
      model: 'reply:fine thanks',
      max_tokens: 40,
      temperature: 0.3,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('sends no Authorization header for a connection without a key, and nothing from the OPENAI_* environment', async () => {
    await h.stores.orgs.setProvider(orgId, { name: 'keyless', kind: 'openai-compatible', baseUrl: h.upstream.url });
    const flow = simpleFlow({ slug: 'keyless' });
    flow.nodes[1].data.provider = 'keyless';
    await h.save(flow);
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: 'sk-env-key-should-not-leave', OPENAI_ORG_ID: 'org-env', OPENAI_PROJECT_ID: 'proj-env' });
    try {
      const response = await run('keyless');
      expect(response.status).toBe(200);
      expect(((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content).toBe('Echo: Hi');
    } finally {
      for (const name of ['OPENAI_API_KEY', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID']) if (saved[name] === undefined) delete process.env[name];
    }
    const headers = h.upstream.calls.at(-1)!.headers;
    expect(headers.authorization).toBeUndefined();
    expect(headers['openai-organization']).toBeUndefined();
    expect(headers['openai-project']).toBeUndefined();
  });

  it('retries 5xx and 429 answers FLOWS_PROVIDER_RETRIES times, then answers 502 with the provider message', async () => {
    await h.save(simpleFlow({ slug: 'exploding', model: 'fail' }));
    for (const stream of [false, true]) {
      const before = h.upstream.calls.length;
      const response = await run('exploding', { stream });
      const error = { message: 'Provider error (HTTP 500): upstream exploded', type: 'api_error', param: null, code: 'upstream_error' };
      if (stream) {
        expect(response.status).toBe(200);
        expect(JSON.parse((await response.text()).trim().split('\n').at(-1)!)).toEqual({ type: 'error', error });
      } else {
        expect(response.status).toBe(502);
        expect(await response.json()).toEqual({ error });
      }
      expect(h.upstream.calls.length - before).toBe(3);
    }
    await h.save(simpleFlow({ slug: 'limited', model: 'status:429' }));
    const before = h.upstream.calls.length;
    expect((await run('limited')).status).toBe(502);
    expect(h.upstream.calls.length - before).toBe(3);
  });

  it('never retries other 4xx answers', async () => {
    await h.save(simpleFlow({ slug: 'refused', model: 'status:400' }));
    const before = h.upstream.calls.length;
    const response = await run('refused');
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      error: { message: 'Provider error (HTTP 400): answered status:400', type: 'api_error', param: null, code: 'upstream_error' },
    });
    expect(h.upstream.calls.length - before).toBe(1);
  });

  it('answers 502 upstream_error, never a 500, when the provider answers 200 with something that is not JSON', async () => {
    await h.save(simpleFlow({ slug: 'garbled', model: 'garbage' }));
    const plain = await run('garbled');
    expect(plain.status).toBe(502);
    expect(await plain.json()).toEqual({
      error: {
        message: 'Provider request failed: Unexpected token \'<\', "<html>not "... is not valid JSON',
        type: 'api_error',
        param: null,
        code: 'upstream_error',
      },
    });
    const streamed = await run('garbled', { stream: true });
    expect(streamed.status).toBe(200);
    expect(JSON.parse((await streamed.text()).trim().split('\n').at(-1)!)).toEqual({
      type: 'error',
      error: { message: 'Provider request failed: Unexpected end of JSON input', type: 'api_error', param: null, code: 'upstream_error' },
    });
  });

  it('says the provider could not be reached, and where, when nothing answers at its address', async () => {
    const port = await closedPort();
    await h.stores.orgs.setProvider(orgId, {
      name: 'down',
      kind: 'openai-compatible',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: 'sk-down-key-0000000000',
    });
    const flow = simpleFlow({ slug: 'unreachable' });
    flow.nodes[1].data.provider = 'down';
    await h.save(flow);
    const response = await run('unreachable');
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      error: {
        message: `Provider could not be reached at http://127.0.0.1:${port}/v1/chat/completions (connection refused)`,
        type: 'api_error',
        param: null,
        code: 'upstream_error',
      },
    });
    // An Anthropic connection (the AI SDK, which wraps the failure as "Cannot connect to API"), streaming too.
    await h.stores.orgs.setProvider(orgId, {
      name: 'claude-down',
      kind: 'anthropic',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: 'sk-ant-down-key-000000',
    });
    flow.slug = 'unreachable-claude';
    flow.nodes[1].data.provider = 'claude-down';
    await h.save(flow);
    const error = {
      message: `Provider could not be reached at http://127.0.0.1:${port}/v1/messages (connection refused)`,
      type: 'api_error',
      param: null,
      code: 'upstream_error',
    };
    const plain = await run('unreachable-claude');
    expect([plain.status, await plain.json()]).toEqual([502, { error }]);
    const streamed = await run('unreachable-claude', { stream: true });
    expect(JSON.parse((await streamed.text()).trim().split('\n').at(-1)!)).toEqual({ type: 'error', error });
  });
});
