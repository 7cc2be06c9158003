import type { AppError } from '@switchboard/core';
import type { CompiledFlow } from '../domain/compiled-flow.ts';
import type { FlowNode, NodeType } from '../domain/flow-definition.ts';
import type { ModelCallRecord } from '../domain/sent-messages.ts';
import { SecretMask } from './tool-secrets.ts';
import type { Scope } from '../domain/references.ts';
import { stringify } from '../domain/references.ts';
import type { TraceEntry } from '../store/run-store.ts';
import { usageOf, type Usage } from '../domain/usage.ts';
import { runInputNode, runOutputNode, runSwitchNode, runTemplateNode } from './basic-nodes.ts';
import { runLlmNode } from './llm-node.ts';
import { runAgentNode } from './agent-node.ts';
import { runRetrievalNode } from './retrieval-node.ts';
import { runToolNode } from './tool-nodes.ts';
import type { RunServices } from './run-services.ts';
import type { ConversationMessage, NodeHandler, NodeResult, RunEvent } from './node-handler.ts';
import type { OrgProviders } from './provider-registry.ts';
import { internalError } from './run-errors.ts';
import { presentError } from '../domain/error-shape.ts';
import type { RunTrace } from '../tracing/run-trace.ts';

function presentTraceError(error: AppError): { message: string; type: string; code: string } {
  const { message, type, code } = presentError(error).error;
  return { message, type, code };
}

/** Handlers by node type; issue 5's tool, agent and retrieval nodes register here. */
export const NODE_HANDLERS: Record<NodeType, NodeHandler> = {
  input: runInputNode,
  llm: runLlmNode,
  switch: runSwitchNode,
  template: runTemplateNode,
  output: runOutputNode,
  tool: runToolNode,
  agent: runAgentNode,
  retrieval: runRetrievalNode,
};

/** Everything one run needs. */
export interface RunRequest {
  flow: CompiledFlow;
  /** Validated input (defaults applied). */
  input: Record<string, unknown>;
  metadata: Record<string, unknown>;
  conversation: ConversationMessage[];
  callerSystem?: string;
  providers: OrgProviders;
  /** Aborts the run: timeout or client gone (the reason says which). */
  signal: AbortSignal;
  /**
   * The controller of `signal`, when the caller made it for this run alone: a failing node aborts it to cancel
   * its siblings, instead of a second controller listening to `signal` (a held stream keeps both for its life).
   */
  controller?: AbortController;
  /** True when the caller streams: reply tokens are emitted as they come. */
  streaming: boolean;
  emit: (event: RunEvent) => void;
  providerRetries: number;
  /** Clock, injectable for tests. */
  now?: () => Date;
  /** Knowledge, memory, tools and sub-flows. */
  services: RunServices;
  /** The run's span, when runs are traced: each node gets a child span. */
  trace?: RunTrace;
}

/** What a successful run produced. */
export interface RunResult {
  /** The reply text (raw and chat_completion). */
  text: string;
  /** The rendered object of a json_template output. */
  value: unknown;
  finishReason: string;
  usage: Usage;
  trace: TraceEntry[];
}

/** A failed run: the error plus the trace up to the failure. */
export class RunFailure extends Error {
  constructor(
    readonly error: AppError,
    readonly trace: TraceEntry[],
    readonly usage: Usage,
  ) {
    super(error.message);
  }
}

type State = 'waiting' | 'running' | 'done' | 'skipped' | 'failed';

/** Adds b into a. */
export function addUsage(a: Usage, b: Usage | undefined): void {
  if (!b) return;
  a.prompt_tokens += b.prompt_tokens;
  a.completion_tokens += b.completion_tokens;
  a.total_tokens += b.total_tokens;
}

/**
 * Runs a flow: every node once all its predecessors settled, independent
 * branches concurrently; a node none of whose incoming edges is live (its
 * predecessors skipped, or a switch chose another branch) is skipped.
 * The first failing node aborts the rest and fails the run.
 */
