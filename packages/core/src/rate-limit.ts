import { sql, type Kysely } from 'kysely';
import type { Database } from './database.ts';
import type { VersionedMigration } from './migrations.ts';
import type { Rate } from './config.ts';
import { Counter, type Registry } from 'prom-client';
import type { Logger } from './logger.ts';

/** Outcome of counting one request against a limit. */
export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until the window resets (for `Retry-After`); 0 when allowed. */
  retryAfterSeconds: number;
}

/** Counts requests per key in fixed windows. */
export interface RateLimiter {
  hit(key: string, rate: Rate, now?: number): Promise<RateDecision>;
  close(): Promise<void>;
}

function decide(count: number, rate: Rate, windowStart: number, now: number): RateDecision {
  if (count <= rate.count) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + rate.windowMs - now) / 1000)) };
}

/** In-process limiter: right for a single instance (the SQLite deployment). */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  async hit(key: string, rate: Rate, now = Date.now()): Promise<RateDecision> {
    const start = now - (now % rate.windowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 10_000) this.sweep(now, rate.windowMs);
    }
    window.count += 1;
    return decide(window.count, rate, start, now);
  }

  private sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) if (window.start + windowMs < now) this.windows.delete(key);
  }

  async close(): Promise<void> {}
}

/** PostgreSQL-backed limiter: shared by every instance on one database. */
export class SqlRateLimiter<DB> implements RateLimiter {
  constructor(private readonly db: Kysely<DB>) {}

  async hit(key: string, rate: Rate, now = Date.now()): Promise<RateDecision> {
    const start = now - (now % rate.windowMs);
    // One statement, one round trip. On PostgreSQL the table is unlogged (see coreMigrations): no disk flush per
    // request, and a crash empties it, which only forgets the current windows' counts.
    const row = await sql<{ count: number }>`
      insert into rate_limit_windows (key, window_start, count) values (${key}, ${start}, 1)
      on conflict (key, window_start) do update set count = rate_limit_windows.count + 1
      returning count`.execute(this.db);
    if (Math.random() < 0.01) {
      await sql`delete from rate_limit_windows where window_start < ${now - 86_400_000}`.execute(this.db);
    }
    return decide(Number(row.rows[0].count), rate, start, now);
  }

  async close(): Promise<void> {}
}

/** How often, at most, a Redis limiter logs that it fell back (one line per outage, not one per request). */
const FALLBACK_LOG_EVERY_MS = 10_000;

/**
 * Redis limiter (REDIS_URL): shared by every instance. Redis is optional: when
 * it does not answer (down at start, or lost later), each request is counted
 * by the fallback instead (PostgreSQL: still shared by every instance; SQLite:
 * this process), with a warning in the log and `rate_limit_fallback_total`, so
 * the limit keeps working and a request never fails for it. ioredis keeps
 * reconnecting; once Redis answers again, counting goes back to it.
 */
export class RedisRateLimiter implements RateLimiter {
  /** Requests counted by the fallback because Redis did not answer. */
  readonly fallbacks = new Counter({ name: 'rate_limit_fallback_total', help: 'Rate-limit checks counted without Redis (it did not answer)', registers: [] });
  private lastWarning = 0;

  private constructor(
    private readonly client: import('ioredis').Redis,
    private readonly fallback: RateLimiter,
    private readonly logger: Logger | undefined,
  ) {}

  /** Connects in the background: a Redis that is down at start only means the fallback counts until it is up. */
  static async connect(url: string, fallback: RateLimiter, logger?: Logger): Promise<RedisRateLimiter> {
    const { Redis } = await import('ioredis');
    // No offline queue and a command timeout: while Redis is away a check fails at once and goes to the fallback.
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, commandTimeout: 1000, connectTimeout: 2000 });
    const limiter = new RedisRateLimiter(client, fallback, logger);
    client.on('error', (error) => limiter.warn(error));
    await client.connect().catch((error: unknown) => limiter.warn(error));
    return limiter;
  }

  async hit(key: string, rate: Rate, now = Date.now()): Promise<RateDecision> {
    const start = now - (now % rate.windowMs);
    const redisKey = `switchboard:rl:${key}:${start}`;
    try {
      const [[error, count]] = (await this.client
        .multi()
        .incr(redisKey)
        .pexpire(redisKey, rate.windowMs + 1000)
        .exec()) as [[Error | null, number]];
      if (error) throw error;
      return decide(count, rate, start, now);
    } catch (error) {
      this.fallbacks.inc();
      this.warn(error);
      return this.fallback.hit(key, rate, now);
    }
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < FALLBACK_LOG_EVERY_MS) return;
    this.lastWarning = now;
    this.logger?.warn({ err: error }, 'Redis does not answer; rate limits are counted without it until it is back');
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
    await this.fallback.close();
  }
}

/** Registers a limiter's own metrics (the Redis fallback counter) with an app's registry. */
export function registerRateLimitMetrics(registry: Registry, limiter: RateLimiter): void {
  if (limiter instanceof RedisRateLimiter) registry.registerMetric(limiter.fallbacks);
}

/**
 * Picks the limiter for a deployment: Redis when configured (counting in the database, or in memory on SQLite,
 * while Redis does not answer), the database on PostgreSQL, memory on SQLite.
 */
export async function createRateLimiter<DB>(database: Database<DB>, redisUrl: string | undefined, logger?: Logger): Promise<RateLimiter> {
  const local: RateLimiter = database.dialect === 'postgres' ? new SqlRateLimiter(database.db) : new MemoryRateLimiter();
  if (redisUrl) return RedisRateLimiter.connect(redisUrl, local, logger);
  return local;
}

/** Migrations every service includes for the shared tables of core. */
export const coreMigrations: Record<string, VersionedMigration> = {
  '0000_core_rate_limits': {
    async up(db) {
      await db.schema
        .createTable('rate_limit_windows')
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_limit_windows_pk', ['key', 'window_start'])
        .execute();
    },
  },
  // Counters are not worth a WAL write and flush per request: an unlogged table has neither (it is emptied after a crash).
  '0000_core_rate_limits_unlogged': {
    async up(db, dialect) {
      if (dialect === 'postgres') await sql`alter table rate_limit_windows set unlogged`.execute(db);
    },
  },
};
