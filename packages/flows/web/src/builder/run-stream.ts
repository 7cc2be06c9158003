// The Run panel's stream: JSON Lines events of `POST …/run` with `"stream": true` (design/flows.md) read as
// they arrive, and folded into what the panel shows. The fold is pure.
import { toolNameOf } from '../../../src/domain/node-validation.ts';
import { toolWiring } from '../../../src/domain/tool-wiring.ts';
import type { Definition } from '../canvas/definition.ts';
import type { NodeStatus } from './store.ts';

/** One event of the JSON Lines stream. */
export type RunEvent =
  | { type: 'run'; run_id: string; flow: string; version: number }
  | { type: 'node'; node: string; status: 'started' | 'finished'; ms?: number }
  | { type: 'delta'; content: string }
  | { type: 'tool_call'; node: string; tool: string; call_id: string; args: unknown }
  | { type: 'tool_result'; node: string; tool: string; call_id: string; result?: unknown; error?: unknown }
  | { type: 'done'; output: unknown; usage?: RunUsage }
  | { type: 'error'; error: { message?: string; type?: string; code?: string } };

/** Token counts of a run. */
export interface RunUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** A tool call as the panel lists it. */
export interface ToolCallView {
  callId: string;
  node: string;
  tool: string;
  args: unknown;
  result?: unknown;
  error?: unknown;
  done: boolean;
}

/** What the panel shows of a run. */
export interface RunView {
  phase: 'running' | 'succeeded' | 'failed';
  runId?: string;
  version?: number;
  answer: string;
  /** Node states by id, in the order they started. */
  nodes: Record<string, NodeStatus>;
  steps: Array<{ node: string; status: NodeStatus; ms?: number }>;
  tools: ToolCallView[];
  output?: unknown;
  usage?: RunUsage;
  error?: string;
}

/** A run that has just been sent. */
export const STARTED: RunView = { phase: 'running', answer: '', nodes: {}, steps: [], tools: [] };

function step(view: RunView, node: string, status: NodeStatus, ms?: number): RunView {
  const steps = view.steps.some((s) => s.node === node)
    ? view.steps.map((s) => (s.node === node ? { node, status, ms } : s))
    : [...view.steps, { node, status, ms }];
  return { ...view, nodes: { ...view.nodes, [node]: status }, steps };
}

/** The view after one more event. */
export function foldRunEvent(view: RunView, event: RunEvent): RunView {
  switch (event.type) {
    case 'run':
      return { ...view, runId: event.run_id, version: event.version };
    case 'node':
      return step(view, event.node, event.status === 'started' ? 'running' : 'finished', event.ms);
    case 'delta':
      return { ...view, answer: view.answer + event.content };
    case 'tool_call':
      return { ...view, tools: [...view.tools, { callId: event.call_id, node: event.node, tool: event.tool, args: event.args, done: false }] };
    case 'tool_result':
      return {
        ...view,
        tools: view.tools.map((t) => (t.callId === event.call_id ? { ...t, result: event.result, error: event.error, done: true } : t)),
      };
    case 'done':
      return { ...view, phase: 'succeeded', output: event.output, usage: event.usage };
    case 'error': {
      const nodes = { ...view.nodes };
      const steps = view.steps.map((s) => (s.status === 'running' ? { ...s, status: 'failed' as const } : s));
      for (const s of steps) nodes[s.node] = s.status;
      return { ...view, phase: 'failed', error: event.error?.message ?? 'The run failed', nodes, steps };
    }
    default:
      return view;
  }
}

/**
 * States of the tool and agent nodes an llm node called, from the tool calls
 * seen: `finished`, or `failed` when a call answered an error. Calls that no
 * HTTP tool or agent answers by name came from the llm node's MCP tools.
 */
export function toolStatuses(definition: Pick<Definition, 'nodes' | 'edges'>, tools: readonly ToolCallView[]): Record<string, NodeStatus> {
  const { toolsOf } = toolWiring(definition.nodes, definition.edges);
  const byId = new Map(definition.nodes.map((n) => [n.id, n]));
  const statuses: Record<string, NodeStatus> = {};
  const mark = (id: string, call: ToolCallView) => {
    if (!call.done) statuses[id] ??= 'running';
    else if (call.error !== undefined) statuses[id] = 'failed';
    else if (statuses[id] !== 'failed') statuses[id] = 'finished';
  };
  for (const call of tools) {
    const wired = (toolsOf.get(call.node) ?? []).map((id) => byId.get(id)!).filter(Boolean);
    const named = wired.find((node) => toolNameOf(node) === call.tool);
    if (named) mark(named.id, call);
    else for (const node of wired.filter((n) => n.type === 'tool' && n.data.kind === 'mcp')) mark(node.id, call);
  }
  return statuses;
}

/**
 * Node states once the run is over: what the stream said, then every step
 * that never started is `skipped` (a branch not taken; tools that were not
 * called have no state); the run record's trace, when read, corrects the rest.
 */
export function finalStatuses(
  view: RunView,
  definition: Pick<Definition, 'nodes' | 'edges'>,
  trace?: ReadonlyArray<{ node: string; status: string }>,
): Record<string, NodeStatus> {
  const { toolNodes } = toolWiring(definition.nodes, definition.edges);
  const called = toolStatuses(definition, view.tools);
  const statuses: Record<string, NodeStatus> = {};
  for (const node of definition.nodes) {
    if (toolNodes.has(node.id)) {
      if (called[node.id]) statuses[node.id] = called[node.id] === 'running' ? 'failed' : called[node.id];
    } else statuses[node.id] = view.nodes[node.id] ?? 'skipped';
  }
  for (const entry of trace ?? []) {
    const status = entry.status === 'succeeded' ? 'finished' : entry.status === 'failed' ? 'failed' : entry.status === 'skipped' ? 'skipped' : undefined;
    if (status) statuses[entry.node] = status;
  }
  return statuses;
}

/** Reads a JSON Lines body, calling `onEvent` for each line as soon as it has arrived whole. */
export async function readJsonLines(body: ReadableStream<Uint8Array>, onEvent: (event: RunEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const flush = (final: boolean) => {
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) onEvent(JSON.parse(line) as RunEvent);
      newline = buffer.indexOf('\n');
    }
    if (final && buffer.trim()) {
      onEvent(JSON.parse(buffer) as RunEvent);
      buffer = '';
    }
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    flush(false);
  }
  buffer += decoder.decode();
  flush(true);
}
