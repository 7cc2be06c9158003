// A definition drawn read-only (an old version): the same node components, nothing to drag or wire.
import { useMemo } from 'react';
import { Background, BackgroundVariant, Controls, ReactFlow, ReactFlowProvider } from '@xyflow/react';
import { definitionToCanvas } from './convert.ts';
import type { Definition } from './definition.ts';
import { nodeTypes } from './nodes/index.ts';

/** The definition on a canvas that can be panned and zoomed, not edited. */
export function ReadOnlyCanvas({ definition, label }: { definition: Definition; label: string }) {
  const canvas = useMemo(() => definitionToCanvas(definition), [definition]);
  return (
    <div className="readonly-canvas">
      <ReactFlowProvider>
        <ReactFlow
          // Each prop is named as React Flow names it: a run of name={name} lines, not a copy of anything.
          nodes={canvas.nodes}
          edges={canvas.edges}
          nodeTypes={nodeTypes}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          deleteKeyCode={null}
          fitView
          minZoom={0.1}
          aria-label={label}
        >
          <Background variant={BackgroundVariant.Dots} gap={16} size={1} color="#d4d4dc" />
          <Controls showInteractive={false} />
        </ReactFlow>
      </ReactFlowProvider>
    </div>
  );
}
