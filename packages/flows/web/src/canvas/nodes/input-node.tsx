import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { CanvasNode } from '../convert.ts';
import { NodeFrame } from './node-frame.tsx';

/** The Input node: the variables a caller sends; wired onwards from its output. */
function InputNode({ data }: NodeProps<CanvasNode>) {
  return (
    <NodeFrame kind="input" node={data.node}>
      <Handle type="source" position={Position.Right} id="out" title={`Output of ${data.node.id}: drag to a node's input`} />
    </NodeFrame>
  );
}

export default memo(InputNode);
