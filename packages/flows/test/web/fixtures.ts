// Definitions the builder's tests share: one with every node type (valid on a service whose
// organization has the provider `local`), and big generated ones for the canvas benchmarks.

/** A flow using every node type and palette entry, with a client's own keys and some nodes without a position. */
export function everyNodeType(slug = 'every-node') {
  return {
    name: 'Every node',
    slug,
    description: 'Uses every node type',
    nodes: [
      {
        id: 'input',
        type: 'input',
        data: {
          variables: [
            { name: 'question', type: 'string', required: true, description: "The user's question", min_length: 1, max_length: 500 },
            { name: 'tier', type: 'enum', values: ['free', 'pro'], default: 'free' },
            { name: 'max_items', type: 'integer', minimum: 1, maximum: 10 },
            { name: 'verbose', type: 'boolean', default: false },
            { name: 'filters', type: 'object' },
            { name: 'tags', type: 'array' },
          ],
        },
        position: { x: 0, y: 120 },
      },
      { id: 'docs', type: 'retrieval', data: { knowledge_base: 'handbook', query: '{{input.question}}', top_k: 4 }, position: { x: 300, y: 120 } },
      {
        id: 'route',
        type: 'switch',
        data: {
          cases: [
            { if: { left: '{{input.tier}}', op: 'equals', right: 'pro' }, then: 'expert' },
            { if: { left: '{{input.question}}', op: 'matches', right: '^hi' }, then: 'greet' },
          ],
          else: 'answer',
        },
        position: { x: 600, y: 120 },
      },
      {
        id: 'answer',
        type: 'llm',
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
        position: { x: 900, y: 240 },
        label: 'Answer',
      },
      { id: 'expert', type: 'agent', data: { flow: 'expert-bot', input: { question: '{{input.question}}' } }, position: { x: 900, y: 0 } },
      { id: 'greet', type: 'template', data: { template: 'Hello! You asked: {{input.question}}' } },
      {
        id: 'lookup',
        type: 'tool',
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
        id: 'mcp',
        type: 'tool',
        data: { kind: 'mcp', url: 'https://mcp.example/mcp', headers: { 'x-team': 'support' }, allow: ['search'] },
        position: { x: 900, y: 420 },
      },
      {
        id: 'output',
        type: 'output',
        data: { format: 'json_template', template: { answer: '{{answer.text}}', chunks: '{{docs.chunks}}' } },
        position: { x: 1200, y: 120 },
      },
    ],
    edges: [
      { from: 'input', to: 'docs' },
      { from: 'docs', to: 'route' },
      { from: 'route', to: 'answer' },
      { from: 'route', to: 'expert' },
      { from: 'route', to: 'greet', note: 'greetings' },
      { from: 'lookup', to: 'answer' },
      { from: 'mcp', to: 'answer' },
      { from: 'answer', to: 'output' },
      { from: 'expert', to: 'output' },
      { from: 'greet', to: 'output' },
    ],
    owner: 'tests',
  };
}

/**
 * A valid flow of `size` nodes: Input, then chains of templates and llm nodes
 * fanning out in 10 lanes, joined by one Output (no positions: the builder lays it out).
 */
export function bigFlow(size: number, slug = `big-${size}`) {
  const nodes: Array<{ id: string; type: string; data: Record<string, unknown> }> = [
    { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
  ];
  const edges: Array<{ from: string; to: string }> = [];
  const lanes = 10;
  const perLane = Math.floor((size - 2) / lanes);
  const last: string[] = [];
  for (let lane = 0; lane < lanes; lane += 1) {
    let previous = 'input';
    const count = lane < lanes - 1 ? perLane : size - 2 - perLane * (lanes - 1);
    for (let step = 0; step < count; step += 1) {
      const id = `n${lane}_${step}`;
      const llm = step % 3 === 1;
      nodes.push(
        llm
          ? { id, type: 'llm', data: { provider: 'local', model: 'echo', prompt: `{{${previous === 'input' ? 'input.question' : `${previous}.text`}}}` } }
          : { id, type: 'template', data: { template: `Step ${step} of lane ${lane}: {{${previous === 'input' ? 'input.question' : `${previous}.text`}}}` } },
      );
      edges.push({ from: previous, to: id });
      previous = id;
    }
    last.push(previous);
  }
  nodes.push({ id: 'output', type: 'output', data: { format: 'raw' } });
  for (const id of last) edges.push({ from: id, to: 'output' });
  return { name: `Big flow ${size}`, slug, nodes, edges };
}
