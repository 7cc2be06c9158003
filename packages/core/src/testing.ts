import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { splitSchema } from './database.ts';

/** A database a test runs against: a fresh SQLite directory, or a fresh PostgreSQL schema. */
export interface TestDatabase {
  dialect: 'sqlite' | 'postgres';
  /** Environment to pass to loadConfig / the CLI (DATA_DIR, and DATABASE_URL on PostgreSQL). */
  env: Record<string, string>;
  /** Removes the directory and drops the schema. */
  cleanup(): Promise<void>;
}

/** The dialects the storage tests run on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function dialectsUnderTest(): Array<'sqlite' | 'postgres'> {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** Creates an isolated database of the given dialect for one test file or test. */
export async function createTestDatabase(dialect: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-test-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite') {
    return { dialect, env: { DATA_DIR: dataDir, SWITCHBOARD_SECRET: 'test-secret-0123456789' }, cleanup: async () => removeDir() };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const prefix = `t_${randomBytes(6).toString('hex')}`;
  const url = new URL(splitSchema(base, 'public').url);
  url.searchParams.set('schema_prefix', prefix);
  return {
    dialect,
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString(), SWITCHBOARD_SECRET: 'test-secret-0123456789' },
    async cleanup() {
      removeDir();
      const client = new pg.Client({ connectionString: splitSchema(base, 'public').url });
      await client.connect();
      try {
        const { rows } = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname LIKE $1', [`${prefix}\\_%`]);
        for (const row of rows) await client.query(`DROP SCHEMA IF EXISTS "${row.nspname}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

export { startFaultProxy, type FaultProxy } from './fault-proxy.ts';
export { openEventStream, type EventStream, type ReceivedEvent } from './event-stream-client.ts';
