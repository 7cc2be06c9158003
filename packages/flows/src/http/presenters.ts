import type { FlowDefinition } from '../domain/flow-definition.ts';
import type { HourFigures, RunFigures, RunStats, WindowFigures } from '../domain/run-stats.ts';
import type { RetrievedChunk } from '../engine/knowledge-service.ts';
import type { FlowSummary, FlowVersion, VersionSummary } from '../store/flow-store.ts';
import type { TokenRow } from '../store/org-store.ts';
import type { RunRecord } from '../store/run-store.ts';
import type { SecretListing } from '../store/secret-store.ts';

/** A flow as listed. */
export function presentFlowSummary(flow: FlowSummary) {
  return { slug: flow.slug, name: flow.name, description: flow.description, version: flow.version, created_at: flow.createdAt, updated_at: flow.updatedAt };
}

/** A flow as the list shows it: with how many runs it started in the last 24 hours. */
export function presentFlowListItem(flow: FlowSummary, runs24h: number) {
  return { ...presentFlowSummary(flow), runs_24h: runs24h };
}

/** A flow with its current definition, and who saved that version with what note. */
export function presentFlow(flow: FlowSummary, current: { definition: FlowDefinition; author: string | null; note: string | null }) {
  return { ...presentFlowSummary(flow), author: current.author, note: current.note, definition: { ...current.definition, slug: flow.slug } };
}

/** A version as the history lists it. */
export function presentVersionSummary(version: VersionSummary) {
  return { version: version.version, created_at: version.createdAt, author: version.author, note: version.note };
}

/** One version with its definition. */
export function presentVersion(version: FlowVersion) {
  return { ...presentVersionSummary(version), definition: version.definition };
}

function presentFigures(figures: RunFigures) {
  return {
    runs: figures.runs,
    failed: figures.failed,
    failure_rate: figures.failureRate,
    p50_ms: figures.p50Ms,
    p95_ms: figures.p95Ms,
    prompt_tokens: figures.promptTokens,
    completion_tokens: figures.completionTokens,
    cost_usd: figures.costUsd,
  };
}

function presentHour(hour: HourFigures) {
  return { hour: hour.hour, ...presentFigures(hour), tokens: hour.promptTokens + hour.completionTokens };
}

function presentWindow(window: WindowFigures) {
  return { ...presentFigures(window), by_hour: window.byHour.map(presentHour) };
}

/** Run statistics per hour and per flow (GET …/stats). */
export function presentStats(stats: RunStats) {
  return {
    from: stats.from,
    to: stats.to,
    hours: stats.hours,
    total: presentWindow(stats.total),
    flows: stats.flows.map((f) => ({ flow: f.flow, ...presentWindow(f) })),
  };
}

/** One result of a knowledge-base query. */
export function presentRetrieved(chunk: RetrievedChunk) {
  return { text: chunk.text, source: chunk.source, score: chunk.score };
}

/** A run record (design/flows.md: runs). */
export function presentRun(run: RunRecord) {
  return {
    id: run.id,
    flow: run.flow,
    version: run.version,
    status: run.status,
    input: run.input,
    metadata: run.metadata,
    output: run.output,
    error: run.error,
    usage: run.usage,
    latency_ms: run.latencyMs,
    started_at: run.startedAt,
    finished_at: run.finishedAt,
    trace: run.trace,
    deleted_flow: run.deletedFlowName ? { name: run.deletedFlowName } : null,
    trigger: run.trigger,
    schedule: run.schedule,
    cost: run.cost,
  };
}

/** A token as listed: never its secret. */
export function presentToken(token: TokenRow) {
  return {
    id: token.id,
    name: token.name,
    scope: token.scope,
    hint: token.hint,
    created_at: token.createdAt,
    last_used_at: token.lastUsedAt,
    revoked_at: token.revokedAt,
  };
}

/** A secret as listed: its name and dates, never its value. */
export function presentSecret(secret: SecretListing) {
  return { name: secret.name, created_at: secret.created_at, updated_at: secret.updated_at, last_used_at: secret.last_used_at };
}
