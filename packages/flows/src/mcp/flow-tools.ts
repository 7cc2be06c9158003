import { toolFailure, toolResult, type Logger } from '@switchboard/core';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { presentError } from '../domain/error-shape.ts';
import { inputJsonSchema, validateInput } from '../domain/input-variables.ts';
import { toolDescriptionOf } from '../domain/mcp-settings.ts';
import type { RunEvent } from '../engine/node-handler.ts';
import type { RunPlan, RunService } from '../engine/run-service.ts';
import type { FlowMcpRow, FlowMcpStore } from '../store/flow-mcp-store.ts';
import type { Principal } from '../store/org-store.ts';
import type { RunRecord, RunStore } from '../store/run-store.ts';

/** The read-only tool that answers a run's state later (always listed). */
export const GET_FLOW_RUN = 'get_flow_run';

/** What every flow tool and get_flow_run answer: a run's id, state, output and, when it failed, its error. */
export const RUN_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    run_id: { type: 'string', description: 'The run, for get_flow_run' },
    status: { type: 'string', enum: ['succeeded', 'running', 'failed'] },
    output: { description: "The flow's answer: a string for a raw Output node, else its JSON; null until the run succeeded" },
    error: {
      type: 'object',
      description: 'Why the run failed',
      properties: { message: { type: 'string' }, type: { type: 'string' }, code: { type: 'string' } },
      required: ['message', 'code'],
    },
  },
  required: ['run_id', 'status', 'output'],
} as const;

