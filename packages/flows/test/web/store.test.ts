import { describe, expect, it } from 'vitest';
import type { Definition } from '../../web/src/canvas/definition.ts';
import { checkDefinition } from '../../web/src/builder/problems.ts';
import { BuilderStore } from '../../web/src/builder/store.ts';
import { applyCompletion, completionSpot, matchOptions, referenceOptions } from '../../web/src/builder/references.ts';
import { everyNodeType } from './fixtures.ts';

function starter(): Definition {
  return {
    name: 'Starter',
    slug: 'starter',
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'message', type: 'string', required: true }] }, position: { x: 0, y: 0 } },
      { id: 'output', type: 'output', data: { format: 'raw' }, position: { x: 400, y: 0 } },
    ],
    edges: [{ from: 'input', to: 'output' }],
  };
}

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('builder store', () => {
  it('undoes and redoes edits; the canvas is unsaved until it is back where it was saved', () => {
    const time = clock();
    const store = new BuilderStore(starter(), 1, time.now);
    const id = store.addNode('llm', { x: 200, y: 0 });
    expect(store.getState().dirty).toBe(true);
    expect(store.definition().nodes.map((n) => n.id)).toEqual(['input', 'output', 'llm']);
    store.undo();
    expect(store.definition().nodes.map((n) => n.id)).toEqual(['input', 'output']);
    expect(store.getState()).toMatchObject({ canUndo: false, canRedo: true, dirty: false });
    store.redo();
    expect(store.definition().nodes.map((n) => n.id)).toEqual(['input', 'output', id]);
    expect(store.getState()).toMatchObject({ canUndo: true, canRedo: false, dirty: true });
  });

  it('makes one undo step of typing in one field and of one drag, and none of selecting', () => {
    const time = clock();
    const store = new BuilderStore(starter(), 1, time.now);
    for (const text of ['H', 'He', 'Hey']) {
      store.setNodeData('output', { format: 'raw', note: text }, 'note');
      time.advance(200);
    }
    time.advance(2000);
    store.setNodeData('output', { format: 'chat_completion', note: 'Hey' }, 'format');
    store.applyNodeChanges([{ type: 'select', id: 'input', selected: true }]);
    store.applyNodeChanges([{ type: 'position', id: 'input', position: { x: 10, y: 0 }, dragging: true }]);
    store.applyNodeChanges([{ type: 'position', id: 'input', position: { x: 20, y: 5 }, dragging: true }]);
    store.applyNodeChanges([{ type: 'position', id: 'input', position: { x: 30, y: 5 }, dragging: false }]);
    expect(store.definition().nodes[0].position).toEqual({ x: 30, y: 5 });
    const structure = store.getState().structure;
    store.undo();
    expect(store.definition().nodes[0].position).toEqual({ x: 0, y: 0 });
    store.undo();
    expect(store.definition().nodes[1].data).toEqual({ format: 'raw', note: 'Hey' });
    store.undo();
    expect(store.definition().nodes[1].data).toEqual({ format: 'raw' });
    expect(store.getState().canUndo).toBe(false);
    expect(structure).toBeGreaterThan(0);
  });

  it('moves do not change the structure that validation depends on', () => {
    const store = new BuilderStore(starter(), 1);
    const before = store.getState().structure;
    store.applyNodeChanges([{ type: 'position', id: 'input', position: { x: 10, y: 0 }, dragging: true }]);
    store.applyNodeChanges([{ type: 'position', id: 'input', position: { x: 12, y: 0 }, dragging: false }]);
    expect(store.getState().structure).toBe(before);
    expect(store.getState().revision).toBe(2);
  });

  it('copies and pastes the selected nodes; deletes the selection', () => {
    const store = new BuilderStore(starter(), 1);
    const llm = store.addNode('llm', { x: 200, y: 0 });
    const clip = store.copySelected()!;
    expect(store.paste(clip)).toEqual(['llm_2']);
    expect(store.definition().nodes.map((n) => [n.id, n.position])).toEqual([
      ['input', { x: 0, y: 0 }],
      ['output', { x: 400, y: 0 }],
      [llm, { x: 200, y: 0 }],
      ['llm_2', { x: 240, y: 40 }],
    ]);
    store.removeSelected();
    expect(store.definition().nodes.map((n) => n.id)).toEqual(['input', 'output', 'llm']);
    store.select([]);
    expect(store.copySelected()).toBeUndefined();
  });

  it("clears the last run's node states when the flow changes (an edit, undo, an import), not when nodes only move", () => {
    const store = new BuilderStore(starter(), 1);
    const ran = { input: 'finished', output: 'failed' } as const;
    store.setStatus(ran, true);
    store.moveNodes(new Map([['output', { x: 480, y: 40 }]]));
    expect(store.getState().status).toEqual(ran);
    store.setNodeData('output', { format: 'chat_completion' }, 'format');
    expect(store.getState().status).toEqual({});
    store.setStatus(ran, true);
    store.undo();
    expect(store.getState().status).toEqual({});
    store.setStatus(ran, true);
    store.replaceDefinition(starter());
    expect(store.getState().status).toEqual({});
  });

  it('keeps the measured size of the nodes an import or a reload keeps (React Flow does not measure them again)', () => {
    const store = new BuilderStore(starter(), 1);
    store.applyNodeChanges([{ type: 'dimensions', id: 'input', dimensions: { width: 220, height: 51 } }]);
    const imported = {
      ...starter(),
      nodes: [...starter().nodes, { id: 'extra', type: 'template' as const, data: { template: 'x' }, position: { x: 800, y: 0 } }],
    };
    store.replaceDefinition(imported);
    expect(store.getState().nodes.map((n) => [n.id, n.measured])).toEqual([
      ['input', { width: 220, height: 51 }],
      ['output', undefined],
      ['extra', undefined],
    ]);
    store.load(starter(), 2);
    expect(store.getState().nodes.map((n) => [n.id, n.measured])).toEqual([
      ['input', { width: 220, height: 51 }],
      ['output', undefined],
    ]);
  });

  it('is saved after markSaved, and load starts a new history', () => {
    const store = new BuilderStore(starter(), 1);
    store.setMeta({ name: 'Renamed' }, 'name');
    store.markSaved(2, store.definition());
    expect(store.getState()).toMatchObject({ version: 2, dirty: false, canUndo: true });
    store.load(everyNodeType() as unknown as Definition, 5);
    expect(store.getState()).toMatchObject({ version: 5, dirty: false, canUndo: false, canRedo: false });
  });

  it("lists the server's validation problems by node: a dangling reference, a cycle; the server's 422 until the next edit", () => {
    const store = new BuilderStore(starter(), 1);
    store.setNodeData('output', { format: 'json_template', template: { a: '{{ghost.text}}' } });
    let definition = store.definition();
    store.setCheckedProblems(checkDefinition(definition, new Set(['local'])), definition);
    expect(store.getState().problems.list).toEqual([
      { param: 'nodes[1].data', message: 'Node "output": unknown reference {{ghost.text}}: no node "ghost"', node: 'output', fromServer: false },
    ]);
    expect(store.getState().problems.byNode).toEqual({ output: 'Node "output": unknown reference {{ghost.text}}: no node "ghost"' });

    const a = store.addNode('template', { x: 0, y: 100 }, { template: 'a' });
    const b = store.addNode('template', { x: 0, y: 200 }, { template: 'b' });
    store.connect({ source: a, target: b });
    store.connect({ source: b, target: a });
    definition = store.definition();
    store.setCheckedProblems(checkDefinition(definition, new Set(['local'])), definition);
    expect(store.getState().problems.list.map((p) => [p.node, p.message])).toEqual([
      ['template', 'Node "template": part of a cycle ("template", "template_2")'],
    ]);

    store.setServerProblems([{ param: 'nodes[0].data.flow', message: 'Node "input": only the server knows' }], definition);
    expect(store.getState().problems.list.map((p) => [p.node, p.fromServer])).toEqual([
      ['template', false],
      ['input', true],
    ]);
    store.setMeta({ name: 'x' });
    store.setCheckedProblems([], store.definition());
    expect(store.getState().problems.list).toEqual([]);
  });
});

