import type { FlowDefinition } from './domain/flow-definition.ts';
import { invalidFlow } from './domain/errors.ts';
import type { FlowStore } from './store/flow-store.ts';

function agentFlows(definition: FlowDefinition): Array<{ node: string; index: number; flow: string }> {
  return definition.nodes.flatMap((n, index) => (n.type === 'agent' && typeof n.data.flow === 'string' ? [{ node: n.id, index, flow: n.data.flow }] : []));
}

/**
 * Refuses a definition whose agent nodes lead back to the flow itself,
 * following the saved flows of the organization (at their current versions).
 * Flows that do not exist yet are not followed; a run still refuses a cycle.
 */
export async function refuseAgentCycles(flows: FlowStore, orgId: number, slug: string | undefined, definition: FlowDefinition): Promise<void> {
  if (!slug) return;
  const cache = new Map<string, FlowDefinition | null>();
  const load = async (target: string): Promise<FlowDefinition | null> => {
    if (!cache.has(target)) {
      const found = await flows.find(orgId, target);
      cache.set(target, found ? await flows.definition(found.id, found.version) : null);
    }
    return cache.get(target)!;
  };
  const pathTo = async (from: string, seen: Set<string>): Promise<string[] | undefined> => {
    if (from === slug) return [from];
    if (seen.has(from)) return undefined;
    seen.add(from);
    const definition = await load(from);
    if (!definition) return undefined;
    for (const next of agentFlows(definition)) {
      const rest = await pathTo(next.flow, seen);
      if (rest) return [from, ...rest];
    }
    return undefined;
  };
  for (const agent of agentFlows(definition)) {
    const path = await pathTo(agent.flow, new Set());
    if (path) {
      throw invalidFlow([
        {
          param: `nodes[${agent.index}].data.flow`,
          message: `Node "${agent.node}": agent cycle ${[slug, ...path].map((s) => `"${s}"`).join(' → ')}; a flow cannot call itself`,
        },
      ]);
    }
  }
}
