import { envInt, envRate, loadPlatformConfig, type Env, type PlatformConfig, type Rate } from '@switchboard/core';

/** Settings of the SMS message store: the platform's plus the outbox and rate limits. */
export interface SmsConfig extends PlatformConfig {
  /** Attempts per outbound message before it is `failed` (SMS_SEND_MAX_ATTEMPTS, default 5). */
  sendMaxAttempts: number;
  /** Wait before the first retry, doubling after each failed attempt (SMS_SEND_RETRY_BASE_MS, default 30000). */
  sendRetryBaseMs: number;
  /** Pace of phone-based drivers per SIM (SMS_SIM_RATE, default 30/30m: the Android app's own limit). */
  simRate: Rate;
  /** Per-organization limit on POST /send (SMS_SEND_RATE_LIMIT, default 60/m). */
  sendRateLimit: Rate;
  /** How often the outbox worker looks for due messages (SMS_WORKER_INTERVAL_MS, default 1000; 0 disables the worker). */
  workerIntervalMs: number;
  /** Timeout of one call to a gateway (SMS_SEND_TIMEOUT_MS, default 15000). */
  sendTimeoutMs: number;
  /**
   * How long a worker's claim on a message lasts (SMS_CLAIM_LEASE_MS, default 60000; at least twice the send
   * timeout): a message claimed by an instance that died is claimed again, and sent, once this passes.
   */
  claimLeaseMs: number;
  /** The console's live stream (README, "Console"). */
  events: {
    /** The safety poll of open streams, in ms (SMS_EVENTS_POLL_MS, default 5000): catches a lost wake-up. */
    pollMs: number;
    /** The heartbeat comment of open streams, in ms (SMS_EVENTS_HEARTBEAT_MS, default 15000). */
    heartbeatMs: number;
    /** How often an open stream re-checks its key or session, in ms (SMS_EVENTS_RECHECK_MS, default 30000). */
    recheckMs: number;
  };
  /** The platform database of users, sessions and memberships (the web console's sign-in): DATA_DIR and DATABASE_URL. */
  platformEnv: Env;
}

/** Loads and validates the SMS service's configuration from the environment. */
export function loadConfig(env: Env = process.env): SmsConfig {
  const platform = loadPlatformConfig('sms', env);
  return {
    ...platform,
    sendMaxAttempts: envInt(env, 'SMS_SEND_MAX_ATTEMPTS', 5, { min: 1, max: 100 }),
    sendRetryBaseMs: envInt(env, 'SMS_SEND_RETRY_BASE_MS', 30_000, { min: 1 }),
    simRate: envRate(env, 'SMS_SIM_RATE', '30/30m'),
    sendRateLimit: envRate(env, 'SMS_SEND_RATE_LIMIT', '60/m'),
    workerIntervalMs: envInt(env, 'SMS_WORKER_INTERVAL_MS', 1000, { min: 0 }),
    sendTimeoutMs: envInt(env, 'SMS_SEND_TIMEOUT_MS', 15_000, { min: 100 }),
    claimLeaseMs: envInt(env, 'SMS_CLAIM_LEASE_MS', 60_000, { min: 200 }),
    events: {
      pollMs: envInt(env, 'SMS_EVENTS_POLL_MS', 5000, { min: 50, max: 600_000 }),
      heartbeatMs: envInt(env, 'SMS_EVENTS_HEARTBEAT_MS', 15_000, { min: 50, max: 600_000 }),
      recheckMs: envInt(env, 'SMS_EVENTS_RECHECK_MS', 30_000, { min: 50, max: 3_600_000 }),
    },
    platformEnv: { DATA_DIR: platform.dataDir, DATABASE_URL: env.DATABASE_URL },
  };
}
