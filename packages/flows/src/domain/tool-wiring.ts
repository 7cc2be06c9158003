import type { FlowDefinition, FlowEdge, FlowNode } from './flow-definition.ts';

/** Which nodes serve as tools of which `llm` nodes. */
export interface ToolWiring {
  /** Tool-providing node ids (tool nodes, and agent nodes wired into an llm node) by llm node id, in edge order. */
  toolsOf: Map<string, string[]>;
  /** Every node that serves as a tool: it is not a step of the graph but is called by its llm node. */
  toolNodes: Set<string>;
}

/**
 * An edge from a `tool` node, or from an `agent` node, into an `llm` node
 * makes the source a tool of that llm node rather than a step before it.
 */
export function toolWiring(nodes: FlowNode[], edges: FlowEdge[]): ToolWiring {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const toolsOf = new Map<string, string[]>();
  const toolNodes = new Set<string>();
  for (const node of nodes) if (node.type === 'tool') toolNodes.add(node.id);
  for (const edge of edges) {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    if (!from || !to || to.type !== 'llm' || (from.type !== 'tool' && from.type !== 'agent')) continue;
    toolNodes.add(from.id);
    const list = toolsOf.get(to.id) ?? [];
    if (!list.includes(from.id)) list.push(from.id);
    toolsOf.set(to.id, list);
  }
  return { toolsOf, toolNodes };
}

/** The edges the scheduler follows: tool edges are calls made by the llm node, not dependencies. */
export function schedulingEdges(definition: FlowDefinition, wiring: ToolWiring): FlowEdge[] {
  return definition.edges.filter((e) => !wiring.toolNodes.has(e.from) || !wiring.toolsOf.get(e.to)?.includes(e.from));
}
