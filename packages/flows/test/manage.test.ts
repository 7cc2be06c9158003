import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startHarness, simpleFlow, type Harness } from './helpers/harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: as Response.json() types it; each test reads and asserts the fields of the answer it expects.
async function json(response: Response): Promise<any> {
  return response.json();
}

describe.each(dialectsUnderTest())('management API on %s', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(dialect);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('derives the slug from the name on first save, with -2, -3 when taken, and keeps it stable', async () => {
    const first = await h.post('/api/llm/acme/flows', simpleFlow({ name: 'Support Bot!' }));
    expect(first.status).toBe(201);
    const body = await json(first);
    expect(body).toMatchObject({ slug: 'support-bot', name: 'Support Bot!', version: 1, description: null });
    expect(body.definition.slug).toBe('support-bot');
    expect((await json(await h.post('/api/llm/acme/flows', simpleFlow({ name: 'Support Bot!' })))).slug).toBe('support-bot-2');
    expect((await json(await h.post('/api/llm/acme/flows', simpleFlow({ name: 'support bot' })))).slug).toBe('support-bot-3');
    const free = await h.post('/api/llm/acme/flows', simpleFlow({ name: 'Anything', slug: 'my-own' }));
    expect(free.status).toBe(201);
    expect((await json(free)).slug).toBe('my-own');
  });

  it('saves a new version when the slug exists (POST with slug, PUT), renamed flows keep their slug', async () => {
    const update = await h.post('/api/llm/acme/flows', { ...simpleFlow({ name: 'Renamed', slug: 'support-bot', format: 'raw' }) });
    expect(update.status).toBe(200);
    expect(await json(update)).toMatchObject({ slug: 'support-bot', name: 'Renamed', version: 2 });
    const viaPut = await h.put('/api/llm/acme/flows/support-bot', { ...simpleFlow({ name: 'Again', slug: 'ignored' }), description: 'd' });
    expect(viaPut.status).toBe(200);
    expect(await json(viaPut)).toMatchObject({ slug: 'support-bot', name: 'Again', version: 3, description: 'd' });
    const got = await json(await h.get('/api/llm/acme/flows/support-bot'));
    expect(got).toMatchObject({ slug: 'support-bot', version: 3, definition: { name: 'Again', slug: 'support-bot' } });
    const missing = await h.put('/api/llm/acme/flows/nope', simpleFlow());
    expect(missing.status).toBe(404);
    expect((await json(missing)).error.code).toBe('flow_not_found');
  });

  it('runs the latest version after an update (the definition cache is per version)', async () => {
    await h.save(simpleFlow({ slug: 'versioned', format: 'raw', model: 'reply:one' }));
    expect(await (await h.post('/api/llm/acme/flows/versioned/run', { input: { question: 'q' } }, h.runToken)).text()).toBe('one');
    await h.save(simpleFlow({ slug: 'versioned', format: 'raw', model: 'reply:two' }));
    const second = await h.post('/api/llm/acme/flows/versioned/run', { input: { question: 'q' } }, h.runToken);
    expect(await second.text()).toBe('two');
    expect((await json(await h.get(`/api/llm/acme/runs/${second.headers.get('x-run-id')}`))).version).toBe(2);
  });

  it('lists and deletes flows', async () => {
    const list = await json(await h.get('/api/llm/acme/flows'));
    expect(list.flows.map((f: { slug: string }) => f.slug)).toEqual(['my-own', 'support-bot', 'support-bot-2', 'support-bot-3', 'versioned']);
    expect(Object.keys(list.flows[0]).sort()).toEqual(['created_at', 'description', 'name', 'runs_24h', 'slug', 'updated_at', 'version']);
    expect(await json(await h.del('/api/llm/acme/flows/support-bot-3'))).toEqual({ deleted: true });
    expect((await h.get('/api/llm/acme/flows/support-bot-3')).status).toBe(404);
    expect((await h.post('/api/llm/acme/flows/support-bot-3/run', { input: { question: 'x' } }, h.runToken)).status).toBe(404);
  });

  it('refuses invalid definitions with a message naming the node', async () => {
    const base = simpleFlow();
    const cases: Array<[unknown, string]> = [
      [{ ...base, edges: [...base.edges, { from: 'output', to: 'answer' }] }, 'Node "answer": part of a cycle ("answer", "output")'],
      [{ ...base, edges: [...base.edges, { from: 'answer', to: 'ghost' }] }, 'Edge 2 from "answer" to "ghost": unknown node "ghost"'],
      [
        { ...base, nodes: base.nodes.map((n) => (n.id === 'answer' ? { ...n, data: { ...n.data, prompt: '{{input.nope}}' } } : n)) },
        'Node "answer": unknown reference {{input.nope}}: the input node has no variable "nope"',
      ],
      [
        { ...base, nodes: base.nodes.map((n) => (n.id === 'answer' ? { ...n, data: { ...n.data, prompt: '{{ghost.text}}' } } : n)) },
        'Node "answer": unknown reference {{ghost.text}}: no node "ghost"',
      ],
      [
        { ...base, nodes: base.nodes.map((n) => (n.id === 'answer' ? { ...n, data: { ...n.data, provider: 'nowhere' } } : n)) },
        'Node "answer": unknown provider "nowhere"',
      ],
      [{ ...base, nodes: [...base.nodes, { id: 'weird', type: 'teleport', data: {} }] }, 'Node "weird": unknown node type "teleport"'],
      [{ ...base, nodes: base.nodes.filter((n) => n.type !== 'output'), edges: [base.edges[0]] }, 'Flow has no output node'],
      [{ ...base, nodes: base.nodes.filter((n) => n.type !== 'input'), edges: [base.edges[1]] }, 'Flow has no input node'],
      [
        {
          ...base,
          nodes: [...base.nodes, { id: 'output2', type: 'output', data: { format: 'raw' } }],
          edges: [...base.edges, { from: 'answer', to: 'output2' }],
        },
        'Flow has 2 output nodes ("output", "output2"); it needs exactly one',
      ],
      [{ ...base, nodes: [...base.nodes, { id: 'answer', type: 'template', data: { template: 'x' } }] }, 'Node "answer": duplicate node id'],
      [
        { ...base, nodes: base.nodes.map((n) => (n.id === 'output' ? { ...n, data: { format: 'xml' } } : n)) },
        'Node "output": "format" must be one of raw, chat_completion, json_template',
      ],
    ];
    for (const [definition, message] of cases) {
      const response = await h.post('/api/llm/acme/flows', definition);
      expect(response.status).toBe(422);
      const body = await json(response);
      expect(body.error.message).toBe(message);
      expect(body.error.code).toBe('invalid_flow');
      expect(body.error.type).toBe('invalid_request_error');
    }
    const notJson = await h.post('/api/llm/acme/flows', [1, 2]);
    expect(notJson.status).toBe(422);
  });

  it('refuses node data nested deeper than 64 levels with 422, not a 500 from a blown stack', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const body = JSON.stringify(simpleFlow({ slug: 'deep', format: 'json_template', template: 'DEEP' })).replace('"DEEP"', deep);
    const response = await fetch(`${h.base}/api/llm/acme/flows`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.manageToken}`, 'content-type': 'application/json' },
      body,
    });
    const message = 'Node "output": "data" nests deeper than 64 levels';
    expect([response.status, await json(response)]).toEqual([
      422,
      { error: { message, type: 'invalid_request_error', param: 'nodes[2].data', code: 'invalid_flow', details: [{ param: 'nodes[2].data', message }] } },
    ]);
  });

  it("numbers a switch's cases from 1 in its 422, as the canvas draws them (the param stays the definition's path)", async () => {
    const when = (right: string) => ({ left: '{{input.question}}', op: 'equals', right });
    const response = await h.post('/api/llm/acme/flows', {
      name: 'Numbered cases',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
        {
          id: 'route',
          type: 'switch',
          data: {
            cases: [
              { if: when('a'), then: 'first' },
              { if: when('b'), then: '' },
            ],
            else: 'first',
          },
        },
        { id: 'first', type: 'template', data: { template: 'first' } },
        { id: 'output', type: 'output', data: { format: 'raw' } },
      ],
      edges: [
        { from: 'input', to: 'route' },
        { from: 'route', to: 'first' },
        { from: 'first', to: 'output' },
      ],
    });
    const message = 'Node "route": case 2: "then" must name a node this switch has an edge to';
    expect([response.status, await json(response)]).toEqual([
      422,
      {
        error: {
          message,
          type: 'invalid_request_error',
          param: 'nodes[1].data.cases[1].then',
          code: 'invalid_flow',
          details: [{ param: 'nodes[1].data.cases[1].then', message }],
        },
      },
    ]);
  });

  it('serves the input JSON Schema and snippets derived from the Input node', async () => {
    await h.save(
      simpleFlow({
        slug: 'schema-flow',
        extraVariables: [
          { name: 'tier', type: 'enum', values: ['free', 'pro'], default: 'free', description: 'Plan' },
          { name: 'n', type: 'integer', minimum: 1, maximum: 5 },
        ],
      }),
    );
    const schema = await json(await h.get('/api/llm/acme/flows/schema-flow/schema'));
    expect(schema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Support bot',
      type: 'object',
      properties: {
        question: { type: 'string' },
        tier: { enum: ['free', 'pro'], description: 'Plan', default: 'free' },
        n: { type: 'integer', minimum: 1, maximum: 5 },
      },
      required: ['question'],
      additionalProperties: false,
    });
    const snippets = await json(await h.get('/api/llm/acme/flows/schema-flow/snippets'));
    expect(snippets.snippets.map((s: { id: string }) => s.id)).toEqual([
      'curl',
      'curl-stream-sse',
      'curl-stream-jsonl',
      'javascript-fetch',
      'javascript-fetch-stream',
      'python-requests',
      'python-requests-stream',
      'openai-javascript',
      'openai-javascript-stream',
      'openai-python',
      'openai-python-stream',
    ]);
    const curl = snippets.snippets[0].code as string;
    expect(curl).toBe(
      `curl ${h.base}/api/llm/acme/flows/schema-flow/run \\\n  -H "Authorization: Bearer $SWITCHBOARD_TOKEN" \\\n  -H "Content-Type: application/json" \\\n  -d '{"input":{"question":"example question"}}'`,
    );
    expect(snippets.snippets[9].code).toContain(`base_url="${h.base}/api/llm/acme/flows/schema-flow"`);
    expect(JSON.stringify(snippets)).not.toContain(h.manageToken);
  });

  it('manages tokens and provider connections without ever returning secrets', async () => {
    const created = await h.post('/api/llm/acme/tokens', { name: 'ci', scope: 'run' });
    expect(created.status).toBe(201);
    const token = await json(created);
    expect(token).toMatchObject({
      token_id: expect.stringMatching(/^tok_/),
      token: expect.stringMatching(/^sbf_/),
      scope: 'run',
      name: 'ci',
      last_used_at: null,
    });
    expect((await h.post('/api/llm/acme/flows/versioned/run', { input: { question: 'q' } }, token.token)).status).toBe(200);
    const list = await json(await h.get('/api/llm/acme/tokens'));
    const listed = list.tokens.find((t: { id: string }) => t.id === token.token_id);
    expect(listed.last_used_at).toMatch(/Z$/);
    expect(JSON.stringify(list)).not.toContain(token.token);

    const set = await h.put('/api/llm/acme/providers/remote', { kind: 'openai', base_url: 'https://api.example.com/v1', api_key: 'sk-very-secret-key-0000' });
    expect(await json(set)).toEqual({ name: 'remote', kind: 'openai' });
    const providers = await json(await h.get('/api/llm/acme/providers'));
    expect(providers.providers.find((p: { name: string }) => p.name === 'remote')).toEqual({
      name: 'remote',
      kind: 'openai',
      base_url: 'https://api.example.com/v1',
      has_api_key: true,
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(providers)).not.toContain('sk-very-secret');
    // An edit without api_key (the dashboard never sees the key) keeps the stored one; null removes it.
    const remote = async () => (await json(await h.get('/api/llm/acme/providers'))).providers.find((p: { name: string }) => p.name === 'remote');
    expect((await h.put('/api/llm/acme/providers/remote', { kind: 'openai', base_url: 'https://api2.example.com/v1' })).status).toBe(200);
    expect(await remote()).toMatchObject({ base_url: 'https://api2.example.com/v1', has_api_key: true });
    const org = (await h.stores.orgs.findOrg('acme'))!;
    expect((await h.stores.orgs.loadProviders(org.id)).find((p) => p.name === 'remote')?.apiKey).toBe('sk-very-secret-key-0000');
    expect((await h.put('/api/llm/acme/providers/remote', { kind: 'openai', base_url: 'https://api2.example.com/v1', api_key: null })).status).toBe(200);
    expect(await remote()).toMatchObject({ has_api_key: false });
    const badKind = await h.put('/api/llm/acme/providers/x', { kind: 'acme-ai' });
    expect(badKind.status).toBe(400);
    const noBase = await h.put('/api/llm/acme/providers/x', { kind: 'openai-compatible' });
    expect((await json(noBase)).error.message).toBe('An openai-compatible connection needs a base_url');
  });

  it('calls Anthropic through its AI SDK provider, streaming and not', async () => {
    const org = (await h.stores.orgs.findOrg('acme'))!;
    await h.stores.orgs.setProvider(org.id, { name: 'claude', kind: 'anthropic', baseUrl: h.upstream.url, apiKey: 'sk-ant-test-key-000000' });
    const definition = simpleFlow({ slug: 'claude-flow' });
    definition.nodes[1].data = { ...definition.nodes[1].data, provider: 'claude', model: 'claude-test' };
    await h.save(definition);
    const response = await h.post('/api/llm/acme/flows/claude-flow/run', { input: { question: 'hi there' } }, h.runToken);
    const body = await json(response);
    expect(body.choices[0].message.content).toBe('Claude: hi there');
    expect(body.usage).toEqual({ prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 });
    const call = h.upstream.calls.at(-1)!;
    expect(call.authorization).toBe('sk-ant-test-key-000000');
    expect(call.body.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    const lines = await h.streamLines('claude-flow', { input: { question: 'hi there' } });
    expect(lines.filter((l) => l.type === 'delta').map((l) => l.content)).toEqual(['Claude: ', 'hi ', 'there']);
    expect(lines.at(-1)!.usage).toEqual({ prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 });
  });

  it('uses a new provider connection on the next run (the provider cache follows providers_version)', async () => {
    const second = await h.stores.orgs.findOrg('acme');
    await h.stores.orgs.setProvider(second!.id, { name: 'local', kind: 'openai-compatible', baseUrl: h.upstream.url, apiKey: 'sk-rotated-key-99999999' });
    await h.post('/api/llm/acme/flows/versioned/run', { input: { question: 'q' } }, h.runToken);
    expect(h.upstream.calls.at(-1)!.authorization).toBe('Bearer sk-rotated-key-99999999');
  });
});

describe.each(dialectsUnderTest())('environment provider fallbacks on %s', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(dialect, { OPENAI_API_KEY: 'sk-env-key-123456789', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('accepts provider "openai" from OPENAI_API_KEY / OPENAI_BASE_URL when the organization has no connection of that name', async () => {
    // The harness's upstream URL is only known after start: point the env fallback at it through a second app.
    const { buildApp, loadConfig } = await import('../src/index.ts');
    const { listen } = await import('@switchboard/core');
    const app = await buildApp(loadConfig({ ...h.db.env, LOG_LEVEL: 'silent', OPENAI_API_KEY: 'sk-env-key-123456789', OPENAI_BASE_URL: h.upstream.url }));
    try {
      const base = await listen(app, '127.0.0.1', 0);
      const definition = simpleFlow({ slug: 'env-flow', format: 'raw' });
      definition.nodes[1].data = { ...definition.nodes[1].data, provider: 'openai', model: 'reply:from env' };
      const saved = await fetch(`${base}/api/llm/acme/flows`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.manageToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(definition),
      });
      expect(saved.status).toBe(201);
      const response = await fetch(`${base}/api/llm/acme/flows/env-flow/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.runToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: { question: 'x' } }),
      });
      expect(await response.text()).toBe('from env');
      expect(h.upstream.calls.at(-1)!.authorization).toBe('Bearer sk-env-key-123456789');
      const anthropic = simpleFlow({ slug: 'anthropic-flow' });
      anthropic.nodes[1].data = { ...anthropic.nodes[1].data, provider: 'anthropic' };
      const refused = await fetch(`${base}/api/llm/acme/flows`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.manageToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(anthropic),
      });
      expect((await refused.json()).error.message).toBe('Node "answer": unknown provider "anthropic"');
    } finally {
      await app.close();
    }
  });
});
