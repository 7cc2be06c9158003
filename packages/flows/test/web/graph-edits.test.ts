import { describe, expect, it } from 'vitest';
import { canvasToDefinition, definitionToCanvas, type Canvas } from '../../web/src/canvas/convert.ts';
import type { Definition } from '../../web/src/canvas/definition.ts';
import {
  addNode,
  canWire,
  connect,
  copyNodes,
  idProblem,
  pasteNodes,
  removeElements,
  renameNode,
  setNodeData,
  uniqueId,
} from '../../web/src/canvas/graph-edits.ts';
import { layoutPositions } from '../../web/src/canvas/layout.ts';

function canvasOf(nodes: Array<[string, string, Record<string, unknown>?]>, edges: Array<[string, string]> = []): Canvas {
  const definition: Definition = {
    name: 'Test',
    nodes: nodes.map(([id, type, data], i) => ({ id, type: type as Definition['nodes'][number]['type'], data: data ?? {}, position: { x: i * 100, y: 0 } })),
    edges: edges.map(([from, to]) => ({ from, to })),
  };
  return definitionToCanvas(definition);
}

const def = (canvas: Canvas) => canvasToDefinition(canvas);
const wiring = (canvas: Canvas) => canvas.edges.map((e) => `${e.source}:${e.sourceHandle}>${e.target}:${e.targetHandle}`);

describe('wiring', () => {
  const base = () =>
    canvasOf(
      [
        ['input', 'input'],
        [
          'route',
          'switch',
          {
            cases: [
              { if: { left: '{{input.x}}', op: 'equals', right: 'a' }, then: '' },
              { if: { left: '{{input.x}}', op: 'exists' }, then: '' },
            ],
          },
        ],
        ['a', 'template', { template: 'A' }],
        ['b', 'template', { template: 'B' }],
        ['answer', 'llm', { provider: 'local', model: 'm' }],
        ['lookup', 'tool', { kind: 'http', name: 'lookup' }],
        ['helper', 'agent', { flow: 'helper' }],
        ['output', 'output', { format: 'raw' }],
      ],
      [['input', 'route']],
    );

  it("sets a case's then from its handle, with the edge; rewiring the case moves the edge", () => {
    let canvas = connect(base(), { source: 'route', sourceHandle: 'case-0', target: 'a', targetHandle: 'in' });
    expect((def(canvas).nodes[1].data.cases as Array<{ then: string }>)[0].then).toBe('a');
    expect(def(canvas).edges).toEqual([
      { from: 'input', to: 'route' },
      { from: 'route', to: 'a' },
    ]);
    expect(wiring(canvas)).toContain('route:case-0>a:in');

    canvas = connect(canvas, { source: 'route', sourceHandle: 'case-0', target: 'b' });
    expect(def(canvas).edges).toEqual([
      { from: 'input', to: 'route' },
      { from: 'route', to: 'b' },
    ]);
    expect((def(canvas).nodes[1].data.cases as Array<{ then: string }>)[0].then).toBe('b');

    canvas = connect(canvas, { source: 'route', sourceHandle: 'else', target: 'a' });
    expect(def(canvas).nodes[1].data.else).toBe('a');
    expect(wiring(canvas)).toEqual(['input:out>route:in', 'route:case-0>b:in', 'route:else>a:in']);
  });

  it('keeps an edge two branches share until neither names its target', () => {
    let canvas = connect(base(), { source: 'route', sourceHandle: 'case-0', target: 'a' });
    canvas = connect(canvas, { source: 'route', sourceHandle: 'case-1', target: 'a' });
    expect(def(canvas).edges).toEqual([
      { from: 'input', to: 'route' },
      { from: 'route', to: 'a' },
    ]);
    canvas = connect(canvas, { source: 'route', sourceHandle: 'case-0', target: 'b' });
    expect(def(canvas).edges).toEqual([
      { from: 'input', to: 'route' },
      { from: 'route', to: 'a' },
      { from: 'route', to: 'b' },
    ]);
  });

  it('wires tools and agents into an llm node through its tools handle, whichever handle they were dropped on', () => {
    let canvas = connect(base(), { source: 'lookup', target: 'answer', targetHandle: 'in' });
    canvas = connect(canvas, { source: 'helper', target: 'answer', targetHandle: 'tools' });
    expect(wiring(canvas).slice(1)).toEqual(['lookup:out>answer:tools', 'helper:out>answer:tools']);
    expect(def(canvas).edges.slice(1)).toEqual([
      { from: 'lookup', to: 'answer' },
      { from: 'helper', to: 'answer' },
    ]);
  });

  it('refuses wires into itself, a tool into anything but an llm node, anything into an Input or out of an Output, and no duplicates', () => {
    const canvas = base();
    expect(canWire(canvas, { source: 'a', target: 'a' })).toBe(false);
    expect(canWire(canvas, { source: 'lookup', target: 'a' })).toBe(false);
    expect(canWire(canvas, { source: 'a', target: 'input' })).toBe(false);
    expect(canWire(canvas, { source: 'output', target: 'a' })).toBe(false);
    expect(canWire(canvas, { source: 'a', target: 'answer', targetHandle: 'tools' })).toBe(false);
    expect(canWire(canvas, { source: 'a', target: 'b' })).toBe(true);
    const once = connect(canvas, { source: 'a', target: 'b' });
    expect(connect(once, { source: 'a', target: 'b' })).toBe(once);
  });

  it('a switch edited in the side panel gains the edge to its new branch and loses the one only the old branch had', () => {
    let canvas = connect(base(), { source: 'route', sourceHandle: 'case-0', target: 'a' });
    const data = def(canvas).nodes[1].data;
    canvas = setNodeData(canvas, 'route', { ...data, cases: [{ ...(data.cases as object[])[0], then: 'b' }, (data.cases as object[])[1]], else: 'a' });
    expect(wiring(canvas)).toEqual(['input:out>route:in', 'route:else>a:in', 'route:case-0>b:in']);
  });
});