const GET_FLOW_RUN_TOOL: Tool = {
  name: GET_FLOW_RUN,
  title: 'Get flow run',
  description: 'The state of a run started by a flow tool that answered "running": its status and, once it ended, its output or error.',
  inputSchema: {
    type: 'object',
    properties: { run_id: { type: 'string', description: 'The run_id a flow tool answered' } },
    required: ['run_id'],
    additionalProperties: false,
  },
  outputSchema: RUN_OUTPUT_SCHEMA as unknown as Tool['outputSchema'],
  annotations: { title: 'Get flow run', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** An authenticated caller of an organization's MCP endpoint. */
export interface FlowsMcpCaller {
  principal: Principal;
  logger: Logger;
}

/** What the tools read and run. */
export interface FlowToolsDeps {
  settings: FlowMcpStore;
  runs: RunService;
  runStore: RunStore;
  /** FLOWS_MCP_WAIT_MS. */
  waitMs: number;
}

/** How a call reports progress while its run streams (present when the client sent a progress token). */
export type ProgressSink = (message: string) => void;

/** The tool of an enabled flow. */
async function toolOf(deps: FlowToolsDeps, principal: Principal, flow: FlowMcpRow): Promise<Tool> {
  const loaded = await deps.runs.load(principal.orgId, flow.slug, flow);
  const { $schema: _dialect, ...inputSchema } = inputJsonSchema(loaded.compiled.variables, loaded.compiled.definition.name);
  return {
    name: flow.toolName!,
    title: flow.name,
    description: toolDescriptionOf(flow),
    inputSchema: inputSchema as Tool['inputSchema'],
    outputSchema: RUN_OUTPUT_SCHEMA as unknown as Tool['outputSchema'],
    annotations: { title: flow.name, readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  };
}

/** The caller's tools: the organization's flows enabled for MCP, then get_flow_run. */
export async function listFlowTools(deps: FlowToolsDeps, principal: Principal): Promise<Tool[]> {
  const flows = await deps.settings.enabled(principal.orgId);
  const tools = await Promise.all(flows.map((flow) => toolOf(deps, principal, flow)));
  return [...tools, GET_FLOW_RUN_TOOL];
}

/** The enabled flow behind a tool name, or undefined (unknown, disabled or deleted). */
export function flowOfTool(deps: FlowToolsDeps, principal: Principal, name: string): Promise<FlowMcpRow | undefined> {
  return deps.settings.byToolName(principal.orgId, name);
}

/**
 * Runs a flow as `POST …/run` does (its latest version, the same input check, a run record with trigger `mcp`),
 * waits up to FLOWS_MCP_WAIT_MS, and answers `{run_id, status, output}`; a run still going answers `running`
 * (and is recorded so, for get_flow_run), a failed one `isError` with its message. When `signal` aborts (the
 * client went away) the call stops waiting and drops `progress` at once; the run goes on and is recorded, since
 * MCP does not take a disconnection for a cancellation.
 */
export async function runFlowTool(
  deps: FlowToolsDeps,
  caller: FlowsMcpCaller,
  flow: FlowMcpRow,
  args: Record<string, unknown> | undefined,
  progress?: ProgressSink,
  signal?: AbortSignal,
): Promise<CallToolResult> {
  const { principal } = caller;
  // The tool's row brought the flow's current version: no second query to find it, as the run route's token lookup.
  const loaded = await deps.runs.load(principal.orgId, flow.slug, flow);
  const checked = validateInput(loaded.compiled.variables, args ?? {});
  if (!checked.ok) {
    const message = `The arguments do not match the input of flow "${flow.slug}": ${checked.problems.map((p) => p.message).join('; ')}. Fix them and call again.`;
    return toolFailure('invalid_input', message, checked.problems);
  }
  const plan: RunPlan = { principal, flow: loaded, input: checked.input, metadata: {}, conversation: [], trigger: 'mcp' };
  const ids = deps.runs.newIds();
  const startedAt = new Date();
  // The run keeps its emitter to its end: what it holds of the call (the sink) is let go when the client goes.
  let sink = progress;
  const emit = sink ? progressEmitter((message) => sink?.(message)) : () => undefined;
  const running = deps.runs.start(plan, { ids, streaming: progress !== undefined, emit });
  let timer: NodeJS.Timeout | undefined;
  let stopWaiting: () => void = () => undefined;
  const waited = new Promise<'running'>((resolve) => {
    timer = setTimeout(() => resolve('running'), deps.waitMs);
    stopWaiting = () => {
      sink = undefined;
      resolve('running');
    };
  });
  if (signal?.aborted) stopWaiting();
  signal?.addEventListener('abort', stopWaiting, { once: true });
  const outcome = await Promise.race([running.outcome, waited]);
  clearTimeout(timer);
  signal?.removeEventListener('abort', stopWaiting);
  if (outcome === 'running') {
    await deps.runs.recordRunning(plan, ids, startedAt);
    return toolResult({ run_id: ids.runId, status: 'running', output: null });
  }
  if (!outcome.ok) {
    const error = presentError(outcome.error).error;
    const message = `Run ${ids.runId} of flow "${flow.slug}" failed: ${error.message}`;
    return toolFailure(error.code, message, { run_id: ids.runId, error });
  }
  return toolResult({ run_id: ids.runId, status: 'succeeded', output: outcome.output });
}

function progressEmitter(progress: ProgressSink): (event: RunEvent) => void {
  return (event) => {
    if (event.type === 'delta') progress(event.content);
    else if (event.type === 'node' && event.status === 'finished') progress(`node ${event.node} finished`);
  };
}

/** get_flow_run: the state of a run the organization started over MCP (other runs are not this tool's to show). */
export async function getFlowRun(deps: FlowToolsDeps, principal: Principal, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const runId = args?.run_id;
  if (typeof runId !== 'string' || runId === '') {
    return toolFailure('invalid_input', 'get_flow_run needs "run_id": the run_id a flow tool answered.', [
      { param: 'run_id', message: '"run_id" must be a string' },
    ]);
  }
  const run = await deps.runStore.get(principal.orgId, runId);
  if (run?.trigger !== 'mcp') {
    return toolFailure('not_found', `Run "${runId}" not found: pass the run_id a flow tool of this endpoint answered.`);
  }
  return toolResult(presentRun(run));
}

function presentRun(run: RunRecord) {
  if (run.status === 'failed') return { run_id: run.id, status: run.status, output: null, error: run.error };
  return { run_id: run.id, status: run.status, output: run.status === 'succeeded' ? run.output : null };
}
