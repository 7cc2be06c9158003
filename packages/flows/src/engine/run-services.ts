import type { AddressPolicy } from '@switchboard/core';
import type { InputVariable } from '../domain/flow-definition.ts';
import type { MemoryStore } from '../store/memory-store.ts';
import type { Usage } from '../domain/usage.ts';
import type { KnowledgeService } from './knowledge-service.ts';
import type { CostMeter } from '../domain/cost.ts';
import type { NodeTrace } from '../tracing/run-trace.ts';

/** What a sub-flow run (agent node) returns. */
export interface SubFlowResult {
  /** What the sub-flow's non-streaming call returns. */
  output: unknown;
  /** Its reply text. */
  text: string;
  usage: Usage;
}

/** Runs another flow of the same organization (agent nodes). */
export type SubFlowRunner = (request: {
  slug: string;
  input: Record<string, unknown>;
  metadata: Record<string, unknown>;
  signal: AbortSignal;
  chain: string[];
  /** The span of the node that runs it (traced runs): the sub-flow's span is its child. */
  trace?: NodeTrace;
}) => Promise<SubFlowResult>;

/** Services the tool, agent, retrieval and memory features of a run use. */
export interface RunServices {
  orgId: number;
  providersVersion: number;
  /** Slug of the running flow (memory is kept per flow). */
  flowSlug: string;
  /** Slugs of the flows that led to this one through agent nodes, outermost first, this one last. */
  chain: string[];
  maxAgentDepth: number;
  knowledge: KnowledgeService;
  memory: MemoryStore;
  policy: AddressPolicy;
  toolTimeoutMs: number;
  toolMaxResponseBytes: number;
  runSubFlow: SubFlowRunner;
  /** Values of the organization's secrets among `names` (a missing one is absent), for a tool request that references them. */
  revealSecrets(names: readonly string[]): Promise<Map<string, string>>;
  /** Adds up what the run's model calls cost; its sub-flows' calls count on the same meter. */
  meter: CostMeter;
  /** Name, description and input variables of a flow of the organization (an agent tool's schema). */
  describeFlow(slug: string): Promise<{ name: string; description: string | undefined; variables: InputVariable[] }>;
}
