import { loadTracingConfig, type TracingConfig } from './tracing/otel-config.ts';
import {
  envAllowedHosts,
  envEnum,
  envInt,
  envRate,
  envUrl,
  loadPlatformConfig,
  type AddressPolicy,
  type Env,
  type PlatformConfig,
  type Rate,
} from '@switchboard/core';

/** Settings of the flow-execution service: the shared platform settings plus its own. */
export interface FlowsConfig extends PlatformConfig {
  /** The environment the platform database (users, sessions, memberships) is opened from (DATA_DIR, DATABASE_URL). */
  platformEnv: Env;
  /** Requests per token per window before 429 (FLOWS_RATE_LIMIT, default 600/m). */
  rateLimit: Rate;
  /** Longest a run may take before it is aborted with 504 (FLOWS_RUN_TIMEOUT_MS, default 120000). */
  runTimeoutMs: number;
  /**
   * How often every instance (also once as it starts) looks for runs left `running` by an instance that died (crash,
   * kill -9); such a run is marked failed once older than FLOWS_RUN_TIMEOUT_MS plus 5 s, so at most timeout + 5 s +
   * this after it started (FLOWS_RUN_SWEEP_MS, default 60000).
   */
  runSweepMs: number;
  /** Longest an MCP `tools/call` waits for its run before answering `running` with the run id (FLOWS_MCP_WAIT_MS, default 50000). */
  mcpWaitMs: number;
  /** Retries of a failed provider call by the AI SDK (FLOWS_PROVIDER_RETRIES, default 0: errors surface at once). */
  providerRetries: number;
  /** Fallback `openai` connection's key when the organization has none (OPENAI_API_KEY). */
  openaiApiKey: string | undefined;
  /** Fallback `openai` connection's base URL (OPENAI_BASE_URL). */
  openaiBaseUrl: string | undefined;
  /** Fallback `anthropic` connection's key when the organization has none (ANTHROPIC_API_KEY). */
  anthropicApiKey: string | undefined;
  /** Fallback `anthropic` connection's base URL (ANTHROPIC_BASE_URL). */
  anthropicBaseUrl: string | undefined;
  /** Non-public hosts, IPs or CIDRs tools may reach anyway (FLOWS_ALLOWED_HOSTS, comma-separated, `*` = all; default none). */
  allowedHosts: AddressPolicy;
  /** Deepest nesting of agent nodes (FLOWS_MAX_AGENT_DEPTH, default 5). */
  maxAgentDepth: number;
  /** Longest a tool call may take (FLOWS_TOOL_TIMEOUT_MS, default 30000). */
  toolTimeoutMs: number;
  /** Largest tool answer read, in bytes (FLOWS_TOOL_MAX_RESPONSE_BYTES, default 262144). */
  toolMaxResponseBytes: number;
  /** A schedule's due time missed while no instance ran still runs once at start when younger than this, else is recorded as skipped (FLOWS_SCHEDULE_CATCHUP_MS, default 3600000). */
  scheduleCatchupMs: number;
  /** How often each instance looks for due schedules (FLOWS_SCHEDULE_TICK_MS, default 1000). */
  scheduleTickMs: number;
  /** Scheduled runs one instance runs at once; past it, other instances take the due times (FLOWS_SCHEDULE_CONCURRENCY, default 20). */
  scheduleConcurrency: number;
  /** Run traces' OTLP/HTTP export, from the standard OTEL_EXPORTER_OTLP_* variables (tracing/otel-config.ts); undefined: no tracing. */
  tracing: TracingConfig | undefined;
  /** Prompts, answers and tool arguments and results on the spans (FLOWS_OTEL_CAPTURE_CONTENT=true; default false: sizes and names only). */
  otelCaptureContent: boolean;
  /** At most one warning this often while the collector fails to take run traces (FLOWS_OTEL_WARN_INTERVAL_MS, default 60000). */
  otelWarnIntervalMs: number;
}

/** Loads and validates the flow service's configuration from the environment. */
export function loadConfig(env: Env = process.env): FlowsConfig {
  const platform = loadPlatformConfig('flows', env);
  return {
    ...platform,
    platformEnv: { DATA_DIR: platform.dataDir, DATABASE_URL: env.DATABASE_URL },
    rateLimit: envRate(env, 'FLOWS_RATE_LIMIT', '600/m'),
    runTimeoutMs: envInt(env, 'FLOWS_RUN_TIMEOUT_MS', 120_000, { min: 1 }),
    runSweepMs: envInt(env, 'FLOWS_RUN_SWEEP_MS', 60_000, { min: 100 }),
    mcpWaitMs: envInt(env, 'FLOWS_MCP_WAIT_MS', 50_000, { min: 0 }),
    providerRetries: envInt(env, 'FLOWS_PROVIDER_RETRIES', 0, { min: 0, max: 5 }),
    openaiApiKey: env.OPENAI_API_KEY || undefined,
    openaiBaseUrl: envUrl(env, 'OPENAI_BASE_URL', ['http:', 'https:']),
    anthropicApiKey: env.ANTHROPIC_API_KEY || undefined,
    anthropicBaseUrl: envUrl(env, 'ANTHROPIC_BASE_URL', ['http:', 'https:']),
    allowedHosts: envAllowedHosts(env, 'FLOWS_ALLOWED_HOSTS'),
    maxAgentDepth: envInt(env, 'FLOWS_MAX_AGENT_DEPTH', 5, { min: 1, max: 20 }),
    toolTimeoutMs: envInt(env, 'FLOWS_TOOL_TIMEOUT_MS', 30_000, { min: 1 }),
    toolMaxResponseBytes: envInt(env, 'FLOWS_TOOL_MAX_RESPONSE_BYTES', 262_144, { min: 1 }),
    scheduleCatchupMs: envInt(env, 'FLOWS_SCHEDULE_CATCHUP_MS', 3_600_000, { min: 0 }),
    scheduleTickMs: envInt(env, 'FLOWS_SCHEDULE_TICK_MS', 1000, { min: 10 }),
    scheduleConcurrency: envInt(env, 'FLOWS_SCHEDULE_CONCURRENCY', 20, { min: 1, max: 1000 }),
    tracing: loadTracingConfig(env),
    otelCaptureContent: envEnum(env, 'FLOWS_OTEL_CAPTURE_CONTENT', ['true', 'false'], 'false') === 'true',
    otelWarnIntervalMs: envInt(env, 'FLOWS_OTEL_WARN_INTERVAL_MS', 60_000, { min: 1 }),
  };
}
