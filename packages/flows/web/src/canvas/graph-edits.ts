// Edits of the canvas graph, each a pure function from one Canvas to the next: adding and wiring nodes,
// renaming and removing them, copying and pasting. They keep a definition's own rules in step (a switch's
// `then`/`else` follow its wiring; references follow a renamed node), so what is drawn is what is saved.
import { canvasEdge, canvasNode, definitionNodesById, withHandles, type Canvas, type CanvasEdge, type CanvasNode } from './convert.ts';
import type { DefEdge, DefNode, XY } from './definition.ts';
import { KIND_INFO, type NodeKind } from './kinds.ts';

// The ids a canvas can hold (the server's rule too): two nodes with one id cannot be drawn at all.
const NODE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `base`, else `base_2`, `base_3`… (a copy of `llm_2` becomes `llm_3`), whichever is free. */
export function uniqueId(base: string, taken: ReadonlySet<string>): string {
  const stem = base.replace(/_\d+$/, '') || 'node';
  if (!taken.has(stem)) return stem;
  for (let n = 2; ; n += 1) if (!taken.has(`${stem}_${n}`)) return `${stem}_${n}`;
}

/** An edge id not used by `edges`. */
function newEdgeId(edges: readonly CanvasEdge[], from: string, to: string): string {
  const taken = new Set(edges.map((e) => e.id));
  for (let n = 1; ; n += 1) if (!taken.has(`${from}>${to}#${n}`)) return `${from}>${to}#${n}`;
}

/** The canvas with node `id`'s definition node replaced. */
function replaceNode(nodes: CanvasNode[], id: string, update: (node: DefNode) => DefNode): CanvasNode[] {
  return nodes.map((n) => (n.id === id ? { ...n, data: { ...n.data, node: update(n.data.node) } } : n));
}

/** Adds a node of `kind` at `position`, selected alone; `data` overrides the kind's defaults. */
export function addNode(canvas: Canvas, kind: NodeKind, position: XY, data?: Record<string, unknown>): { canvas: Canvas; id: string } {
  const info = KIND_INFO[kind];
  const id = uniqueId(info.idBase, new Set(canvas.nodes.map((n) => n.id)));
  const node = { ...canvasNode({ id, type: info.type, data: data ?? info.defaults() }, position), selected: true };
  return { canvas: { ...canvas, nodes: [...canvas.nodes.map(deselect), node], edges: canvas.edges.map(deselectEdge) }, id };
}

function deselect(node: CanvasNode): CanvasNode {
  return node.selected ? { ...node, selected: false } : node;
}

function deselectEdge(edge: CanvasEdge): CanvasEdge {
  return edge.selected ? { ...edge, selected: false } : edge;
}

/** Node ids a switch's branches name (cases' `then`, and `else`). */
function branchTargets(data: Record<string, unknown>): Set<string> {
  const cases = Array.isArray(data.cases) ? (data.cases as Array<{ then?: unknown } | null>) : [];
  const targets = [...cases.map((c) => c?.then), data.else].filter((t): t is string => typeof t === 'string' && t !== '');
  return new Set(targets);
}

/**
 * Sets a node's settings. For a switch, its edges follow its branches: an
 * edge is added to each node a branch now names, and an edge to a node that
 * only a changed branch named is removed.
 */
export function setNodeData(canvas: Canvas, id: string, data: Record<string, unknown>): Canvas {
  const current = canvas.nodes.find((n) => n.id === id);
  if (!current) return canvas;
  const nodes = replaceNode(canvas.nodes, id, (node) => ({ ...node, data }));
  let edges = canvas.edges;
  if (current.data.node.type === 'switch') {
    const ids = new Set(nodes.map((n) => n.id));
    const before = branchTargets(current.data.node.data);
    const after = branchTargets(data);
    edges = edges.filter((e) => !(e.source === id && before.has(e.target) && !after.has(e.target)));
    for (const target of after) {
      if (!ids.has(target) || target === id || edges.some((e) => e.source === id && e.target === target)) continue;
      edges = [...edges, canvasEdge({ from: id, to: target }, newEdgeId(edges, id, target), definitionNodesById(nodes))];
    }
  }
  return { ...canvas, nodes, edges: withHandles(edges, definitionNodesById(nodes)) };
}

