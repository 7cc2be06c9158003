/** Types of the saved flow graph (design/flows.md, "The flow definition"). */

/** Types an Input variable may declare. */
export const VARIABLE_TYPES = ['string', 'number', 'integer', 'boolean', 'enum', 'object', 'array'] as const;
/** One of VARIABLE_TYPES. */
export type VariableType = (typeof VARIABLE_TYPES)[number];

/** One typed variable of the Input node. */
export interface InputVariable {
  name: string;
  type: VariableType;
  required?: boolean;
  default?: unknown;
  description?: string;
  values?: unknown[];
  minimum?: number;
  maximum?: number;
  min_length?: number;
  max_length?: number;
}

/** Node types the engine runs. */
export const NODE_TYPES = ['input', 'llm', 'switch', 'template', 'output', 'tool', 'agent', 'retrieval'] as const;
/** One of NODE_TYPES. */
export type NodeType = (typeof NODE_TYPES)[number];

/** One node of the graph: `data` is checked per type by flow-validation. */
export interface FlowNode {
  id: string;
  type: NodeType;
  data: Record<string, unknown>;
  /** Where the builder draws the node; execution ignores it. */
  position?: { x: number; y: number };
}

/** A dependency: `to` runs after `from`. */
export interface FlowEdge {
  from: string;
  to: string;
}

/** The whole definition, as the builder saves it. */
export interface FlowDefinition {
  name: string;
  slug?: string;
  description?: string;
  nodes: FlowNode[];
  edges: FlowEdge[];
}

/** Settings of an `llm` node. */
export interface LlmNodeData {
  provider: string;
  model: string;
  system?: string;
  prompt?: string;
  temperature?: number;
  max_tokens?: number;
  memory?: { window: number };
  max_steps?: number;
}

// Vocabulary declarations: each list and its type are shaped like VARIABLE_TYPES, with their own words.
/** Comparison operators of a switch condition. */
export const SWITCH_OPS = ['equals', 'not_equals', 'contains', 'matches', 'gt', 'lt', 'exists'] as const;
/** One of SWITCH_OPS. */
export type SwitchOp = (typeof SWITCH_OPS)[number];

/** One condition: `left op right`, each side a literal or a reference template. */
export interface SwitchCondition {
  left: unknown;
  op: SwitchOp;
  right?: unknown;
}

/** Settings of a `switch` node: the first matching case wins, else `else`. */
export interface SwitchNodeData {
  cases: Array<{ if: SwitchCondition; then: string }>;
  else?: string;
}

/** Response shapes of the Output node. */
export const OUTPUT_FORMATS = ['raw', 'chat_completion', 'json_template'] as const;
/** One of OUTPUT_FORMATS. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Settings of the `output` node. */
export interface OutputNodeData {
  format: OutputFormat;
  template?: unknown;
}

/** Fields each node type produces, for checking `{{node.field}}` references on save. */
export const NODE_OUTPUT_FIELDS: Record<NodeType, readonly string[] | 'any'> = {
  input: 'any',
  llm: ['text', 'usage', 'finish_reason'],
  switch: ['branch'],
  template: ['text'],
  output: 'any',
  tool: 'any',
  agent: ['text', 'output', 'usage'],
  retrieval: ['text', 'chunks'],
};

/** Settings of a `tool` node of kind `http`: a templated request (`{{args.NAME}}` and other references). */
export interface HttpToolData {
  kind: 'http';
  name: string;
  description?: string;
  /** JSON Schema of the arguments the model passes. */
  parameters?: Record<string, unknown>;
  request: { method?: string; url: string; headers?: Record<string, string>; body?: unknown };
  /** Longest wait for the answer (ms). */
  timeout_ms?: number;
  /** Largest answer read (bytes). */
  max_response_bytes?: number;
}

/** Settings of a `tool` node of kind `mcp`: every tool of an MCP server (Streamable HTTP), optionally filtered. */
export interface McpToolData {
  kind: 'mcp';
  url: string;
  headers?: Record<string, string>;
  allow?: string[];
  timeout_ms?: number;
}

/** Settings of an `agent` node: another flow of the organization, by slug, with mapped input. */
export interface AgentNodeData {
  flow: string;
  input?: Record<string, unknown>;
  /** Tool name and description when wired into an llm node. */
  name?: string;
  description?: string;
}

/** Settings of a `retrieval` node. */
export interface RetrievalNodeData {
  knowledge_base: string;
  query: string;
  top_k?: number;
}
