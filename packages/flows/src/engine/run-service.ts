import { randomFillSync } from 'node:crypto';
import { AppError, isoNow } from '@switchboard/core';
import type { FlowsConfig } from '../config.ts';
import { compileFlow, type CompiledFlow } from '../domain/compiled-flow.ts';
import { flowNotFound } from '../domain/errors.ts';
import { presentError } from '../domain/error-shape.ts';
import { replyContent, runOutput } from '../domain/response-shapes.ts';
import type { FlowStore } from '../store/flow-store.ts';
import type { Principal } from '../store/org-store.ts';
import type { RunRecord, RunRecorder, RunTrigger } from '../store/run-store.ts';
import { CostMeter } from '../domain/cost.ts';
import type { TraceCarrier, Tracing } from '../tracing/otel-tracing.ts';
import type { RunTrace } from '../tracing/run-trace.ts';
import { usageOf, type Usage } from '../domain/usage.ts';
import { runFlow, RunFailure, type RunResult } from './flow-runner.ts';
import type { ConversationMessage, RunEvent } from './node-handler.ts';
import type { ProviderRegistry } from './provider-registry.ts';
import { RunTimeout, ShuttingDown } from './run-errors.ts';
import type { KnowledgeService } from './knowledge-service.ts';
import type { MemoryStore } from '../store/memory-store.ts';
import type { SecretStore } from '../store/secret-store.ts';
import type { RunServices, SubFlowResult } from './run-services.ts';
import { validateInput } from '../domain/input-variables.ts';
import { FlowsError } from '../domain/errors.ts';

const CACHE_LIMIT = 1000;
// Run ids come from a pooled random buffer: one randomFillSync per 341 runs instead of one per run.
const ID_BYTES = 12;
const idPool = Buffer.alloc(ID_BYTES * 341);
let idOffset = idPool.length;

function randomHex(): string {
  if (idOffset + ID_BYTES > idPool.length) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  idOffset += ID_BYTES;
  return idPool.toString('hex', idOffset - ID_BYTES, idOffset);
}
// A run still going after this long is recorded as `running`; quicker runs are written once, at the end.
const RUNNING_RECORD_AFTER_MS = 1000;

/** A flow at its current version, ready to run. */
export interface LoadedFlow {
  slug: string;
  version: number;
  compiled: CompiledFlow;
}

/** A run that passed validation, about to start. */
export interface RunPlan {
  principal: Principal;
  flow: LoadedFlow;
  input: Record<string, unknown>;
  metadata: Record<string, unknown>;
  conversation: ConversationMessage[];
  callerSystem?: string;
  /** What started the run (`api` when unsaid). */
  trigger?: RunTrigger;
  /** The schedule's name, for a scheduled run. */
  schedule?: string;
  /** The caller's W3C trace context (`traceparent`, `tracestate`): a traced run becomes a child of its trace. */
  traceCarrier?: TraceCarrier;
}

/** Identifiers of one run, known before it starts (X-Run-Id, the completion id). */
export interface RunIds {
  runId: string;
  completionId: string;
  created: number;
}

/** How a run ended, as the transports present it. */
export type RunOutcome = { ok: true; result: RunResult; output: unknown; usage: Usage } | { ok: false; error: AppError; usage: Usage };

/** A started run: its ids, its outcome, and a way to cancel it (client gone). */
export interface RunningFlow {
  ids: RunIds;
  outcome: Promise<RunOutcome>;
  abort(reason: Error): void;
}

/** Loads flows (cached per flow id and version), starts runs with a timeout, records them. */
export class RunService {
  // Definitions are immutable per (flow id, version), so caching them is always safe.
  private readonly compiled = new Map<string, CompiledFlow>();
  /** The runs of this process still going, so that a stop can end them. */
  private readonly inFlight = new Set<AbortController>();

  constructor(
    private readonly flows: FlowStore,
    private readonly providers: ProviderRegistry,
    private readonly recorder: RunRecorder,
    private readonly config: FlowsConfig,
    private readonly agentDeps: { knowledge: KnowledgeService; memory: MemoryStore; secrets: SecretStore; tracing?: Tracing },
  ) {}

  /** Tools, knowledge, memory and sub-flows for a run of `slug`, reached through the chain of agent flows `chain`. */
  private services(orgId: number, providersVersion: number, slug: string, chain: string[], meter: CostMeter): RunServices {
    return {
      orgId,
      providersVersion,
      flowSlug: slug,
      chain: [...chain, slug],
      maxAgentDepth: this.config.maxAgentDepth,
      knowledge: this.agentDeps.knowledge,
      memory: this.agentDeps.memory,
      policy: this.config.allowedHosts,
      toolTimeoutMs: this.config.toolTimeoutMs,
      toolMaxResponseBytes: this.config.toolMaxResponseBytes,
      runSubFlow: (request) => this.runSubFlow(orgId, providersVersion, request, meter),
      meter,
      revealSecrets: (names) => this.agentDeps.secrets.reveal(orgId, names),
      describeFlow: async (sub) => {
        const { compiled } = await this.load(orgId, sub);
        return { name: compiled.definition.name, description: compiled.definition.description, variables: compiled.variables };
      },
    };
  }

