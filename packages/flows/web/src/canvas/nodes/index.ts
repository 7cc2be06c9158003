// Node components by palette kind: one map, defined once outside any component so React Flow never sees a new one.
import type { NodeTypes } from '@xyflow/react';
import AgentNode from './agent-node.tsx';
import HttpToolNode from './http-tool-node.tsx';
import InputNode from './input-node.tsx';
import LlmNode from './llm-node.tsx';
import McpToolNode from './mcp-tool-node.tsx';
import OutputNode from './output-node.tsx';
import RetrievalNode from './retrieval-node.tsx';
import SwitchNode from './switch-node.tsx';
import TemplateNode from './template-node.tsx';

/** The canvas's node types, keyed like `NodeKind`. */
export const nodeTypes: NodeTypes = {
  input: InputNode,
  llm: LlmNode,
  retrieval: RetrievalNode,
  switch: SwitchNode,
  agent: AgentNode,
  http_tool: HttpToolNode,
  mcp_tool: McpToolNode,
  template: TemplateNode,
  output: OutputNode,
};
