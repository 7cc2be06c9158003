import { ConfigError, envEnum, envInt, envUrl, loadPlatformConfig, type Env, type PlatformConfig } from '@switchboard/core';

/** The ticket board's configuration: the platform settings plus its own. */
export interface TicketsConfig extends PlatformConfig {
  /** The environment the platform database (users = members) is opened from (DATA_DIR, DATABASE_URL). */
  platformEnv: Env;
  summary: {
    /** OpenAI-compatible base URL (TICKETS_SUMMARY_BASE_URL); unset: extractive summaries without a model. */
    baseUrl: string | undefined;
    /** Model name sent to that server (TICKETS_SUMMARY_MODEL, default gpt-4o-mini). */
    model: string;
    /** API key for that server (TICKETS_SUMMARY_API_KEY); optional for local servers. */
    apiKey: string | undefined;
    /** Whether this process runs the summary worker (TICKETS_SUMMARY_WORKER on|off, default on). */
    worker: boolean;
    /** How often the worker looks for due summaries, in ms (TICKETS_SUMMARY_INTERVAL_MS, default 2000). */
    intervalMs: number;
    /** Longest wait for the model, in ms (TICKETS_SUMMARY_TIMEOUT_MS, default 20000). */
    timeoutMs: number;
  };
  /** Least time between two writes of a token's last_used_at, in ms (TICKETS_TOKEN_TOUCH_MS, default 60000). */
  tokenTouchMs: number;
}

/** Loads and validates the ticket board's configuration. */
export function loadConfig(env: Env = process.env): TicketsConfig {
  const platform = loadPlatformConfig('tickets', env);
  const model = env.TICKETS_SUMMARY_MODEL?.trim() || 'gpt-4o-mini';
  if (model.length > 200) throw new ConfigError('TICKETS_SUMMARY_MODEL', 'is too long');
  return {
    ...platform,
    platformEnv: { DATA_DIR: platform.dataDir, DATABASE_URL: env.DATABASE_URL },
    summary: {
      baseUrl: envUrl(env, 'TICKETS_SUMMARY_BASE_URL', ['http:', 'https:']),
      model,
      apiKey: env.TICKETS_SUMMARY_API_KEY || undefined,
      worker: envEnum(env, 'TICKETS_SUMMARY_WORKER', ['on', 'off'] as const, 'on') === 'on',
      intervalMs: envInt(env, 'TICKETS_SUMMARY_INTERVAL_MS', 2000, { min: 50, max: 3_600_000 }),
      timeoutMs: envInt(env, 'TICKETS_SUMMARY_TIMEOUT_MS', 20_000, { min: 100, max: 600_000 }),
    },
    tokenTouchMs: envInt(env, 'TICKETS_TOKEN_TOUCH_MS', 60_000, { min: 0, max: 86_400_000 }),
  };
}
