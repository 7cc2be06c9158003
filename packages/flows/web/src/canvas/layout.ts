// Automatic layout with dagre: left to right along the edges, tools under the llm node that calls them.
// Loaded on use (placement.ts): a flow saved by the builder has its positions already.
import dagre from '@dagrejs/dagre';
import { NODE_SIZE } from './convert.ts';
import type { XY } from './definition.ts';

/** A node to place: its id and size. */
export interface LayoutNode {
  id: string;
  width: number;
  height: number;
}

/**
 * Top-left positions for `nodes`, laid out left to right along `edges`
 * (`toolEdges` are laid out as if the llm node came first, so its tools sit
 * after it instead of pushing it right).
 */
export function layoutPositions(nodes: readonly LayoutNode[], edges: ReadonlyArray<{ source: string; target: string; tool?: boolean }>): Map<string, XY> {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'LR', nodesep: 36, ranksep: 90, marginx: 20, marginy: 20 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) graph.setNode(node.id, { width: node.width, height: node.height });
  for (const edge of edges) {
    if (!graph.hasNode(edge.source) || !graph.hasNode(edge.target) || edge.source === edge.target) continue;
    if (edge.tool) graph.setEdge(edge.target, edge.source, { minlen: 1 });
    else graph.setEdge(edge.source, edge.target);
  }
  dagre.layout(graph);
  const positions = new Map<string, XY>();
  for (const node of nodes) {
    const placed = graph.node(node.id) as { x: number; y: number } | undefined;
    // dagre gives centres; the canvas places nodes by their top-left corner. Whole numbers keep saved JSON tidy.
    if (placed) positions.set(node.id, { x: Math.round(placed.x - node.width / 2), y: Math.round(placed.y - node.height / 2) });
  }
  return positions;
}

/**
 * Places nodes saved without a position: the whole flow with dagre when none
 * has one (an imported or hand-written definition), else a row under the others.
 */
export function placeMissing(
  missing: ReadonlyArray<{ id: string; type: string }>,
  all: ReadonlyArray<{ id: string; type: string; position?: XY }>,
  edges: ReadonlyArray<{ from: string; to: string }>,
): Map<string, XY> {
  if (missing.length === all.length) {
    const types = new Map(all.map((n) => [n.id, n.type]));
    return layoutPositions(
      all.map((n) => ({ id: n.id, ...NODE_SIZE })),
      edges.map((e) => ({ source: e.from, target: e.to, tool: types.get(e.to) === 'llm' && (types.get(e.from) === 'tool' || types.get(e.from) === 'agent') })),
    );
  }
  const placed = all.filter((n) => n.position);
  const left = Math.min(...placed.map((n) => n.position!.x));
  const bottom = Math.max(...placed.map((n) => n.position!.y)) + 140;
  return new Map(missing.map((n, index) => [n.id, { x: left + index * (NODE_SIZE.width + 40), y: bottom }]));
}
