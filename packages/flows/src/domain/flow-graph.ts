import type { FlowEdge, FlowNode } from './flow-definition.ts';

/** The graph of a definition, indexed for ordering and for the scheduler. */
export interface FlowGraph {
  /** Node ids in a dependency order (every node after all its predecessors). */
  order: string[];
  predecessors: Map<string, string[]>;
  successors: Map<string, string[]>;
}

/**
 * Builds the graph and orders it (Kahn's algorithm, ties in definition order);
 * returns the ids caught in a cycle instead when there is one.
 */
export function buildGraph(nodes: FlowNode[], edges: FlowEdge[]): FlowGraph | { cycle: string[] } {
  const predecessors = new Map<string, string[]>(nodes.map((n) => [n.id, []]));
  const successors = new Map<string, string[]>(nodes.map((n) => [n.id, []]));
  for (const edge of edges) {
    if (!predecessors.has(edge.to) || !successors.has(edge.from)) continue;
    if (!predecessors.get(edge.to)!.includes(edge.from)) {
      predecessors.get(edge.to)!.push(edge.from);
      successors.get(edge.from)!.push(edge.to);
    }
  }
  const remaining = new Map(nodes.map((n) => [n.id, predecessors.get(n.id)!.length]));
  const order: string[] = [];
  const ready = nodes.filter((n) => remaining.get(n.id) === 0).map((n) => n.id);
  while (ready.length > 0) {
    const id = ready.shift()!;
    order.push(id);
    for (const next of successors.get(id)!) {
      const left = remaining.get(next)! - 1;
      remaining.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  if (order.length < nodes.length) return { cycle: nodes.map((n) => n.id).filter((id) => !order.includes(id)) };
  return { order, predecessors, successors };
}

/** Every node upstream of `id` (its transitive predecessors). */
export function ancestorsOf(graph: FlowGraph, id: string): Set<string> {
  const seen = new Set<string>();
  const stack = [...(graph.predecessors.get(id) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(graph.predecessors.get(next) ?? []));
  }
  return seen;
}