/** A connection dragged on the canvas. */
export interface Wire {
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

/** Whether a wire may be made: not into itself, a tool only into an llm node, nothing into an Input or out of an Output. */
export function canWire(canvas: Canvas, wire: Wire): boolean {
  const from = canvas.nodes.find((n) => n.id === wire.source)?.data.node;
  const to = canvas.nodes.find((n) => n.id === wire.target)?.data.node;
  return wireAllowed(from, to, wire.targetHandle);
}

/** canWire's rule for two definition nodes already at hand. */
export function wireAllowed(from: DefNode | undefined, to: DefNode | undefined, targetHandle?: string | null): boolean {
  if (!from || !to || from.id === to.id || to.type === 'input' || from.type === 'output') return false;
  if (from.type === 'tool') return to.type === 'llm';
  if (targetHandle === 'tools') return from.type === 'agent';
  return true;
}

/**
 * Wires `source` to `target`. Out of a switch's case handle it sets that
 * case's `then` (out of its else handle, `else`), which adds the edge; any
 * other wire adds the edge unless it exists. The edge's handles follow from
 * the definition, so a tool dropped on an llm node's main handle is still its tool.
 */
export function connect(canvas: Canvas, wire: Wire): Canvas {
  if (!canWire(canvas, wire)) return canvas;
  const from = canvas.nodes.find((n) => n.id === wire.source)!.data.node;
  const handle = wire.sourceHandle ?? '';
  if (from.type === 'switch' && (handle.startsWith('case-') || handle === 'else')) {
    const data = { ...from.data };
    if (handle === 'else') data.else = wire.target;
    else {
      const index = Number(handle.slice('case-'.length));
      const cases = Array.isArray(data.cases) ? [...(data.cases as Array<Record<string, unknown>>)] : [];
      if (!cases[index]) return canvas;
      cases[index] = { ...cases[index], then: wire.target };
      data.cases = cases;
    }
    return setNodeData(canvas, from.id, data);
  }
  if (canvas.edges.some((e) => e.source === wire.source && e.target === wire.target)) return canvas;
  const edge = canvasEdge({ from: wire.source, to: wire.target }, newEdgeId(canvas.edges, wire.source, wire.target), definitionNodesById(canvas.nodes));
  return { ...canvas, edges: [...canvas.edges, edge] };
}

/**
 * Removes nodes (with their edges) and edges. A switch loses the branches
 * that named a target it no longer has an edge to: `then` becomes "" (the
 * case is shown unwired), `else` is dropped.
 */
export function removeElements(canvas: Canvas, nodeIds: ReadonlySet<string>, edgeIds: ReadonlySet<string>): Canvas {
  if (nodeIds.size === 0 && edgeIds.size === 0) return canvas;
  const gone = (e: CanvasEdge) => edgeIds.has(e.id) || nodeIds.has(e.source) || nodeIds.has(e.target);
  const edges = canvas.edges.filter((e) => !gone(e));
  let nodes = canvas.nodes.filter((n) => !nodeIds.has(n.id));
  for (const removed of canvas.edges.filter(gone)) {
    const from = nodes.find((n) => n.id === removed.source)?.data.node;
    if (from?.type !== 'switch' || edges.some((e) => e.source === removed.source && e.target === removed.target)) continue;
    const data = { ...from.data };
    if (Array.isArray(data.cases))
      data.cases = (data.cases as Array<Record<string, unknown>>).map((c) => (c?.then === removed.target ? { ...c, then: '' } : c));
    if (data.else === removed.target) delete data.else;
    nodes = replaceNode(nodes, from.id, (node) => ({ ...node, data }));
  }
  return { ...canvas, nodes, edges: withHandles(edges, definitionNodesById(nodes)) };
}

const referencePattern = (id: string) => new RegExp(`\\{\\{(\\s*)${id.replace(/[-]/g, '\\-')}((?:\\.[A-Za-z0-9_-]+)+\\s*)\\}\\}`, 'g');

/** A JSON value with `{{old.…}}` references renamed to `{{new.…}}`; the same value (object identity included) when none changed. */
export function renameReferences<T>(value: T, oldId: string, newId: string): T {
  const pattern = referencePattern(oldId);
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return item.includes('{{') ? item.replace(pattern, (_m, pre: string, rest: string) => `{{${pre}${newId}${rest}}}`) : item;
    if (Array.isArray(item)) {
      const next = item.map(walk);
      return next.some((v, i) => v !== item[i]) ? next : item;
    }
    if (item && typeof item === 'object') {
      let changed = false;
      const next: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(item)) {
        next[key] = walk(v);
        if (next[key] !== v) changed = true;
      }
      return changed ? next : item;
    }
    return item;
  };
  return walk(value) as T;
}

