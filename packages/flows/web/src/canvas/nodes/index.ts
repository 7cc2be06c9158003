// Node components by palette kind: one map, defined once outside any component so React Flow never sees a new one (the two tool kinds share one).
import type { NodeTypes } from '@xyflow/react';
import AgentNode from './agent-node.tsx';
import InputNode from './input-node.tsx';
import LlmNode from './llm-node.tsx';
import OutputNode from './output-node.tsx';
import RetrievalNode from './retrieval-node.tsx';
import SwitchNode from './switch-node.tsx';
import TemplateNode from './template-node.tsx';
import ToolNode from './tool-node.tsx';

/** The canvas's node types, keyed like `NodeKind`. */
export const nodeTypes: NodeTypes = {
  input: InputNode,
  llm: LlmNode,
  retrieval: RetrievalNode,
  switch: SwitchNode,
  agent: AgentNode,
  http_tool: ToolNode,
  mcp_tool: ToolNode,
  template: TemplateNode,
  output: OutputNode,
};
