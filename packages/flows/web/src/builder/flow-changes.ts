// What React Flow reports of its nodes and edges, and the sizes it measured, as the builder's store takes them.
import type { CanvasNode } from '../canvas/convert.ts';
import type { XY } from '../canvas/definition.ts';

/** A change React Flow reports for a node. */
export type NodeChange =
  | { type: 'position'; id: string; position?: XY; dragging?: boolean }
  | { type: 'select'; id: string; selected: boolean }
  | { type: 'dimensions'; id: string; dimensions?: { width: number; height: number }; resizing?: boolean; setAttributes?: boolean | 'width' | 'height' }
  | { type: 'remove'; id: string }
  | { type: string; id?: string };

/** A change React Flow reports for an edge. */
export type EdgeChange = { type: 'select'; id: string; selected: boolean } | { type: 'remove'; id: string } | { type: string; id?: string };

/**
 * `nodes` with the measured size of the node of the same id in `drawn`: a node
 * that stays on the canvas keeps its element, which React Flow does not measure
 * again unless its size changes, and an unmeasured node is left out of Fit view.
 */
export function keepMeasured(nodes: CanvasNode[], drawn: readonly CanvasNode[]): CanvasNode[] {
  const sizes = new Map(drawn.filter((n) => n.measured?.width !== undefined).map((n) => [n.id, n.measured]));
  if (sizes.size === 0) return nodes;
  return nodes.map((node) => (node.measured?.width === undefined && sizes.has(node.id) ? { ...node, measured: sizes.get(node.id) } : node));
}
