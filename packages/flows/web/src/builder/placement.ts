// Placing nodes that have no position: dagre (canvas/layout.ts) is loaded only when a definition needs it.
import { NODE_SIZE, type Placer } from '../canvas/convert.ts';
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

/** The first place at or below `at` where a new node overlaps none (a node added by click never hides another). */
export function freeSpot(
  nodes: ReadonlyArray<{ position: { x: number; y: number }; measured?: { width?: number; height?: number } }>,
  at: { x: number; y: number },
) {
  const overlaps = (y: number) =>
    nodes.some((n) => {
      const width = n.measured?.width ?? NODE_SIZE.width;
      const height = n.measured?.height ?? NODE_SIZE.height;
      return (
        at.x < n.position.x + width + 16 &&
        n.position.x < at.x + NODE_SIZE.width + 16 &&
        y < n.position.y + height + 16 &&
        n.position.y < y + NODE_SIZE.height + 16
      );
    });
  let y = at.y;
  for (let step = 0; step < 40 && overlaps(y); step += 1) y += NODE_SIZE.height + 24;
  return { x: at.x, y };
}
