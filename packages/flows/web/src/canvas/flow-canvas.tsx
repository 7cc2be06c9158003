// The canvas: React Flow drawing the builder store's graph. It is the only view that reads the nodes'
// positions, so a drag re-renders this component and the dragged node, nothing else of the page.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import {
  Background,
  BackgroundVariant,
  ControlButton,
  Controls,
  ReactFlow,
  useReactFlow,
  useStore,
  type Connection,
  type Edge,
  type IsValidConnection,
  type NodeMouseHandler,
  type OnEdgesChange,
  type OnNodesChange,
  type Viewport,
} from '@xyflow/react';
import type { CanvasNode } from './convert.ts';
import { approximateHandles } from './handles.ts';
import { OPEN_FIT, useFitCanvas, viewportToFit } from './fit.ts';
import { CanvasMiniMap } from './minimap.tsx';
import { KIND_INFO, type NodeKind } from './kinds.ts';
import { nodeTypes } from './nodes/index.ts';
import { useBuilder, useBuilderStore } from '../builder/use-builder.ts';
import type { EdgeChange, NodeChange, NodeStatus } from '../builder/store.ts';

/** The drag-and-drop type a palette entry carries (its value: the node kind). */
export const PALETTE_DRAG_TYPE = 'application/x-switchboard-node';

/** Above this many nodes only those in view are drawn. */
const VISIBLE_ONLY_ABOVE = 150;

const MINIMAP_COLORS: Record<string, string> = {
  input: '#0e7490',
  llm: '#4f46e5',
  retrieval: '#0f766e',
  switch: '#b45309',
  agent: '#7c3aed',
  http_tool: '#be185d',
  mcp_tool: '#9d174d',
  template: '#64748b',
  output: '#15803d',
};
const MINIMAP_SIZE = { width: 168, height: 112 };
// Props React Flow copies into its store whenever they are a new object: a literal would be copied on every
// render of the canvas (each copy runs every node's and edge's store selector).
const SNAP_GRID: [number, number] = [8, 8];
const DEFAULT_EDGE_OPTIONS = { interactionWidth: 16 };
const MULTI_SELECTION_KEYS = ['Meta', 'Control'];
const minimapColor = (node: { type?: string }) => MINIMAP_COLORS[node.type ?? ''] ?? '#94a3b8';

interface Drawn {
  source: CanvasNode;
  problem: string | undefined;
  status: NodeStatus | undefined;
  node: CanvasNode;
}

/**
 * The store's nodes with what the canvas shows on each element: `aria-invalid`
 * and the problem as `title`, the run's `data-status`; an unmeasured node its
 * approximate handles. A node whose inputs did not change keeps its object, so
 * React Flow leaves it alone; when none changed the array is the previous one,
 * so React Flow does not take in the nodes again.
 */
function useDrawnNodes(nodes: CanvasNode[], problems: Record<string, string>, status: Readonly<Record<string, NodeStatus>>): CanvasNode[] {
  const cache = useRef(new Map<string, Drawn>());
  const previous = useRef<CanvasNode[]>([]);
  return useMemo(() => {
    const next = new Map<string, Drawn>();
    const drawn = nodes.map((source) => {
      const problem = problems[source.id];
      const state = status[source.id];
      const hit = cache.current.get(source.id);
      if (hit && hit.source === source && hit.problem === problem && hit.status === state) {
        next.set(source.id, hit);
        return hit.node;
      }
      const attributes: Record<string, string> = {};
      if (problem) {
        attributes['aria-invalid'] = 'true';
        attributes.title = problem;
      }
      if (state) attributes['data-status'] = state;
      const node: CanvasNode = {
        ...source,
        // Until measured: where its handles are, so React Flow draws it only when in view (handles.ts).
        ...(source.measured?.width === undefined ? { handles: approximateHandles(source) } : {}),
        ariaLabel: `${KIND_INFO[source.type as NodeKind]?.name ?? source.type} node ${source.id}`,
        // Typed as React's div attributes, which do not list data-*; React passes them on as they are.
        domAttributes: attributes as CanvasNode['domAttributes'],
      };
      next.set(source.id, { source, problem, status: state, node });
      return node;
    });
    cache.current = next;
    const last = previous.current;
    if (drawn.length === last.length && drawn.every((node, i) => node === last[i])) return last;
    previous.current = drawn;
    return drawn;
  }, [nodes, problems, status]);
}

