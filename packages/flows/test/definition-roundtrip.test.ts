import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startHarness, simpleFlow, type Harness } from './helpers/harness.ts';

/** A definition using every node type (both tool kinds), each node placed on the canvas. */
function everyNodeType(slug: string) {
  return {
    name: 'Every node',
    slug,
    description: 'One of each node type',
    nodes: [
      {
        id: 'input',
        type: 'input',
        position: { x: 0, y: 120.5 },
        data: {
          variables: [
            { name: 'question', type: 'string', required: true, description: "The user's question", min_length: 1, max_length: 2000 },
            { name: 'tier', type: 'enum', values: ['free', 'pro'], default: 'free' },
            { name: 'max_items', type: 'integer', minimum: 1, maximum: 10 },
            { name: 'verbose', type: 'boolean' },
            { name: 'ratio', type: 'number' },
            { name: 'filters', type: 'object' },
            { name: 'tags', type: 'array' },
          ],
        },
      },
      { id: 'docs', type: 'retrieval', position: { x: 250, y: 120.5 }, data: { knowledge_base: 'handbook', query: '{{input.question}}', top_k: 4 } },
      {
        id: 'route',
        type: 'switch',
        position: { x: 500, y: 120.5 },
        data: { cases: [{ if: { left: '{{input.tier}}', op: 'equals', right: 'pro' }, then: 'expert' }], else: 'answer' },
      },
      {
        id: 'answer',
        type: 'llm',
        position: { x: 750, y: 0 },
        data: {
          provider: 'local',
          model: 'echo',
          system: 'You answer from the handbook.\n{{docs.text}}',
          prompt: '{{input.question}}',
          temperature: 0.2,
          max_tokens: 512,
          memory: { window: 20 },
          max_steps: 5,
        },
      },
      {
        id: 'expert',
        type: 'agent',
        position: { x: 750, y: 240 },
        data: { flow: 'expert-bot', input: { question: '{{input.question}}' }, name: 'ask_expert', description: 'Asks the expert' },
      },
      {
        id: 'lookup',
        type: 'tool',
        position: { x: 500, y: -150 },
        data: {
          kind: 'http',
          name: 'lookup_order',
          description: 'Look up an order by its id',
          parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
          request: { method: 'GET', url: 'https://shop.example/orders/{{args.order_id}}', headers: { accept: 'application/json' } },
          timeout_ms: 5000,
        },
      },
      {
        id: 'search',
        type: 'tool',
        position: { x: 500, y: -300 },
        data: { kind: 'mcp', url: 'https://mcp.example/mcp', headers: { 'x-team': 'support' }, allow: ['search'] },
      },
      { id: 'summary', type: 'template', position: { x: 1000, y: 0 }, data: { template: 'Q: {{input.question}}\nA: {{answer.text}}' } },
      {
        id: 'output',
        type: 'output',
        position: { x: 1250, y: 120.5 },
        data: { format: 'json_template', template: { answer: '{{summary.text}}', sources: '{{docs.chunks}}' } },
      },
    ],
    edges: [
      { from: 'input', to: 'docs' },
      { from: 'docs', to: 'route' },
      { from: 'route', to: 'answer' },
      { from: 'route', to: 'expert' },
      { from: 'lookup', to: 'answer' },
      { from: 'search', to: 'answer' },
      { from: 'answer', to: 'summary' },
      { from: 'summary', to: 'output' },
      { from: 'expert', to: 'output' },
    ],
  };
}

describe.each(dialectsUnderTest())('flow definitions round trip on %s', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(dialect);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('returns a definition using every node type exactly as imported, and saving it unchanged keeps it so', async () => {
    const imported = everyNodeType('every-node');
    const created = await h.post('/api/llm/acme/flows', imported);
    expect(created.status).toBe(201);
    const first = await (await h.get('/api/llm/acme/flows/every-node')).json();
    expect(first.definition).toEqual(imported);

    // What a builder does: load, change nothing, save.
    const resaved = await h.put('/api/llm/acme/flows/every-node', first.definition);
    expect(resaved.status).toBe(200);
    const second = await (await h.get('/api/llm/acme/flows/every-node')).json();
    expect(second.version).toBe(2);
    expect(second.definition).toEqual(first.definition);
    expect(second.definition.nodes).toEqual(imported.nodes);
    expect(second.definition.edges).toEqual(imported.edges);
    // Key order too: an export diffs cleanly against the file it came from.
    expect(JSON.stringify(second.definition)).toBe(JSON.stringify(imported));
  });

  it("keeps keys the format does not define (a label on a node, an id on an edge, the builder's own settings) as saved", async () => {
    const flow = simpleFlow({ slug: 'with-extras', format: 'raw' });
    const definition = {
      ...flow,
      ui: { zoom: 1.25, viewport: { x: -10, y: 4 } },
      nodes: flow.nodes.map((n, i) => ({ ...n, label: `Step ${i}`, position: { x: i * 200, y: 0 }, data: { ...n.data, notes: 'kept in data too' } })),
      edges: flow.edges.map((e, i) => ({ id: `e${i}`, ...e, animated: true })),
    };
    expect((await h.post('/api/llm/acme/flows', definition)).status).toBe(201);
    expect((await (await h.get('/api/llm/acme/flows/with-extras')).json()).definition).toEqual(definition);
    // Execution ignores them all.
    const run = await h.post('/api/llm/acme/flows/with-extras/run', { input: { question: 'placed?' } }, h.runToken);
    expect([run.status, await run.text()]).toEqual([200, 'Echo: placed?']);
  });

  it('refuses a position that is not two finite numbers, naming the node', async () => {
    const message = 'Node "answer": "position" must be {"x": number, "y": number}';
    const refused = {
      error: { message, type: 'invalid_request_error', param: 'nodes[1].position', code: 'invalid_flow', details: [{ param: 'nodes[1].position', message }] },
    };
    const withPosition = (position: string) => {
      const flow = simpleFlow({ slug: 'bad-position' });
      // Raw JSON text: 1e999 parses to Infinity, which JSON.stringify cannot send.
      return JSON.stringify(flow).replace('"id":"answer",', `"id":"answer","position":${position},`);
    };
    for (const position of ['{"x":"1","y":2}', '{"x":1}', '[1,2]', '{"x":1,"y":2,"z":3}', '{"x":1e999,"y":0}', 'null', '{"x":1,"y":true}']) {
      const response = await fetch(`${h.base}/api/llm/acme/flows`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.manageToken}`, 'content-type': 'application/json' },
        body: withPosition(position),
      });
      expect([position, response.status, await response.json()]).toEqual([position, 422, refused]);
    }
  });

  it('refuses a key of its own that nests too deep to store, naming it', async () => {
    const flow = simpleFlow({ slug: 'too-deep' });
    const deep = JSON.parse('['.repeat(70) + ']'.repeat(70));
    const message = 'Node "input": "label" nests deeper than 64 levels';
    const response = await h.post('/api/llm/acme/flows', { ...flow, nodes: flow.nodes.map((n) => (n.id === 'input' ? { ...n, label: deep } : n)) });
    expect([response.status, await response.json()]).toEqual([
      422,
      { error: { message, type: 'invalid_request_error', param: 'nodes[0].label', code: 'invalid_flow', details: [{ param: 'nodes[0].label', message }] } },
    ]);
  });
});