/** A switch's settings with branches naming a mapped id renamed. */
function renameBranches(data: Record<string, unknown>, rename: (id: string) => string | undefined): Record<string, unknown> {
  let next = data;
  if (Array.isArray(data.cases) && data.cases.some((c) => typeof c?.then === 'string' && rename(c.then) !== undefined)) {
    next = {
      ...next,
      cases: (data.cases as Array<Record<string, unknown>>).map((c) =>
        typeof c?.then === 'string' && rename(c.then) !== undefined ? { ...c, then: rename(c.then) } : c,
      ),
    };
  }
  if (typeof data.else === 'string' && rename(data.else) !== undefined) next = { ...next, else: rename(data.else) };
  return next;
}

/** Why `id` cannot be a node's new id, or undefined when it can. */
export function idProblem(canvas: Canvas, oldId: string, id: string): string | undefined {
  if (!NODE_ID.test(id)) return 'Use 1-64 letters, digits, "_" or "-"';
  if (id !== oldId && canvas.nodes.some((n) => n.id === id)) return `Another node is called "${id}"`;
  return undefined;
}

/**
 * Renames a node: its edges, the switch branches naming it and the
 * references to it (`{{old.text}}` → `{{new.text}}`) follow. References to
 * the Input node's variables (`{{input.NAME}}`) stay as they are: they name
 * the input, not the node.
 */
export function renameNode(canvas: Canvas, oldId: string, newId: string): Canvas {
  if (oldId === newId || idProblem(canvas, oldId, newId)) return canvas;
  const renamed = canvas.nodes.find((n) => n.id === oldId);
  if (!renamed) return canvas;
  const followReferences = renamed.data.node.type !== 'input';
  const rename = (id: string) => (id === oldId ? newId : undefined);
  const nodes = canvas.nodes.map((n) => {
    let node = n.data.node;
    if (n.id === oldId) node = { ...node, id: newId };
    let data = node.type === 'switch' ? renameBranches(node.data, rename) : node.data;
    if (followReferences) data = renameReferences(data, oldId, newId);
    if (node === n.data.node && data === node.data) return n;
    return { ...n, id: node.id, data: { ...n.data, node: { ...node, data } } };
  });
  const edges = canvas.edges.map((e) => {
    if (e.source !== oldId && e.target !== oldId) return e;
    const edge = { ...e.data!.edge, from: rename(e.data!.edge.from) ?? e.data!.edge.from, to: rename(e.data!.edge.to) ?? e.data!.edge.to };
    return { ...e, source: edge.from, target: edge.to, data: { edge } };
  });
  return { ...canvas, nodes, edges: withHandles(edges, definitionNodesById(nodes)) };
}

/** Copied nodes: their definition nodes (with positions) and the edges between them. */
export interface Clip {
  nodes: DefNode[];
  edges: DefEdge[];
}

/** The selected nodes and the edges among them, to paste later. */
export function copyNodes(canvas: Canvas, ids: ReadonlySet<string>): Clip {
  return {
    nodes: canvas.nodes.filter((n) => ids.has(n.id)).map((n) => ({ ...n.data.node, position: { ...n.position } })),
    edges: canvas.edges.filter((e) => ids.has(e.source) && ids.has(e.target)).map((e) => e.data!.edge),
  };
}

/**
 * Pastes copied nodes `offset` away from where they were, each with a new
 * unique id; edges, switch branches and references among the pasted nodes
 * follow the new ids. The pasted nodes end up selected, alone.
 */
export function pasteNodes(canvas: Canvas, clip: Clip, offset: XY): { canvas: Canvas; ids: string[] } {
  const taken = new Set(canvas.nodes.map((n) => n.id));
  const mapping = new Map<string, string>();
  for (const node of clip.nodes) {
    const id = uniqueId(node.id, taken);
    taken.add(id);
    mapping.set(node.id, id);
  }
  const rename = (id: string) => mapping.get(id);
  const pasted = clip.nodes.map((node) => {
    let data = node.type === 'switch' ? renameBranches(node.data, rename) : node.data;
    for (const [from, to] of mapping) {
      if (clip.nodes.find((n) => n.id === from)?.type !== 'input') data = renameReferences(data, from, to);
    }
    const position = node.position ?? { x: 0, y: 0 };
    return { ...canvasNode({ ...node, id: mapping.get(node.id)!, data }, { x: position.x + offset.x, y: position.y + offset.y }), selected: true };
  });
  const nodes = [...canvas.nodes.map(deselect), ...pasted];
  const byId = definitionNodesById(nodes);
  let edges = canvas.edges.map(deselectEdge);
  for (const edge of clip.edges) {
    const from = mapping.get(edge.from);
    const to = mapping.get(edge.to);
    if (!from || !to) continue;
    edges = [...edges, canvasEdge({ ...edge, from, to }, newEdgeId(edges, from, to), byId)];
  }
  return { canvas: { ...canvas, nodes, edges }, ids: pasted.map((n) => n.id) };
}
