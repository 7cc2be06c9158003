// The tools an llm node offers its model, whichever node provides them (http, mcp, agent).

/** A tool offered to the model of an llm node. */
export interface FlowTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  /** The node that provides it. */
  node: string;
  /** Runs the tool; a throw becomes an error result for the model, never a failed run. */
  call(args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

/** The tools of one llm node, and a way to release their connections (MCP sessions). */
export interface ToolSet {
  tools: FlowTool[];
  close(): Promise<void>;
}
