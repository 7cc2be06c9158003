import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { CanvasNode } from '../convert.ts';
import type { NodeKind } from '../kinds.ts';
import { NodeFrame } from './node-frame.tsx';

/**
 * The HTTP tool node (a templated request) and the MCP tool node (an MCP
 * server's tools): what an LLM node may call, wired from their top into its
 * tools. The two draw alike, so one component serves both; React Flow's node
 * type is the kind.
 */
function ToolNode({ type, data }: NodeProps<CanvasNode>) {
  return (
    <NodeFrame kind={type as NodeKind} node={data.node}>
      <Handle type="source" position={Position.Top} id="out" title={`Output of ${data.node.id}: drag to an LLM node's tools`} />
    </NodeFrame>
  );
}

export default memo(ToolNode);
