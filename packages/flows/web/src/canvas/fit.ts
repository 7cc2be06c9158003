// Fitting the canvas to its nodes from the builder's store, by each node's measured size or, until React Flow
// has measured it, its initial one. React Flow's own fitView waits until every node is measured and leaves out
// those that are not, so it ignored nodes just added or imported (and never ran on a big flow, whose nodes out
// of view are never drawn, so never measured).
import { useCallback } from 'react';
import { getViewportForBounds, useReactFlow, useStoreApi, type Viewport } from '@xyflow/react';
import { useBuilderStore } from '../builder/use-builder.ts';
import { NODE_SIZE, type CanvasNode } from './convert.ts';

/** How a flow is framed when it opens: some room around it, zoomed out no further than nodes stay legible. */
export const OPEN_FIT = { padding: 0.15, minZoom: 0.3, maxZoom: 1 } as const;
/** How Fit view (and an import, an automatic layout) frames a flow: all of it, as far out as the canvas zooms. */
export const WHOLE_FIT = { padding: 0.15, minZoom: 0.1, maxZoom: 1 } as const;

/** What to fit and how. */
export interface FitOptions {
  /** Only these nodes (all by default). */
  nodes?: readonly string[];
  padding: number;
  minZoom: number;
  maxZoom: number;
}

/** The viewport that shows `nodes` (or those of them `options.nodes` names) in a `width`×`height` pane; undefined when there is nothing to fit. */
export function viewportToFit(nodes: readonly CanvasNode[], width: number, height: number, options: FitOptions): Viewport | undefined {
  const only = options.nodes ? new Set(options.nodes) : undefined;
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const node of nodes) {
    if (node.hidden || (only && !only.has(node.id))) continue;
    left = Math.min(left, node.position.x);
    top = Math.min(top, node.position.y);
    right = Math.max(right, node.position.x + (node.measured?.width ?? node.initialWidth ?? NODE_SIZE.width));
    bottom = Math.max(bottom, node.position.y + (node.measured?.height ?? node.initialHeight ?? NODE_SIZE.height));
  }
  if (left === Infinity || width === 0 || height === 0) return undefined;
  return getViewportForBounds({ x: left, y: top, width: right - left, height: bottom - top }, width, height, options.minZoom, options.maxZoom, options.padding);
}

/** A function that moves the canvas to show the builder's nodes (all, or some), at once or over `duration` ms. */
export function useFitCanvas(): (options?: Partial<FitOptions> & { duration?: number }) => void {
  const builder = useBuilderStore();
  const flow = useStoreApi();
  const { setViewport } = useReactFlow();
  return useCallback(
    (options = {}) => {
      const { width, height } = flow.getState();
      const viewport = viewportToFit(builder.getState().nodes, width, height, { ...WHOLE_FIT, ...options });
      if (viewport) void setViewport(viewport, { duration: options.duration });
    },
    [builder, flow, setViewport],
  );
}
