import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { CanvasNode } from '../convert.ts';
import { NodeFrame } from './node-frame.tsx';

/** The Output node: the response's shape; the end of the flow. */
function OutputNode({ data }: NodeProps<CanvasNode>) {
  return (
    <NodeFrame kind="output" node={data.node}>
      <Handle type="target" position={Position.Left} id="in" title={`Input of ${data.node.id}`} />
    </NodeFrame>
  );
}

export default memo(OutputNode);