  /** Runs another flow of the organization inside a run (agent nodes): no record of its own, its trace stays inside. */
  private async runSubFlow(
    orgId: number,
    providersVersion: number,
    request: Parameters<RunServices['runSubFlow']>[0],
    meter: CostMeter,
  ): Promise<SubFlowResult> {
    const flow = await this.load(orgId, request.slug);
    const checked = validateInput(flow.compiled.variables, request.input);
    if (!checked.ok) {
      throw new FlowsError(
        'validation_failed',
        `Input of flow "${request.slug}" does not match its Input node: ${checked.problems.map((p) => p.message).join('; ')}`,
        'invalid_input',
      );
    }
    const providers = await this.providers.forOrg(orgId, providersVersion);
    const trace = request.trace?.subRun(request.slug, flow.version);
    try {
      const result = await runFlow({
        flow: flow.compiled,
        input: checked.input,
        metadata: request.metadata,
        conversation: [],
        providers,
        signal: request.signal,
        streaming: false,
        emit: () => undefined,
        providerRetries: this.config.providerRetries,
        services: this.services(orgId, providersVersion, request.slug, request.chain, meter),
        trace,
      });
      trace?.end({ ok: true, usage: result.usage, output: result.text });
      const format = flow.compiled.output.format;
      const output = runOutput(format, this.newIds(), result.text, result.value, result.finishReason, result.usage);
      return { output, text: replyContent(format, result.text, result.value), usage: result.usage };
    } catch (error) {
      trace?.end({ ok: false, usage: error instanceof RunFailure ? error.usage : usageOf(), error: error instanceof RunFailure ? error.error : error });
      if (error instanceof RunFailure)
        throw new FlowsError(
          error.error.code,
          `Flow "${request.slug}" failed: ${error.error.message}`,
          error.error instanceof FlowsError ? error.error.apiCode : error.error.code,
        );
      throw error;
    }
  }

  /**
   * The current version of a flow, compiled; 404 flow_not_found when the
   * organization has no such flow. `known` is the version the token lookup
   * already brought (run routes), which saves a query.
   */
  async load(orgId: number, slug: string, known?: { slug: string; id: number; version: number } | null): Promise<LoadedFlow> {
    const current = known !== undefined && (known === null || known.slug === slug) ? known : await this.flows.currentVersion(orgId, slug);
    if (!current) throw flowNotFound(slug);
    const key = `${current.id}:${current.version}`;
    let compiled = this.compiled.get(key);
    if (!compiled) {
      compiled = compileFlow(await this.flows.definition(current.id, current.version));
      if (this.compiled.size >= CACHE_LIMIT) this.compiled.delete(this.compiled.keys().next().value!);
      this.compiled.set(key, compiled);
    }
    return { slug, version: current.version, compiled };
  }

  /** Ends every run of this process still going (a stop's grace period ended): each fails with 503 shutting_down. */
  abortAll(): void {
    for (const controller of this.inFlight) controller.abort(new ShuttingDown());
  }

  /** New run ids. */
  newIds(now = new Date()): RunIds {
    const hex = randomHex();
    return { runId: `run_${hex}`, completionId: `chatcmpl-${hex}`, created: Math.floor(now.getTime() / 1000) };
  }

  /**
   * Records a run `running` now and resolves once it is stored: a streaming
   * run's X-Run-Id goes out with its first byte, and must be found even if
   * this process dies before the run ends (a sweep on any instance later marks
   * it failed: AbandonedRunSweeper). Pass the returned start to start().
   */
  async recordStart(plan: RunPlan, ids: RunIds): Promise<Date> {
    const startedAt = new Date();
    await this.recorder.writeNow(runningRecord(plan, ids, startedAt));
    return startedAt;
  }

  /**
   * Writes a run's `running` record at once, for a caller that answers before the run ends (an MCP call past
   * FLOWS_MCP_WAIT_MS: get_flow_run must find it). Its end, written later or already, always wins.
   */
  recordRunning(plan: RunPlan, ids: RunIds, startedAt: Date): Promise<void> {
    return this.recorder.writeNow(runningRecord(plan, ids, startedAt));
  }

  /**
   * Starts a run; `emit` receives its events when streaming. The outcome never rejects. A run not recorded by
   * recordStart (`startedAt` absent) is recorded `running` once it has taken a second; quicker runs once, at the end.
   */
  /**
   * The run's root span when runs are traced (else undefined), opened before the run starts so that a
   * streaming answer's headers can carry its `traceparent`. Pass it to start().
   */
  openTrace(plan: RunPlan, ids: RunIds): RunTrace | undefined {
    const info = {
      slug: plan.flow.slug,
      version: plan.flow.version,
      runId: ids.runId,
      orgCode: plan.principal.orgCode,
      trigger: plan.trigger ?? 'api',
      schedule: plan.schedule,
      input: plan.input,
    };
    return this.agentDeps.tracing?.startRun(info, plan.traceCarrier);
  }

