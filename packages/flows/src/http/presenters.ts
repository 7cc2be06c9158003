import type { FlowDefinition } from '../domain/flow-definition.ts';
import type { FlowSummary } from '../store/flow-store.ts';
import type { TokenRow } from '../store/org-store.ts';
import type { RunRecord } from '../store/run-store.ts';

/** A flow as listed. */
export function presentFlowSummary(flow: FlowSummary) {
  return { slug: flow.slug, name: flow.name, description: flow.description, version: flow.version, created_at: flow.createdAt, updated_at: flow.updatedAt };
}

/** A flow with its current definition. */
export function presentFlow(flow: FlowSummary, definition: FlowDefinition) {
  return { ...presentFlowSummary(flow), definition: { ...definition, slug: flow.slug } };
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
  };
}

/** A token as listed: never its secret. */
export function presentToken(token: TokenRow) {
  return { id: token.id, name: token.name, scope: token.scope, hint: token.hint, created_at: token.createdAt, last_used_at: token.lastUsedAt, revoked_at: token.revokedAt };
}