describe('removing, renaming, copying', () => {
  it('removes a node with its edges, and the switch branch that named it', () => {
    let canvas = canvasOf(
      [
        ['input', 'input'],
        ['route', 'switch', { cases: [{ if: { left: 'x', op: 'exists' }, then: 'a' }], else: 'b' }],
        ['a', 'template'],
        ['b', 'template'],
      ],
      [
        ['input', 'route'],
        ['route', 'a'],
        ['route', 'b'],
      ],
    );
    canvas = removeElements(canvas, new Set(['a']), new Set());
    expect(def(canvas).nodes.map((n) => n.id)).toEqual(['input', 'route', 'b']);
    expect(def(canvas).edges).toEqual([
      { from: 'input', to: 'route' },
      { from: 'route', to: 'b' },
    ]);
    expect(def(canvas).nodes[1].data).toEqual({ cases: [{ if: { left: 'x', op: 'exists' }, then: '' }], else: 'b' });
    const elseEdge = canvas.edges.find((e) => e.target === 'b')!;
    canvas = removeElements(canvas, new Set(), new Set([elseEdge.id]));
    expect(def(canvas).nodes[1].data).toEqual({ cases: [{ if: { left: 'x', op: 'exists' }, then: '' }] });
    expect(def(canvas).edges).toEqual([{ from: 'input', to: 'route' }]);
  });

  it('renames a node: edges, branches and references follow; references to the input stay', () => {
    let canvas = canvasOf(
      [
        ['input', 'input', { variables: [{ name: 'q', type: 'string' }] }],
        ['answer', 'llm', { provider: 'p', model: 'm', prompt: '{{ input.q }} {{answer2.text}}' }],
        ['route', 'switch', { cases: [{ if: { left: '{{answer.text}}', op: 'exists' }, then: 'out' }], else: 'answer' }],
        ['out', 'output', { format: 'json_template', template: { a: '{{answer.text}}', b: ['{{ answer.usage }}'] } }],
      ],
      [
        ['input', 'answer'],
        ['answer', 'route'],
        ['route', 'out'],
      ],
    );
    const untouched = canvas.nodes[1].data.node.data;
    expect(idProblem(canvas, 'answer', 'out')).toBe('Another node is called "out"');
    expect(idProblem(canvas, 'answer', 'bad id')).toBe('Use 1-64 letters, digits, "_" or "-"');
    canvas = renameNode(canvas, 'answer', 'reply');
    const after = def(canvas);
    expect(after.nodes.map((n) => n.id)).toEqual(['input', 'reply', 'route', 'out']);
    expect(after.edges).toEqual([
      { from: 'input', to: 'reply' },
      { from: 'reply', to: 'route' },
      { from: 'route', to: 'out' },
    ]);
    expect(after.nodes[1].data).toBe(untouched);
    expect(after.nodes[2].data).toEqual({ cases: [{ if: { left: '{{reply.text}}', op: 'exists' }, then: 'out' }], else: 'reply' });
    expect(after.nodes[3].data).toEqual({ format: 'json_template', template: { a: '{{reply.text}}', b: ['{{ reply.usage }}'] } });
    canvas = renameNode(canvas, 'input', 'start');
    expect(def(canvas).nodes[1].data.prompt).toBe('{{ input.q }} {{answer2.text}}');
    expect(def(canvas).edges[0]).toEqual({ from: 'start', to: 'reply' });
  });

  it('pastes copies with new unique ids, offset, selected, their own edges and references renamed', () => {
    const canvas = canvasOf(
      [
        ['input', 'input'],
        ['draft', 'template', { template: '{{input.q}}' }],
        ['polish', 'llm', { provider: 'p', model: 'm', prompt: '{{draft.text}}' }],
      ],
      [
        ['input', 'draft'],
        ['draft', 'polish'],
      ],
    );
    const clip = copyNodes(canvas, new Set(['draft', 'polish']));
    const { canvas: pasted, ids } = pasteNodes(canvas, clip, { x: 40, y: 40 });
    expect(ids).toEqual(['draft_2', 'polish_2']);
    const after = def(pasted);
    expect(after.nodes.map((n) => n.id)).toEqual(['input', 'draft', 'polish', 'draft_2', 'polish_2']);
    expect(after.nodes[4].data).toEqual({ provider: 'p', model: 'm', prompt: '{{draft_2.text}}' });
    expect(after.nodes[3].position).toEqual({ x: 140, y: 40 });
    expect(after.edges).toEqual([
      { from: 'input', to: 'draft' },
      { from: 'draft', to: 'polish' },
      { from: 'draft_2', to: 'polish_2' },
    ]);
    expect(pasted.nodes.filter((n) => n.selected).map((n) => n.id)).toEqual(['draft_2', 'polish_2']);
    expect(pasteNodes(pasted, clip, { x: 80, y: 80 }).ids).toEqual(['draft_3', 'polish_3']);
  });

  it('adds nodes with the next free id of their kind, alone selected', () => {
    expect(uniqueId('llm', new Set(['llm', 'llm_2']))).toBe('llm_3');
    const first = addNode(canvasOf([['llm', 'llm']]), 'llm', { x: 5, y: 6 });
    expect(first.id).toBe('llm_2');
    expect(def(first.canvas).nodes[1]).toEqual({
      id: 'llm_2',
      type: 'llm',
      data: { provider: '', model: '', prompt: '{{input.message}}' },
      position: { x: 5, y: 6 },
    });
    const tool = addNode(first.canvas, 'mcp_tool', { x: 0, y: 0 });
    expect(tool.canvas.nodes.map((n) => [n.id, n.type, Boolean(n.selected)])).toEqual([
      ['llm', 'llm', false],
      ['llm_2', 'llm', false],
      ['mcp_tool', 'mcp_tool', true],
    ]);
  });

  it('lays nodes out left to right along the edges', () => {
    const positions = layoutPositions(
      ['a', 'b', 'c'].map((id) => ({ id, width: 200, height: 60 })),
      [
        { source: 'a', target: 'b' },
        { source: 'b', target: 'c' },
      ],
    );
    const [a, b, c] = ['a', 'b', 'c'].map((id) => positions.get(id)!);
    expect(a.x).toBeLessThan(b.x);
    expect(b.x).toBeLessThan(c.x);
    expect(a.y).toBe(b.y);
    expect(Number.isInteger(a.x) && Number.isInteger(a.y)).toBe(true);
  });
});
