import { describe, expect, it } from 'vitest';
import type { Viewport } from '@xyflow/react';
import { canvasNode, type CanvasNode } from '../../web/src/canvas/convert.ts';
import { OPEN_FIT, WHOLE_FIT, viewportToFit } from '../../web/src/canvas/fit.ts';

const node = (id: string, x: number, y: number) => canvasNode({ id, type: 'template', data: { template: id } }, { x, y });

/** Whether a box (flow coordinates) shows wholly inside a width×height pane at `viewport`, and how closely it fills it. */
function shown(viewport: Viewport, box: { x: number; y: number; width: number; height: number }, width: number, height: number) {
  const left = box.x * viewport.zoom + viewport.x;
  const top = box.y * viewport.zoom + viewport.y;
  const right = left + box.width * viewport.zoom;
  const bottom = top + box.height * viewport.zoom;
  return { inside: left >= 0 && top >= 0 && right <= width && bottom <= height, fills: Math.max((right - left) / width, (bottom - top) / height) };
}

describe('fitting the canvas', () => {
  it('frames every node by its measured size, else its initial one (220×62), unmeasured nodes included', () => {
    const measured: CanvasNode = { ...node('b', 1000, 500), measured: { width: 300, height: 100 } };
    const viewport = viewportToFit([node('a', 0, 0), measured], 1300, 600, WHOLE_FIT)!;
    // The bounds run from a's corner to b's measured far corner (1300×600), framed with some room.
    const whole = shown(viewport, { x: 0, y: 0, width: 1300, height: 600 }, 1300, 600);
    expect(whole.inside).toBe(true);
    expect(whole.fills).toBeGreaterThan(0.8);
    // A node not measured yet counts with its initial size.
    const alone = viewportToFit([node('a', 0, 0)], 1300, 600, WHOLE_FIT)!;
    expect(alone.zoom).toBe(1);
    expect(shown(alone, { x: 0, y: 0, width: 220, height: 62 }, 1300, 600).inside).toBe(true);
  });

  it('fits only the nodes asked for, zooms out no further than asked, and has nothing to fit in an empty canvas or pane', () => {
    const nodes = [node('a', 0, 0), node('far', 10_000, 0)];
    expect(viewportToFit(nodes, 1300, 600, { ...WHOLE_FIT, nodes: ['a'] })).toEqual(viewportToFit(nodes.slice(0, 1), 1300, 600, WHOLE_FIT));
    expect(viewportToFit(nodes, 1300, 600, OPEN_FIT)!.zoom).toBe(0.3);
    const whole = viewportToFit(nodes, 1300, 600, WHOLE_FIT)!;
    expect(whole.zoom).toBeLessThan(0.3);
    expect(shown(whole, { x: 0, y: 0, width: 10_220, height: 62 }, 1300, 600).inside).toBe(true);
    expect(viewportToFit([], 1300, 600, WHOLE_FIT)).toBeUndefined();
    expect(viewportToFit(nodes, 0, 0, WHOLE_FIT)).toBeUndefined();
  });
});
