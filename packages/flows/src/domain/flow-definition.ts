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

/** Node types the engine runs. Tool, agent and retrieval nodes come with their handlers. */
export const NODE_TYPES = ['input', 'llm', 'switch', 'template', 'output'] as const;
/** One of NODE_TYPES. */
export type NodeType = (typeof NODE_TYPES)[number];

/** One node of the graph: `data` is checked per type by flow-validation. */
export interface FlowNode {
  id: string;
  type: NodeType;
  data: Record<string, unknown>;
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
};
