// The Run panel's stream: JSON Lines events of `POST …/run` with `"stream": true` (design/flows.md) read as
// they arrive, and folded into what the panel shows. The fold is pure.
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
  const steps = view.steps.some((s) => s.node === node) ? view.steps.map((s) => (s.node === node ? { node, status, ms } : s)) : [...view.steps, { node, status, ms }];
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
 * Node states once the run is over: what the stream said, then every node
 * that never started is `skipped` (a branch not taken); the run record's
 * trace, when read, corrects the rest.
 */
export function finalStatuses(view: RunView, nodeIds: readonly string[], trace?: ReadonlyArray<{ node: string; status: string }>): Record<string, NodeStatus> {
  const statuses: Record<string, NodeStatus> = {};
  for (const id of nodeIds) statuses[id] = view.nodes[id] ?? 'skipped';
  for (const entry of trace ?? []) statuses[entry.node] = entry.status === 'succeeded' ? 'finished' : entry.status === 'failed' ? 'failed' : entry.status === 'skipped' ? 'skipped' : statuses[entry.node];
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
