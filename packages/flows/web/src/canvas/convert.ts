// Definition ↔ canvas: the two pure functions the builder's state goes through. A definition drawn on the
// canvas and converted back is the same definition (node and edge order, data objects, a client's own keys),
// with a `position` on every node.
import type { Edge, Node } from '@xyflow/react';
import type { DefEdge, DefNode, Definition, DefinitionMeta, XY } from './definition.ts';
import { kindOf, type NodeKind } from './kinds.ts';

/** What a canvas node carries: its definition node without `position` (the canvas node's own position is the live one). */
export interface CanvasNodeData extends Record<string, unknown> {
  node: DefNode;
}

/** What a canvas edge carries: its definition edge. */
export interface CanvasEdgeData extends Record<string, unknown> {
  edge: DefEdge;
}

/** A node as React Flow draws it; its `type` is the palette kind, its id the definition node's id. */
export type CanvasNode = Node<CanvasNodeData, NodeKind>;
/** An edge as React Flow draws it. */
export type CanvasEdge = Edge<CanvasEdgeData>;

/** The canvas's whole graph. */
export interface Canvas {
  meta: DefinitionMeta;
  nodes: CanvasNode[];
  edges: CanvasEdge[];
}

/** The size of a node before it is measured (the canvas culls and fits by it; layout places by it). */
export const NODE_SIZE = { width: 220, height: 62 } as const;

/** Handle ids: every node's main target and source; an llm node's tools target; a switch's `case-N` and `else` sources. */
export const HANDLE = { in: 'in', out: 'out', tools: 'tools', else: 'else', case: (index: number) => `case-${index}` } as const;

/** Positions for nodes saved without one: a grid under the others (the page lays them out with dagre instead). */
export type Placer = (missing: DefNode[], all: DefNode[], edges: DefEdge[]) => Map<string, XY>;

const gridPlacer: Placer = (missing, all) => {
  const placed = all.filter((n) => n.position);
  const bottom = placed.length === 0 ? 0 : Math.max(...placed.map((n) => n.position!.y)) + 160;
  return new Map(missing.map((n, index) => [n.id, { x: (index % 5) * 280, y: bottom + Math.floor(index / 5) * 160 }]));
};

/** Whether an edge from `from` into `to` makes `from` a tool of the llm node `to` (engine: tool-wiring.ts). */
export function isToolEdge(from: Pick<DefNode, 'type'> | undefined, to: Pick<DefNode, 'type'> | undefined): boolean {
  return to?.type === 'llm' && (from?.type === 'tool' || from?.type === 'agent');
}

/**
 * The handles an edge is drawn between, from what the definition says: out of a switch,
 * the first case whose `then` names the target, else `else` (null, the first handle,
 * when neither does: validation says so); into an llm node, its tools handle for a tool.
 */
export function edgeHandles(from: DefNode | undefined, to: DefNode | undefined): { sourceHandle: string | null; targetHandle: string | null } {
  let sourceHandle: string | null = HANDLE.out;
  if (from?.type === 'switch') {
    const cases = Array.isArray(from.data.cases) ? (from.data.cases as Array<{ then?: unknown } | null>) : [];
    const index = cases.findIndex((c) => c?.then === to?.id);
    sourceHandle = index >= 0 ? HANDLE.case(index) : from.data.else === to?.id && to !== undefined ? HANDLE.else : null;
  }
  return { sourceHandle, targetHandle: isToolEdge(from, to) ? HANDLE.tools : HANDLE.in };
}

/** A canvas edge for a definition edge, with its handles. */
export function canvasEdge(edge: DefEdge, id: string, byId: ReadonlyMap<string, DefNode>): CanvasEdge {
  const from = byId.get(edge.from);
  const to = byId.get(edge.to);
  return { id, source: edge.from, target: edge.to, ...edgeHandles(from, to), data: { edge }, ...(isToolEdge(from, to) ? { className: 'tool-edge' } : {}) };
}

/** A canvas node for a definition node at `position`. */
export function canvasNode(node: DefNode, position: XY): CanvasNode {
  const { position: _saved, ...rest } = node;
  // The initial size lets the canvas fit and cull nodes before it has measured them (big flows draw only those in view).
  return {
    id: node.id,
    type: kindOf(node),
    position: { x: position.x, y: position.y },
    data: { node: rest as DefNode },
    initialWidth: NODE_SIZE.width,
    initialHeight: NODE_SIZE.height,
  };
}

/**
 * The canvas of a definition: nodes and edges in the definition's order, each
 * carrying its definition object untouched; nodes without a position are
 * placed by `place`.
 */
export function definitionToCanvas(definition: Definition, place: Placer = gridPlacer): Canvas {
  const { nodes, edges, ...meta } = definition;
  const missing = nodes.filter((n) => !n.position);
  const placed = missing.length > 0 ? place(missing, nodes, edges) : new Map<string, XY>();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return {
    meta,
    nodes: nodes.map((n) => canvasNode(n, n.position ?? placed.get(n.id) ?? { x: 0, y: 0 })),
    edges: edges.map((e, index) => canvasEdge(e, `e${index}:${e.from}>${e.to}`, byId)),
  };
}

/** The definition of a canvas: every node with its current position, the edges in their order. */
export function canvasToDefinition(canvas: Canvas): Definition {
  return {
    ...canvas.meta,
    nodes: canvas.nodes.map((n) => ({ ...n.data.node, position: { x: n.position.x, y: n.position.y } })),
    edges: canvas.edges.map((e) => e.data!.edge),
  };
}

/** The definition nodes of a canvas by id (positions not included). */
export function definitionNodesById(nodes: readonly CanvasNode[]): Map<string, DefNode> {
  return new Map(nodes.map((n) => [n.id, n.data.node]));
}

/** The edges with their handles recomputed (after a switch's cases changed); unchanged edges stay the same objects. */
export function withHandles(edges: CanvasEdge[], byId: ReadonlyMap<string, DefNode>): CanvasEdge[] {
  let changed = false;
  const next = edges.map((edge) => {
    const handles = edgeHandles(byId.get(edge.source), byId.get(edge.target));
    if (handles.sourceHandle === (edge.sourceHandle ?? null) && handles.targetHandle === (edge.targetHandle ?? null)) return edge;
    changed = true;
    return { ...edge, ...handles };
  });
  return changed ? next : edges;
}
