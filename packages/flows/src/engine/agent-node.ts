import type { AgentNodeData } from '../domain/flow-definition.ts';
import { FlowsError } from '../domain/errors.ts';
import { renderJsonTemplate } from '../domain/references.ts';
import type { NodeContext, NodeResult } from './node-handler.ts';
import type { RunServices, SubFlowResult } from './run-services.ts';
import type { NodeTrace } from '../tracing/run-trace.ts';

/**
 * Runs flow `slug` as a sub-agent: refused when it is already on the chain of
 * flows that led here (a cycle) or when the chain is FLOWS_MAX_AGENT_DEPTH deep.
 */
export async function callSubFlow(
  services: RunServices,
  slug: string,
  input: Record<string, unknown>,
  metadata: Record<string, unknown>,
  signal: AbortSignal,
  trace?: NodeTrace,
): Promise<SubFlowResult> {
  if (services.chain.includes(slug)) {
    throw new FlowsError(
      'validation_failed',
      `Agent cycle: flow "${slug}" is already running in this chain (${[...services.chain, slug].join(' → ')})`,
      'agent_cycle',
    );
  }
  if (services.chain.length >= services.maxAgentDepth) {
    throw new FlowsError(
      'validation_failed',
      `Agent depth limit: ${services.chain.join(' → ')} → ${slug} nests deeper than ${services.maxAgentDepth} flows (FLOWS_MAX_AGENT_DEPTH)`,
      'agent_depth',
    );
  }
  return services.runSubFlow({ slug, input, metadata, signal, chain: services.chain, trace });
}

/** The input an agent node maps for its flow: `data.input` rendered (single references keep their type), absent values dropped. */
export function mappedInput(context: NodeContext, data: AgentNodeData): Record<string, unknown> {
  const rendered = renderJsonTemplate(data.input ?? {}, context.scope) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(rendered).filter(([, value]) => value !== null));
}

/**
 * `agent` as a step: runs the named flow with the mapped input; its output is
 * `{text, output, usage}` (`output` = what that flow's own call returns).
 * Wired into an llm node it is a tool instead, and this step only names it.
 */
export async function runAgentNode(context: NodeContext): Promise<NodeResult> {
  const data = context.node.data as unknown as AgentNodeData;
  if (context.flow.tools.toolNodes.has(context.node.id)) return { output: { tool: data.name ?? data.flow } };
  const result = await callSubFlow(context.services, data.flow, mappedInput(context, data), context.scope.metadata, context.signal, context.trace);
  return { output: { text: result.text, output: result.output, usage: result.usage }, usage: result.usage, text: result.text };
}
