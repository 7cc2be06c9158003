/**
 * Local benchmark of the SMS service: GET /messages/{org_id}/{secret_key}?limit=100
 * on a table of MESSAGES rows, and POST /webhook. Uses SQLite under a temporary
 * DATA_DIR, or PostgreSQL when BENCH_DATABASE_URL is set.
 *
 *   npx tsx packages/sms/bench/bench.ts            # SQLite
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx packages/sms/bench/bench.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { OrgStore } from '../src/store/org-store.ts';
import { openSmsDatabase } from '../src/store/sms-database.ts';

const TOTAL = Number(process.env.MESSAGES ?? 1_000_000);
const DURATION = Number(process.env.DURATION ?? 10);
const dataDir = mkdtempSync(join(tmpdir(), 'sms-bench-'));
const env: Record<string, string> = { DATA_DIR: dataDir, SWITCHBOARD_SECRET: 'bench-secret-0123456789', LOG_LEVEL: 'warn', SMS_PORT: '0' };
if (process.env.BENCH_DATABASE_URL) {
  const url = new URL(process.env.BENCH_DATABASE_URL);
  url.searchParams.set('schema_prefix', `bench_${Date.now()}`);
  env.DATABASE_URL = url.toString();
}

async function seed(): Promise<string> {
  const config = loadConfig(env);
  const database = await openSmsDatabase(config);
  const orgs = new OrgStore(database.db, config.secret);
  const { secretKey } = await orgs.createOrganization('bench', undefined, new Date());
  await orgs.createOrganization('other', undefined, new Date());
  const started = Date.now();
  const at = new Date().toISOString();
  const CHUNK = 1000;
  for (let offset = 0; offset < TOTAL; offset += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, TOTAL - offset) }, (_, i) => ({
      // One message in ten belongs to another organization, so the index has to do its job.
      org_id: (offset + i) % 10 === 9 ? 'other' : 'bench',
      direction: (offset + i) % 3 === 0 ? 'outbound' : 'inbound',
      sim: `sim${(offset + i) % 2 + 1}`,
      from_number: '+15550001111',
      to_number: '+15552223333',
      body: `Message number ${offset + i}: the quick brown fox jumps over the lazy dog`,
      status: 'received',
      segments: 1,
      gateway: 'native',
      external_id: null,
      error: null,
      received_at: at,
      sent_at: null,
      delivered_at: null,
      created_at: at,
      updated_at: at,
    }));
    await database.db.insertInto('messages').values(rows).execute();
  }
  if (database.dialect === 'postgres') await sql`analyze messages`.execute(database.db);
  process.stdout.write(`seeded ${TOTAL} messages in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  await database.close();
  return secretKey;
}

async function startService(): Promise<{ url: string; stop: () => void }> {
  const main = join(fileURLToPath(import.meta.url), '..', '..', 'src', 'main.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', main], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`service exited ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

function report(name: string, result: autocannon.Result, messagesPerRequest = 1): void {
  const perSecond = result.requests.average;
  process.stdout.write(
    `${name}: ${perSecond.toFixed(0)} req/s` +
      (messagesPerRequest > 1 ? ` (${(perSecond * messagesPerRequest).toFixed(0)} msgs/s)` : '') +
      `, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors}, non-2xx ${result.non2xx}\n`,
  );
}

const key = await seed();
const service = await startService();
try {
  const listing = await autocannon({ url: `${service.url}/messages/bench/${key}?limit=100`, connections: 10, duration: DURATION });
  report('GET /messages/{org_id}/{secret_key}?limit=100', listing);
  const single = await autocannon({
    url: `${service.url}/webhook`,
    method: 'POST',
    connections: 10,
    duration: DURATION,
    headers: { 'content-type': 'application/json', 'x-secret-key': key },
    body: JSON.stringify({ event: 'sms.received', message: { from: '+15550001111', to: '+15552223333', body: 'Hello from the benchmark', sim: 'sim1' } }),
  });
  report('POST /webhook (1 message)', single);
  const BATCH = 50;
  const batch = await autocannon({
    url: `${service.url}/webhook`,
    method: 'POST',
    connections: 10,
    duration: DURATION,
    headers: { 'content-type': 'application/json', 'x-secret-key': key },
    body: JSON.stringify({ events: Array.from({ length: BATCH }, (_, i) => ({ event: 'sms.received', message: { from: '+15550001111', to: '+15552223333', body: `batch ${i}`, sim: `sim${i % 2 + 1}` } })) }),
  });
  report(`POST /webhook (batch of ${BATCH})`, batch, BATCH);
} finally {
  service.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL);
    const schema = `${url.searchParams.get('schema_prefix')}_sms`;
    url.searchParams.delete('schema_prefix');
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}
