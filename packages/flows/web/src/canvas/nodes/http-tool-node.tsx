import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { CanvasNode } from '../convert.ts';
import { NodeFrame } from './node-frame.tsx';

/** The HTTP tool node: a templated request an LLM node may call; wired from its top into the LLM node's tools. */
function HttpToolNode({ data }: NodeProps<CanvasNode>) {
  return (
    <NodeFrame kind="http_tool" node={data.node}>
      <Handle type="source" position={Position.Top} id="out" title={`Output of ${data.node.id}: drag to an LLM node's tools`} />
    </NodeFrame>
  );
}

export default memo(HttpToolNode);