describe('reference completions', () => {
  const flow = everyNodeType() as unknown as Definition;

  it('offers input variables, upstream outputs and metadata; args inside a tool', () => {
    const values = (id: string) => referenceOptions(flow.nodes, flow.edges, id).map((o) => o.value);
    expect(values('answer')).toEqual([
      'input.question',
      'input.tier',
      'input.max_items',
      'input.verbose',
      'input.filters',
      'input.tags',
      'docs.text',
      'docs.chunks',
      'route.branch',
      'metadata.session_id',
    ]);
    expect(values('lookup')).toContain('args.order_id');
    expect(values('docs')).not.toContain('route.branch');
  });

  it('finds the reference being typed after {{ and completes it, closing the braces once', () => {
    expect(completionSpot('Hi {{ inp', 9)).toEqual({ start: 6, query: 'inp' });
    expect(completionSpot('Hi {{input.q}} there', 20)).toBeUndefined();
    expect(completionSpot('no braces', 3)).toBeUndefined();
    const spot = completionSpot('Hi {{inp', 8)!;
    expect(applyCompletion('Hi {{inp', 8, spot, 'input.question')).toEqual({ text: 'Hi {{input.question}}', caret: 21 });
    expect(applyCompletion('Hi {{inp}} x', 8, spot, 'input.question')).toEqual({ text: 'Hi {{input.question}} x', caret: 21 });
    const options = referenceOptions(flow.nodes, flow.edges, 'answer');
    expect(matchOptions(options, 'text').map((o) => o.value)).toEqual(['docs.text']);
    expect(matchOptions(options, 'input.t').map((o) => o.value)).toEqual(['input.tier', 'input.tags']);
  });
});
