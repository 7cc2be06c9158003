import { describe, expect, it } from 'vitest';
import { validateDefinition } from '../src/domain/flow-validation.ts';
import { compileFlow } from '../src/domain/compiled-flow.ts';

const context = { providers: new Set(['local']) };

function flow(extra: Array<{ id: string; type: string; data: Record<string, unknown> }>, edges: Array<{ from: string; to: string }>) {
  return {
    name: 'Agentic',
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
      ...extra,
      { id: 'answer', type: 'llm', data: { provider: 'local', model: 'm', prompt: '{{input.question}}' } },
      { id: 'output', type: 'output', data: { format: 'raw' } },
    ],
    edges: [{ from: 'input', to: 'answer' }, ...edges, { from: 'answer', to: 'output' }],
  };
}

function problems(raw: unknown): string[] {
  try {
    validateDefinition(raw, context);
    return [];
  } catch (error) {
    return ((error as { details: Array<{ message: string }> }).details ?? []).map((d) => d.message);
  }
}

describe('validation of tool, agent and retrieval nodes', () => {
  it('accepts the node types of the design, with {{args.X}} inside tool requests only', () => {
    const definition = flow(
      [
        { id: 'docs', type: 'retrieval', data: { knowledge_base: 'handbook', query: '{{input.question}}', top_k: 4 } },
        {
          id: 'lookup',
          type: 'tool',
          data: {
            kind: 'http',
            name: 'lookup_order',
            parameters: { type: 'object', properties: { id: { type: 'string' } } },
            request: { method: 'GET', url: 'https://shop.example/orders/{{args.id}}?q={{input.question}}' },
          },
        },
        { id: 'board', type: 'tool', data: { kind: 'mcp', url: 'http://10.0.0.5/mcp', headers: { Authorization: 'Bearer x' }, allow: ['create_ticket'] } },
        { id: 'expert', type: 'agent', data: { flow: 'expert-bot', input: { question: '{{input.question}}' } } },
      ],
      [
        { from: 'input', to: 'docs' },
        { from: 'docs', to: 'answer' },
        { from: 'lookup', to: 'answer' },
        { from: 'board', to: 'answer' },
        { from: 'expert', to: 'answer' },
      ],
    );
    expect(problems(definition)).toEqual([]);
    const compiled = compileFlow(validateDefinition(definition, context));
    expect(compiled.tools.toolsOf.get('answer')).toEqual(['lookup', 'board', 'expert']);
    // Tool edges are calls, not steps: the llm node waits for the input and the retrieval only.
    expect(compiled.graph.predecessors.get('answer')).toEqual(['input', 'docs']);
  });

  it('lists every malformed setting, naming the node', () => {
    const definition = flow(
      [
        { id: 'docs', type: 'retrieval', data: { knowledge_base: '', query: 3, top_k: 99 } },
        { id: 'expert', type: 'agent', data: { flow: 'Not A Slug', input: [] } },
        { id: 'hook', type: 'tool', data: { kind: 'mcp', url: 'file:///etc/passwd', allow: 'all' } },
      ],
      [
        { from: 'input', to: 'docs' },
        { from: 'docs', to: 'answer' },
        { from: 'input', to: 'expert' },
        { from: 'expert', to: 'answer' },
        { from: 'hook', to: 'answer' },
      ],
    );
    expect(problems(definition)).toEqual([
      'Node "docs": "knowledge_base" must name a knowledge base',
      'Node "docs": "query" must be a non-empty string',
      'Node "docs": "top_k" must be an integer from 1 to 50',
      'Node "expert": "flow" must be the slug of a flow of this organization',
      'Node "expert": "input" must be an object mapping the flow\'s input variables',
      'Node "hook": "url" must be the http(s) URL of an MCP server (Streamable HTTP)',
      'Node "hook": "allow" must be an array of tool names',
    ]);
  });

  it('refuses {{args.X}} outside tool nodes and references to fields a node type lacks', () => {
    const definition = flow(
      [
        { id: 'docs', type: 'retrieval', data: { knowledge_base: 'kb', query: '{{args.q}}' } },
        { id: 'note', type: 'template', data: { template: '{{docs.score}}' } },
      ],
      [
        { from: 'input', to: 'docs' },
        { from: 'docs', to: 'note' },
        { from: 'note', to: 'answer' },
      ],
    );
    expect(problems(definition)).toEqual([
      'Node "docs": unknown reference {{args.q}}: no node "args"',
      'Node "note": unknown reference {{docs.score}}: a retrieval node has no field "score" (it has text, chunks)',
    ]);
  });
});
