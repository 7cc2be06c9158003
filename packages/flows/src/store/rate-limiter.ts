import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { createRateLimiter, splitSchema, SqlRateLimiter, type Database, type RateLimiter } from '@switchboard/core';
import type { FlowsConfig } from '../config.ts';

/**
 * The per-token limiter: core's, except that on PostgreSQL (without Redis) its
 * counter upserts go through a small pool with `synchronous_commit = off`.
 * Every request writes the same counter row, so waiting for a WAL flush on
 * each one serialized all callers of a token behind the disk; a counter lost
 * in a crash costs nothing, while runs and tokens keep durable commits.
 * (`Database<any>`: only the dialect is read, whatever the tables.)
 */
export async function createFlowsRateLimiter(database: Database<any>, config: FlowsConfig): Promise<RateLimiter> {
  if (config.redisUrl || database.dialect !== 'postgres' || !config.databaseUrl) return createRateLimiter(database, config.redisUrl);
  const { url, schema } = splitSchema(config.databaseUrl, 'flows');
  const pool = new pg.Pool({ connectionString: url, max: 4, options: `-c search_path="${schema}" -c synchronous_commit=off`, connectionTimeoutMillis: 5000 });
  pool.on('error', () => undefined);
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  const limiter = new SqlRateLimiter(db as Kysely<any>);
  return {
    hit: (key, rate, now) => limiter.hit(key, rate, now),
    close: () => db.destroy(),
  };
}
