// `{{` completions: the references a node's settings may use (input variables, upstream nodes' output
// fields, metadata, a tool's args), by the server's rules for which references resolve. Pure.
import { NODE_OUTPUT_FIELDS } from '../../../src/domain/flow-definition.ts';
import { ancestorsOf, buildGraph } from '../../../src/domain/flow-graph.ts';
import type { DefEdge, DefNode } from '../canvas/definition.ts';

/** One completion: the text inserted after `{{` (before `}}`), and what it is. */
export interface ReferenceOption {
  value: string;
  detail: string;
}

/** The references node `nodeId` may use, in the order they are offered. */
export function referenceOptions(nodes: readonly DefNode[], edges: readonly DefEdge[], nodeId: string): ReferenceOption[] {
  const options: ReferenceOption[] = [];
  const input = nodes.find((n) => n.type === 'input');
  const variables = Array.isArray(input?.data.variables) ? (input!.data.variables as Array<{ name?: unknown; type?: unknown }>) : [];
  for (const variable of variables)
    if (typeof variable?.name === 'string') options.push({ value: `input.${variable.name}`, detail: `Input variable (${String(variable.type ?? '')})` });

  const self = nodes.find((n) => n.id === nodeId);
  const built = buildGraph(nodes as DefNode[], edges as DefEdge[]);
  // With a cycle there is no order yet: offer every other node.
  const upstream = 'cycle' in built ? new Set(nodes.map((n) => n.id).filter((id) => id !== nodeId)) : ancestorsOf(built, nodeId);
  const typeOf = new Map(nodes.map((n) => [n.id, n.type]));
  // An agent wired into an llm node is its tool, not a step whose output others read.
  const tools = new Set(edges.filter((e) => typeOf.get(e.to) === 'llm' && typeOf.get(e.from) === 'agent').map((e) => e.from));
  for (const node of nodes) {
    if (!upstream.has(node.id) || node.type === 'input' || node.type === 'output' || node.type === 'tool' || tools.has(node.id)) continue;
    const fields = NODE_OUTPUT_FIELDS[node.type];
    if (fields === 'any') continue;
    for (const field of fields) options.push({ value: `${node.id}.${field}`, detail: `${node.type} node output` });
  }
  options.push({ value: 'metadata.session_id', detail: 'Run metadata' });
  if (self?.type === 'tool') {
    const properties = (self.data.parameters as { properties?: Record<string, unknown> } | undefined)?.properties;
    for (const name of Object.keys(properties ?? {})) options.push({ value: `args.${name}`, detail: 'Tool argument' });
  }
  return options;
}

/** The organization's secrets as completions: only for the fields a secret may appear in (a tool's request). */
export function secretOptions(names: readonly string[] | undefined): ReferenceOption[] {
  return (names ?? []).map((name) => ({ value: `secrets.${name}`, detail: 'Secret (sent to the tool, never shown)' }));
}

/** Where a completion is being typed: after an unclosed `{{` before the caret, the text typed so far. */
export interface CompletionSpot {
  /** Index where the reference's name starts (after `{{` and spaces). */
  start: number;
  query: string;
}

/** The reference being typed at `caret`, if the caret is inside an unclosed `{{…`. */
export function completionSpot(text: string, caret: number): CompletionSpot | undefined {
  const before = text.slice(0, caret);
  const open = before.lastIndexOf('{{');
  if (open < 0) return undefined;
  const typed = before.slice(open + 2);
  const match = /^(\s*)([A-Za-z0-9_.-]*)$/.exec(typed);
  if (!match) return undefined;
  return { start: open + 2 + match[1].length, query: match[2] };
}

/** Options starting with (else containing) what was typed. */
export function matchOptions(options: readonly ReferenceOption[], query: string): ReferenceOption[] {
  const q = query.toLowerCase();
  const starts = options.filter((o) => o.value.toLowerCase().startsWith(q));
  const contains = options.filter((o) => !o.value.toLowerCase().startsWith(q) && o.value.toLowerCase().includes(q));
  return [...starts, ...contains];
}

/** The text with the completion applied at `spot`, closing it with `}}` unless already closed; and the caret after it. */
export function applyCompletion(text: string, caret: number, spot: CompletionSpot, value: string): { text: string; caret: number } {
  const after = text.slice(caret);
  const closing = /^\s*\}\}/.test(after) ? '' : '}}';
  const inserted = `${value}${closing}`;
  const next = text.slice(0, spot.start) + inserted + after;
  const end = spot.start + inserted.length + (closing ? 0 : (/^\s*\}\}/.exec(after)?.[0].length ?? 0));
  return { text: next, caret: end };
}