  start(plan: RunPlan, options: { ids: RunIds; streaming: boolean; emit: (event: RunEvent) => void; startedAt?: Date; trace?: RunTrace }): RunningFlow {
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timer = setTimeout(() => controller.abort(new RunTimeout(this.config.runTimeoutMs)), this.config.runTimeoutMs);
    const startedAt = options.startedAt ?? new Date();
    const began = performance.now();
    const { ids } = options;
    const compiled = plan.flow.compiled;
    const meter = new CostMeter();
    const trace = options.trace ?? this.openTrace(plan, ids);
    const runningTimer = options.startedAt
      ? undefined
      : setTimeout(() => void this.recorder.record(runningRecord(plan, ids, startedAt)), RUNNING_RECORD_AFTER_MS);
    const outcome = this.providers
      .forOrg(plan.principal.orgId, plan.principal.providersVersion)
      .then((providers) =>
        runFlow({
          flow: compiled,
          input: plan.input,
          metadata: plan.metadata,
          conversation: plan.conversation,
          callerSystem: plan.callerSystem,
          providers,
          signal: controller.signal,
          controller,
          streaming: options.streaming,
          emit: options.emit,
          providerRetries: this.config.providerRetries,
          services: this.services(plan.principal.orgId, plan.principal.providersVersion, plan.flow.slug, [], meter),
          trace,
        }),
      )
      .then(
        // The outcome (and so the answer, 2xx or error) waits for the run's end record: it survives a kill -9, and
        // a `running` record due at the same moment (a run ending at RUNNING_RECORD_AFTER_MS) is no longer written.
        async (result): Promise<RunOutcome> => {
          clearTimeout(runningTimer);
          const output = runOutput(compiled.output.format, ids, result.text, result.value, result.finishReason, result.usage);
          trace?.end({ ok: true, usage: result.usage, cost: meter.cost, output: result.text });
          await this.record(plan, ids, startedAt, began, { status: 'succeeded', output, error: null, usage: result.usage, trace: result.trace, meter });
          return { ok: true, result, output, usage: result.usage };
        },
        async (failure: unknown): Promise<RunOutcome> => {
          clearTimeout(runningTimer);
          const known = failure instanceof RunFailure;
          const error = known ? failure.error : new AppError('internal', 'Internal error while running the flow');
          const usage = known ? failure.usage : usageOf();
          trace?.end({ ok: false, usage, cost: meter.cost, error });
          await this.record(plan, ids, startedAt, began, {
            status: 'failed',
            output: null,
            error: presentError(error).error,
            usage,
            trace: known ? failure.trace : [],
            meter,
          });
          return { ok: false, error, usage };
        },
      )
      .finally(() => {
        clearTimeout(timer);
        this.inFlight.delete(controller);
      });
    return { ids, outcome, abort: (reason) => controller.abort(reason) };
  }

  private record(
    plan: RunPlan,
    ids: RunIds,
    startedAt: Date,
    began: number,
    end: { status: 'succeeded' | 'failed'; output: unknown; error: unknown; usage: Usage; trace: RunResult['trace']; meter: CostMeter },
  ): Promise<void> {
    return this.recorder.record({
      ...runningRecord(plan, ids, startedAt),
      status: end.status,
      output: end.output,
      error: end.error,
      usage: end.usage,
      latencyMs: Math.round(performance.now() - began),
      finishedAt: isoNow(),
      trace: end.trace,
      cost: end.meter.cost,
    });
  }

  /**
   * Records a run that could not start (a schedule's input that the flow's
   * current version refuses): failed at once with `error`, no model called.
   */
  recordRefused(plan: RunPlan, ids: RunIds, error: AppError): Promise<void> {
    const now = new Date();
    return this.recorder.record({
      ...runningRecord(plan, ids, now),
      status: 'failed',
      error: presentError(error).error,
      latencyMs: 0,
      finishedAt: isoNow(now),
      cost: new CostMeter().cost,
    });
  }
}

/** The record of a run that has started and not ended. */
function runningRecord(plan: RunPlan, ids: RunIds, startedAt: Date): RunRecord {
  return {
    id: ids.runId,
    orgId: plan.principal.orgId,
    flow: plan.flow.slug,
    version: plan.flow.version,
    status: 'running',
    input: plan.input,
    metadata: plan.metadata,
    output: null,
    error: null,
    usage: usageOf(),
    latencyMs: null,
    startedAt: isoNow(startedAt),
    finishedAt: null,
    trace: [],
    trigger: plan.trigger ?? 'api',
    schedule: plan.schedule ?? null,
    cost: null,
    orgCode: plan.principal.orgCode,
  };
}
