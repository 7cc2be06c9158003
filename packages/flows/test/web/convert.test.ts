import { describe, expect, it } from 'vitest';
import { canvasToDefinition, definitionToCanvas, edgeHandles, type Canvas } from '../../web/src/canvas/convert.ts';
import type { Definition } from '../../web/src/canvas/definition.ts';
import { filterKinds, kindOf, summaryOf } from '../../web/src/canvas/kinds.ts';
import { everyNodeType } from './fixtures.ts';

const definition = () => everyNodeType() as unknown as Definition;

describe('definition ↔ canvas', () => {
  it('round-trips a definition exactly: node and edge order, data objects, extra keys, saved positions', () => {
    const original = definition();
    const canvas = definitionToCanvas(original);
    const back = canvasToDefinition(canvas);

    expect(back.nodes.map((n) => n.id)).toEqual(original.nodes.map((n) => n.id));
    expect(back.edges).toEqual(original.edges);
    back.nodes.forEach((node, index) => {
      // The very same data object: nothing on the way rewrote a setting.
      expect(node.data).toBe(original.nodes[index].data);
      const { position, ...rest } = node;
      const { position: saved, ...expected } = original.nodes[index];
      expect(rest).toEqual(expected);
      if (saved) expect(position).toEqual(saved);
    });
    expect(back.nodes.find((n) => n.id === 'answer')!.label).toBe('Answer');
    expect(back.edges[4]).toEqual({ from: 'route', to: 'greet', note: 'greetings' });
    expect(back.owner).toBe('tests');
    expect(back).toEqual({ ...original, nodes: original.nodes.map((n, i) => ({ ...n, position: back.nodes[i].position })) });
  });

  it('adds a position to every node saved without one, from the placer', () => {
    const canvas = definitionToCanvas(definition(), (missing) => new Map(missing.map((n, i) => [n.id, { x: 1000 + i, y: 7 }])));
    const back = canvasToDefinition(canvas);
    expect(back.nodes.find((n) => n.id === 'greet')!.position).toEqual({ x: 1000, y: 7 });
    expect(back.nodes.find((n) => n.id === 'lookup')!.position).toEqual({ x: 1001, y: 7 });
    expect(back.nodes.find((n) => n.id === 'input')!.position).toEqual({ x: 0, y: 120 });
  });

  it('draws each node as its palette kind and each edge between the handles its meaning gives', () => {
    const canvas: Canvas = definitionToCanvas(definition());
    expect(canvas.nodes.map((n) => n.type)).toEqual(['input', 'retrieval', 'switch', 'llm', 'agent', 'template', 'http_tool', 'mcp_tool', 'output']);
    const handles = canvas.edges.map((e) => `${e.source}:${e.sourceHandle}>${e.target}:${e.targetHandle}`);
    expect(handles).toEqual([
      'input:out>docs:in',
      'docs:out>route:in',
      'route:else>answer:in',
      'route:case-0>expert:in',
      'route:case-1>greet:in',
      'lookup:out>answer:tools',
      'mcp:out>answer:tools',
      'answer:out>output:in',
      'expert:out>output:in',
      'greet:out>output:in',
    ]);
  });

  it('wires an agent into an llm node as its tool, and a switch edge no branch names to its first handle', () => {
    const agent = { id: 'a', type: 'agent' as const, data: { flow: 'x' } };
    const llm = { id: 'l', type: 'llm' as const, data: {} };
    expect(edgeHandles(agent, llm)).toEqual({ sourceHandle: 'out', targetHandle: 'tools' });
    expect(edgeHandles({ id: 's', type: 'switch', data: { cases: [{ then: 'z' }] } }, llm)).toEqual({ sourceHandle: null, targetHandle: 'in' });
  });
});

describe('palette', () => {
  it('names each kind, tells tools apart by their kind and summarises settings on one line', () => {
    expect(filterKinds('').map((k) => k.name)).toEqual(['Input', 'LLM', 'Retrieval', 'Switch', 'Agent', 'HTTP tool', 'MCP tool', 'Template', 'Output']);
    expect(filterKinds('tool').map((k) => k.name)).toEqual(['LLM', 'Agent', 'HTTP tool', 'MCP tool']);
    expect(filterKinds('  mcp ').map((k) => k.name)).toEqual(['MCP tool']);
    expect(filterKinds('nothing like it')).toEqual([]);
    const nodes = definition().nodes;
    expect(nodes.map((n) => kindOf(n))).toEqual(['input', 'retrieval', 'switch', 'llm', 'agent', 'template', 'http_tool', 'mcp_tool', 'output']);
    expect(nodes.map((n) => summaryOf(n))).toEqual([
      'question, tier, max_items, verbose, filters, tags',
      'handbook · top 4',
      '2 cases + else',
      'local · echo',
      'runs expert-bot',
      'Hello! You asked: {{input.question}}',
      'lookup_order · GET https://shop.example/orders/{{args.order_id}}',
      'https://mcp.example/mcp · 1 allowed',
      'json_template',
    ]);
  });
});
