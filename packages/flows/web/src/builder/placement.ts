// Placing nodes that have no position: dagre (canvas/layout.ts) is loaded only when a definition needs it.
import type { Placer } from '../canvas/convert.ts';
import type { Definition } from '../canvas/definition.ts';
import type { XY } from '../canvas/definition.ts';

/** The placer for `definition`'s nodes without a position; none needed (and nothing loaded) when every node has one. */
export async function placerFor(definition: Pick<Definition, 'nodes'>): Promise<Placer | undefined> {
  if (definition.nodes.every((n) => n.position)) return undefined;
  return (await import('../canvas/layout.ts')).placeMissing;
}

/** Positions of the automatic layout (dagre, loaded on first use). */
export async function autoLayoutPositions(
  nodes: ReadonlyArray<{ id: string; width: number; height: number }>,
  edges: ReadonlyArray<{ source: string; target: string; tool?: boolean }>,
): Promise<Map<string, XY>> {
  return (await import('../canvas/layout.ts')).layoutPositions(nodes, edges);
}