/** The editable canvas of the open flow. `onNodeOpen` is called when a node is clicked (to show its settings). */
export function FlowCanvas({ onNodeOpen, onReady, readOnly = false }: { onNodeOpen?: (id: string) => void; onReady?: () => void; readOnly?: boolean }) {
  const store = useBuilderStore();
  const nodes = useBuilder((s) => s.nodes);
  const edges = useBuilder((s) => s.edges);
  const problems = useBuilder((s) => s.problems.byNode);
  const status = useBuilder((s) => s.status);
  const drawn = useDrawnNodes(nodes, problems, status);
  const flow = useReactFlow();
  const fit = useFitCanvas();
  const visibleOnly = nodes.length > VISIBLE_ONLY_ABOVE;
  // Ready once the nodes in view are measured (all of them on a flow small enough to draw whole).
  const ready = useRef(false);
  const initialized = useStore((s) => {
    if (ready.current || s.nodesInitialized) return true;
    if (!visibleOnly) return false;
    for (const node of s.nodeLookup.values()) if (node.measured.width !== undefined) return true;
    return false;
  });

  useEffect(() => {
    if (initialized && !ready.current) {
      ready.current = true;
      onReady?.();
    }
  }, [initialized, onReady]);

  const onNodesChange = useCallback<OnNodesChange<CanvasNode>>((changes) => store.applyNodeChanges(changes as NodeChange[]), [store]);
  const onEdgesChange = useCallback<OnEdgesChange>((changes) => store.applyEdgeChanges(changes as EdgeChange[]), [store]);
  const onConnect = useCallback((connection: Connection) => store.connect(connection), [store]);
  const isValidConnection = useCallback<IsValidConnection>((connection) => store.canWire(connection as Connection), [store]);
  const onNodeClick = useCallback<NodeMouseHandler<CanvasNode>>((_event, node) => onNodeOpen?.(node.id), [onNodeOpen]);

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(PALETTE_DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }, []);
  const onDrop = useCallback(
    (event: DragEvent) => {
      const kind = event.dataTransfer.getData(PALETTE_DRAG_TYPE) as NodeKind;
      if (!KIND_INFO[kind]) return;
      event.preventDefault();
      const at = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      // The pointer holds the node by its header's middle.
      const id = store.addNode(kind, { x: Math.round(at.x - 110), y: Math.round(at.y - 20) });
      onNodeOpen?.(id);
    },
    [flow, store, onNodeOpen],
  );

  // The pane's size first, then the canvas at the viewport that fits the flow.
  const frame = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState<Viewport | undefined>(undefined);
  useLayoutEffect(() => {
    const box = frame.current!.getBoundingClientRect();
    setViewport(viewportToFit(store.getState().nodes, box.width, box.height, OPEN_FIT) ?? { x: 0, y: 0, zoom: 1 });
  }, [store]);

  return (
    <div className="canvas-frame" ref={frame}>
      {viewport ? (
        <ReactFlow<CanvasNode, Edge>
          // Each prop is named as React Flow names it: a run of name={name} lines, not a copy of anything.
          nodes={drawn}
          edges={edges}
          nodeTypes={nodeTypes}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onConnect={onConnect}
          // On a phone the canvas is read: nodes neither move nor wire (Run and the panels still work).
          nodesDraggable={!readOnly}
          nodesConnectable={!readOnly}
          isValidConnection={isValidConnection}
          onNodeClick={onNodeClick}
          onDragOver={onDragOver}
          onDrop={onDrop}
          // Delete and Backspace go through the page's shortcuts, which keep switch branches in step.
          deleteKeyCode={null}
          multiSelectionKeyCode={MULTI_SELECTION_KEYS}
          selectionKeyCode="Shift"
          snapToGrid
          snapGrid={SNAP_GRID}
          minZoom={0.1}
          maxZoom={2}
          defaultViewport={viewport}
          onlyRenderVisibleElements={visibleOnly}
          defaultEdgeOptions={DEFAULT_EDGE_OPTIONS}
          aria-label="Flow canvas"
        >
          <Background variant={BackgroundVariant.Dots} gap={16} size={1} color="#d4d4dc" />
          <Controls position="bottom-left" showInteractive={false} showFitView={false}>
            <ControlButton onClick={() => fit({ duration: 200 })} title="Fit view" aria-label="Fit view">
              <FitIcon />
            </ControlButton>
          </Controls>
          <CanvasMiniMap width={MINIMAP_SIZE.width} height={MINIMAP_SIZE.height} color={minimapColor} ariaLabel="Minimap" />
        </ReactFlow>
      ) : null}
    </div>
  );
}

/** Four corners: the whole flow in view. */
function FitIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" style={{ fill: 'none' }} stroke="currentColor" strokeWidth="2">
      <path d="M1 5V1h4M11 1h4v4M15 11v4h-4M5 15H1v-4" />
    </svg>
  );
}
