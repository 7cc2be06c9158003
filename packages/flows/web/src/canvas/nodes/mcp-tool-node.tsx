import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { CanvasNode } from '../convert.ts';
import { NodeFrame } from './node-frame.tsx';

/** The MCP tool node: an MCP server's tools for an LLM node; wired from its top into the LLM node's tools. */
function McpToolNode({ data }: NodeProps<CanvasNode>) {
  return (
    <NodeFrame kind="mcp_tool" node={data.node}>
      <Handle type="source" position={Position.Top} id="out" title={`Output of ${data.node.id}: drag to an LLM node's tools`} />
    </NodeFrame>
  );
}

export default memo(McpToolNode);