export function runFlow(request: RunRequest): Promise<RunResult> {
  const { flow } = request;
  const now = request.now ?? (() => new Date());
  const scope: Scope = { input: request.input, metadata: request.metadata, nodes: {} };
  const state = new Map<string, State>(flow.definition.nodes.map((n) => [n.id, 'waiting']));
  const waitingOn = new Map(flow.definition.nodes.map((n) => [n.id, flow.graph.predecessors.get(n.id)!.length]));
  const branches = new Map<string, string | null>();
  const results = new Map<string, NodeResult>();
  const trace = new Map<string, TraceEntry>();
  const usage = usageOf();
  // What each node's model calls were sent, and the secret values this run revealed to tools: masked in the trace.
  const sent = new Map<string, ModelCallRecord[]>();
  const revealed = new Set<string>();
  const services: RunServices = {
    ...request.services,
    revealSecrets: async (names) => {
      const values = await request.services.revealSecrets(names);
      for (const value of values.values()) revealed.add(value);
      if (request.trace && values.size > 0) request.trace.maskWith(revealed, new SecretMask(revealed));
      return values;
    },
  };
  const withModelCalls = (entry: TraceEntry, node: FlowNode): TraceEntry => {
    const calls = sent.get(node.id);
    if (!calls) return entry;
    const key = typeof node.data.provider === 'string' ? request.providers.secretOf(node.data.provider) : null;
    const mask = new SecretMask(key ? [...revealed, key] : revealed);
    return { ...entry, model_calls: mask.value(calls) };
  };
  // One failing node cancels its concurrent siblings, as does the caller's signal.
  const lent = request.controller?.signal === request.signal ? request.controller : undefined;
  const internal = lent ?? new AbortController();
  // A controller of its own follows the caller's signal (a lent one is the caller's: nothing to follow).
  const onOuterAbort = () => internal.abort(request.signal.reason);
  if (!lent) {
    if (request.signal.aborted) internal.abort(request.signal.reason);
    else request.signal.addEventListener('abort', onOuterAbort, { once: true });
  }

  return new Promise<RunResult>((resolve, reject) => {
    let settled = 0;
    let finished = false;
    const total = flow.definition.nodes.length;

    const orderedTrace = () => flow.graph.order.map((id) => trace.get(id)).filter((t): t is TraceEntry => t !== undefined);
    const fail = (error: AppError) => {
      if (finished) return;
      finished = true;
      request.signal.removeEventListener('abort', onOuterAbort);
      internal.abort(internal.signal.reason ?? error);
      reject(new RunFailure(error, orderedTrace(), usage));
    };
    const complete = () => {
      finished = true;
      request.signal.removeEventListener('abort', onOuterAbort);
      const sources = [...flow.answerSources].filter((id) => state.get(id) === 'done');
      const texts = sources.map((id) => results.get(id)!.text ?? stringify(results.get(id)!.output));
      const finishReason = sources.map((id) => results.get(id)!.finishReason).find((r) => r !== undefined) ?? 'stop';
      const value = results.get(flow.outputNode.id)?.output;
      resolve({ text: texts.join('\n\n'), value, finishReason, usage, trace: orderedTrace() });
    };
    const settle = (id: string) => {
      settled += 1;
      for (const next of flow.graph.successors.get(id)!) {
        const left = waitingOn.get(next)! - 1;
        waitingOn.set(next, left);
        if (left === 0) decide(next);
      }
      if (settled === total && !finished) complete();
    };
    const live = (from: string, to: string) => state.get(from) === 'done' && (!branches.has(from) || branches.get(from) === to);
    const decide = (id: string) => {
      if (finished) return;
      const preds = flow.graph.predecessors.get(id)!;
      if (preds.length === 0 || preds.some((p) => live(p, id))) start(id);
      else {
        state.set(id, 'skipped');
        const node = flow.nodes.get(id)!;
        request.trace?.node(id, node.type).end('skipped');
        trace.set(id, { node: id, type: node.type, status: 'skipped', started_at: now().toISOString(), ms: 0 });
        settle(id);
      }
    };
    const start = (id: string) => {
      const node = flow.nodes.get(id)!;
      state.set(id, 'running');
      const startedAt = now();
      const began = performance.now();
      request.emit({ type: 'node', node: id, status: 'started' });
      const streamReply = request.streaming && flow.answerSources.has(id) && flow.output.format !== 'json_template';
      const span = request.trace?.node(id, node.type);
      NODE_HANDLERS[node.type]({
        node,
        flow,
        scope,
        signal: internal.signal,
        providers: request.providers,
        conversation: request.conversation,
        callerSystem: request.callerSystem,
        streamReply,
        emit: (event) => {
          if (!finished) request.emit(event);
        },
        providerRetries: request.providerRetries,
        services,
        trace: span,
        recordModelCall: (messages) => {
          const calls = sent.get(id) ?? [];
          calls.push({ messages });
          sent.set(id, calls);
        },
      })
        .then((result) => {
          if (finished) return span?.end('succeeded');
          const ms = Math.round((performance.now() - began) * 100) / 100;
          state.set(id, 'done');
          results.set(id, result);
          scope.nodes[id] = result.output;
          if (node.type === 'switch') branches.set(id, result.branch ?? null);
          addUsage(usage, result.usage);
          const entry: TraceEntry = { node: id, type: node.type, status: 'succeeded', started_at: startedAt.toISOString(), ms };
          if (node.type !== 'output') entry.output = node.type === 'llm' ? { text: result.text, finish_reason: result.finishReason } : result.output;
          if (result.usage) entry.usage = result.usage;
          if (result.toolCalls) entry.tool_calls = result.toolCalls;
          trace.set(id, withModelCalls(entry, node));
          // Replies that did not stream token by token (template, or a non-llm source) leave as one fragment.
          if (streamReply && !result.streamed) {
            const text = result.text ?? stringify(result.output);
            if (text !== '') request.emit({ type: 'delta', content: text });
          }
          request.emit({ type: 'node', node: id, status: 'finished', ms });
          span?.end('succeeded');
          settle(id);
        })
        // Also what throws while the result is recorded (or the next nodes start): the run fails instead of never settling.
        .catch((thrown: unknown) => {
          if (finished) return span?.end('failed', thrown);
          const error = internalError(thrown, internal.signal);
          span?.end('failed', error);
          state.set(id, 'failed');
          const ms = Math.round((performance.now() - began) * 100) / 100;
          trace.set(
            id,
            withModelCalls({ node: id, type: node.type, status: 'failed', started_at: startedAt.toISOString(), ms, error: presentTraceError(error) }, node),
          );
          fail(error);
        });
    };

    if (request.signal.aborted) return fail(internalError(request.signal.reason, request.signal));
    for (const id of flow.graph.order) if (flow.graph.predecessors.get(id)!.length === 0) decide(id);
  });
}
