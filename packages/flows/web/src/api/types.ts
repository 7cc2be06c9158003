/** Shapes of the flows service's public API, as the dashboard reads them (design/flows.md). */
import type { RunCost } from '../cost/cost-format.ts';

/** An organization the signed-in user may see. */
export interface OrgRef {
  org_code: string;
  name: string;
}

/** What `GET /api/session` answers on the flows service. */
export interface FlowsSessionExtra {
  organizations: OrgRef[];
}

// The definition's types are the service's own (a pure module), so the two cannot drift.
import type { FlowDefinition } from '../../../src/domain/flow-definition.ts';

export type { FlowDefinition, InputVariable, NodeType } from '../../../src/domain/flow-definition.ts';

// Alike the `flows` table's columns (src/store/database.ts) by design: this is the listed shape, which the web may not import from the store.
/** A flow as listed. */
export interface FlowSummary {
  slug: string;
  name: string;
  description: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  runs_24h?: number;
}

/** A flow with its current definition. */
export interface Flow extends FlowSummary {
  definition: FlowDefinition;
  author?: string | null;
  note?: string | null;
}

/** A flow to start from (`GET …/templates`): what it needs the user to pick, and its definition with `{{bindings.NAME}}` where the choices go. */
export interface FlowTemplate {
  id: string;
  name: string;
  description: string;
  /** `provider` (a connection and a model), `knowledge_base`, `url`, or `secret:NAME` (a secret the organization must have). */
  needs: string[];
  /** What each need is for in this template. */
  hints: Record<string, string>;
  definition: FlowDefinition;
}

/** One entry of a run's trace. */
export interface TraceEntry {
  node: string;
  type: string;
  status: string;
  started_at: string;
  ms: number;
  output?: unknown;
  usage?: Usage;
  tool_calls?: Array<{ tool: string; call_id?: string; args?: unknown; result?: unknown; error?: unknown; ms?: number }>;
  error?: unknown;
  /** What each model call of an LLM node was sent (secrets masked). */
  model_calls?: ModelCall[];
}

/** One model call's messages, as a run's trace records them. */
export interface ModelCall {
  messages: Array<{
    role: 'system' | 'user' | 'assistant' | 'tool';
    content: string;
    tool?: string;
    call_id?: string;
    tool_calls?: Array<{ call_id: string; tool: string; args: unknown }>;
  }>;
}

/** Token counts. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A run record. */
export interface Run {
  id: string;
  flow: string;
  version: number;
  status: 'running' | 'succeeded' | 'failed';
  input: unknown;
  metadata: unknown;
  output: unknown;
  error: unknown;
  usage: Usage;
  latency_ms: number | null;
  started_at: string;
  finished_at: string | null;
  trace: TraceEntry[];
  /** Set once the run's flow was deleted: its name then. */
  deleted_flow?: { name: string } | null;
  /** What started it: a token (`api`), the dashboard (`ui`), a schedule, an MCP client. */
  trigger: 'api' | 'ui' | 'schedule' | 'mcp';
  /** The schedule's name, for a scheduled run. */
  schedule: string | null;
  /** What its model calls cost (null for runs recorded before costs were kept). */
  cost: RunCost | null;
}

/** A token as listed (never its secret). */
export interface TokenInfo {
  id: string;
  name: string;
  scope: 'run' | 'manage';
  hint: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A secret as listed: its name and dates, never its value. */
export interface SecretInfo {
  name: string;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
}

/** A provider connection as listed (never its key). */
export interface ProviderInfo {
  name: string;
  kind: 'openai' | 'anthropic' | 'openai-compatible';
  base_url: string | null;
  has_api_key: boolean;
  updated_at: string;
}
