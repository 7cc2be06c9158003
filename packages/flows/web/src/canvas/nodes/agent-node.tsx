import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { CanvasNode } from '../convert.ts';
import { NodeFrame } from './node-frame.tsx';

/** The Agent node: runs another flow, as a step or, wired into an LLM node's tools, as its tool. */
function AgentNode({ data }: NodeProps<CanvasNode>) {
  const id = data.node.id;
  return (
    <NodeFrame kind="agent" node={data.node}>
      <Handle type="target" position={Position.Left} id="in" title={`Input of ${id}`} />
      <Handle type="source" position={Position.Right} id="out" title={`Output of ${id}: drag to a node's input`} />
    </NodeFrame>
  );
}

export default memo(AgentNode);
