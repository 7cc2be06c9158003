import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { CanvasNode } from '../convert.ts';
import { NodeFrame } from './node-frame.tsx';

/** The Template node: renders text with references. */
function TemplateNode({ data }: NodeProps<CanvasNode>) {
  const id = data.node.id;
  return (
    <NodeFrame kind="template" node={data.node}>
      <Handle type="target" position={Position.Left} id="in" title={`Input of ${id}`} />
      <Handle type="source" position={Position.Right} id="out" title={`Output of ${id}: drag to a node's input`} />
    </NodeFrame>
  );
}

export default memo(TemplateNode);
