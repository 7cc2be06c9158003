import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { CanvasNode } from '../convert.ts';
import { NodeFrame } from './node-frame.tsx';

/** The LLM node: a main input, a tools input underneath (HTTP/MCP tools and agents wire in there), an output. */
function LlmNode({ data }: NodeProps<CanvasNode>) {
  const id = data.node.id;
  return (
    <NodeFrame kind="llm" node={data.node}>
      <Handle type="target" position={Position.Left} id="in" title={`Input of ${id}`} />
      <Handle type="target" position={Position.Bottom} id="tools" className="handle-tools" title={`Tools of ${id}: wire tool and agent nodes here`} />
      <Handle type="source" position={Position.Right} id="out" title={`Output of ${id}: drag to a node's input`} />
    </NodeFrame>
  );
}

export default memo(LlmNode);
