import type { FlowDefinition, FlowNode, InputVariable, OutputNodeData } from './flow-definition.ts';
import { buildGraph, type FlowGraph } from './flow-graph.ts';
import { schedulingEdges, toolWiring, type ToolWiring } from './tool-wiring.ts';

/** A validated definition indexed for running; built once per (flow, version) and cached. */
export interface CompiledFlow {
  definition: FlowDefinition;
  graph: FlowGraph;
  nodes: Map<string, FlowNode>;
  inputNode: FlowNode;
  outputNode: FlowNode;
  variables: InputVariable[];
  output: OutputNodeData;
  /** Nodes whose result becomes the reply (the output node's predecessors). */
  answerSources: Set<string>;
  /** Tool and agent nodes wired into llm nodes; their edges into llm nodes are not scheduling edges. */
  tools: ToolWiring;
}

/** Indexes a definition that passed validateDefinition. */
export function compileFlow(definition: FlowDefinition): CompiledFlow {
  const tools = toolWiring(definition.nodes, definition.edges);
  const graph = buildGraph(definition.nodes, schedulingEdges(definition, tools));
  if ('cycle' in graph) throw new Error(`stored flow has a cycle through ${graph.cycle.join(', ')}`);
  const inputNode = definition.nodes.find((n) => n.type === 'input')!;
  const outputNode = definition.nodes.find((n) => n.type === 'output')!;
  return {
    definition,
    graph,
    nodes: new Map(definition.nodes.map((n) => [n.id, n])),
    inputNode,
    outputNode,
    variables: (inputNode.data.variables as InputVariable[] | undefined) ?? [],
    output: outputNode.data as unknown as OutputNodeData,
    answerSources: new Set(graph.predecessors.get(outputNode.id)),
    tools,
  };
}
