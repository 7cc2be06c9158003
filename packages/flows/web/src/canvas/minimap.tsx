// The canvas's minimap, drawn on a <canvas>: React Flow's own draws an SVG element and a React component per
// node, 500 of each for a 500-node flow, made and laid out before the canvas can show and again as nodes
// move. This one redraws in one pass (well under a millisecond for 500 rectangles) at most once a frame,
// outside React, and pans and zooms the canvas with React Flow's own minimap handler (XYMinimap).
import { useEffect, useRef } from 'react';
import { Panel, useStoreApi, type ReactFlowState } from '@xyflow/react';
import { XYMinimap, getBoundsOfRects, getInternalNodesBounds, getNodeDimensions, type Rect, type XYMinimapInstance } from '@xyflow/system';

/** The frame around the nodes, in minimap pixels (React Flow's default `offsetScale`). */
const OFFSET = 5;
const MASK = 'rgba(240, 240, 240, 0.6)';
const BACKGROUND = '#fff';
const NODE_RADIUS = 5;
const MIN_NODE_PX = 2;

interface View {
  /** The part of the flow the minimap shows, in flow coordinates. */
  frame: Rect;
  /** The pane's view, in flow coordinates. */
  view: Rect;
}

/** What the minimap shows: the nodes' bounds and the pane's view together, centered, with a margin (as React Flow's). */
function minimapView(state: Pick<ReactFlowState, 'transform' | 'width' | 'height' | 'nodeLookup'>, width: number, height: number): View {
  const [tx, ty, zoom] = state.transform;
  const view = { x: -tx / zoom, y: -ty / zoom, width: state.width / zoom, height: state.height / zoom };
  const bounds = state.nodeLookup.size > 0 ? getBoundsOfRects(getInternalNodesBounds(state.nodeLookup, { filter: (node) => !node.hidden }), view) : view;
  const scale = Math.max(bounds.width / width, bounds.height / height) || 1;
  const offset = OFFSET * scale;
  const frameWidth = scale * width;
  const frameHeight = scale * height;
  return {
    frame: {
      x: bounds.x - (frameWidth - bounds.width) / 2 - offset,
      y: bounds.y - (frameHeight - bounds.height) / 2 - offset,
      width: frameWidth + offset * 2,
      height: frameHeight + offset * 2,
    },
    view,
  };
}

/** The minimap: each node as a rectangle in `color(node)`, the pane's view clear, the rest veiled; drag to pan, wheel to zoom. */
export function CanvasMiniMap({
  width,
  height,
  color,
  ariaLabel,
}: {
  width: number;
  height: number;
  color: (node: { type?: string }) => string;
  ariaLabel: string;
}) {
  const store = useStoreApi();
  const canvas = useRef<HTMLCanvasElement>(null);
  const scale = useRef(1);

  useEffect(() => {
    const element = canvas.current!;
    const context = element.getContext('2d');
    if (!context) return;
    const ratio = window.devicePixelRatio || 1;
    element.width = Math.round(width * ratio);
    element.height = Math.round(height * ratio);
    let frame = 0;
    const draw = () => {
      frame = 0;
      const state = store.getState();
      const { frame: shown, view } = minimapView(state, width, height);
      // Minimap pixels per flow unit (the frame keeps the minimap's aspect ratio).
      const k = width / shown.width;
      scale.current = 1 / k;
      const px = (x: number) => (x - shown.x) * k;
      const py = (y: number) => (y - shown.y) * k;
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      context.fillStyle = BACKGROUND;
      context.fillRect(0, 0, width, height);
      for (const node of state.nodeLookup.values()) {
        if (node.hidden) continue;
        const { x, y } = node.internals.positionAbsolute;
        const size = getNodeDimensions(node);
        // At least 2 px a side: a big flow's nodes stay visible (a 1-px rectangle is smeared into the background).
        const [w, h] = [Math.max(size.width * k, MIN_NODE_PX), Math.max(size.height * k, MIN_NODE_PX)];
        context.fillStyle = color(node);
        context.beginPath();
        context.roundRect(px(x), py(y), w, h, Math.min(NODE_RADIUS * k, w / 2, h / 2));
        context.fill();
      }
      // The veil over everything but the pane's view.
      context.fillStyle = MASK;
      context.beginPath();
      context.rect(0, 0, width, height);
      context.rect(px(view.x), py(view.y), view.width * k, view.height * k);
      context.fill('evenodd');
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(draw);
    };
    draw();
    // React Flow updates its node lookup in place: a new `nodes` array (nodes added, imported, moved or measured) says it changed.
    const unsubscribe = store.subscribe((state, previous) => {
      if (
        state.nodes !== previous.nodes ||
        state.nodeLookup !== previous.nodeLookup ||
        state.transform !== previous.transform ||
        state.width !== previous.width ||
        state.height !== previous.height
      )
        schedule();
    });
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [store, width, height, color]);

  // Pan and zoom: React Flow's minimap handler, given the pane's pan-zoom once React Flow has it.
  useEffect(() => {
    let handler: XYMinimapInstance | undefined;
    const update = (state: ReactFlowState) =>
      handler!.update({
        translateExtent: state.translateExtent,
        width: state.width,
        height: state.height,
        pannable: true,
        zoomable: true,
        inversePan: false,
        zoomStep: 1,
      });
    const attach = (state: ReactFlowState) => {
      if (handler || !state.panZoom) return;
      handler = XYMinimap({
        domNode: canvas.current!,
        panZoom: state.panZoom,
        getTransform: () => store.getState().transform,
        getViewScale: () => scale.current,
      });
      update(state);
    };
    attach(store.getState());
    const unsubscribe = store.subscribe((state, previous) => {
      if (!handler) attach(state);
      else if (state.width !== previous.width || state.height !== previous.height || state.translateExtent !== previous.translateExtent) update(state);
    });
    return () => {
      unsubscribe();
      handler?.destroy();
    };
  }, [store]);

  return (
    <Panel position="bottom-right" className="react-flow__minimap" style={{ width, height }}>
      <canvas ref={canvas} role="img" aria-label={ariaLabel} style={{ width, height, display: 'block' }} />
    </Panel>
  );
}
