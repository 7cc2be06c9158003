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
  events: {
    /** Channel of the cross-instance wake-ups (TICKETS_EVENTS_CHANNEL); unset: derived from the database schema. */
    channel: string | undefined;
    /** The safety poll of open streams, in ms (TICKETS_EVENTS_POLL_MS, default 5000): catches a lost wake-up. */
    pollMs: number;
    /** The heartbeat comment of open streams, in ms (TICKETS_EVENTS_HEARTBEAT_MS, default 15000). */
    heartbeatMs: number;
    /** How often an open stream re-checks its token or session, in ms (TICKETS_EVENTS_RECHECK_MS, default 30000). */
    recheckMs: number;
    /** Days events are kept for reconnecting streams (TICKETS_EVENTS_KEEP_DAYS, default 7). */
    keepDays: number;
    /** Most events kept per project (TICKETS_EVENTS_KEEP, default 10000). */
    keepPerProject: number;
  };
}

// A PostgreSQL channel is an identifier of at most 63 bytes; Redis accepts these too.
const CHANNEL = /^[A-Za-z0-9_:.-]{1,63}$/;

function eventsChannel(env: Env): string | undefined {
  const channel = env.TICKETS_EVENTS_CHANNEL?.trim();
  if (!channel) return undefined;
  if (!CHANNEL.test(channel)) throw new ConfigError('TICKETS_EVENTS_CHANNEL', 'must be 1 to 63 letters, digits, _ : . or -');
  return channel;
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
    events: {
      channel: eventsChannel(env),
      pollMs: envInt(env, 'TICKETS_EVENTS_POLL_MS', 5000, { min: 50, max: 600_000 }),
      heartbeatMs: envInt(env, 'TICKETS_EVENTS_HEARTBEAT_MS', 15_000, { min: 50, max: 600_000 }),
      recheckMs: envInt(env, 'TICKETS_EVENTS_RECHECK_MS', 30_000, { min: 50, max: 3_600_000 }),
      keepDays: envInt(env, 'TICKETS_EVENTS_KEEP_DAYS', 7, { min: 1, max: 365 }),
      keepPerProject: envInt(env, 'TICKETS_EVENTS_KEEP', 10_000, { min: 100, max: 10_000_000 }),
    },
  };
}
