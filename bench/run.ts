// `npm run bench [-- --quick] [-- --only sms,tickets,flows,flows-ops,flows-ui,tickets-ui,sms-ui,scale] [-- --cpu-prof]`: starts the services on a fresh
// temporary data directory (or fresh PostgreSQL schemas when DATABASE_URL is set), seeds
// data, and measures each scenario next to a baseline measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { writeResults, type Row } from './lib/report.ts';
import { profile } from './lib/process.ts';
import { ROUNDS } from './lib/load.ts';
import type { BenchContext, Suite } from './context.ts';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const cpuProf = args.includes('--cpu-prof');
const onlyIndex = args.findIndex((a) => a === '--only' || a.startsWith('--only='));
const only = onlyIndex < 0 ? undefined : (args[onlyIndex].includes('=') ? args[onlyIndex].split('=')[1] : args[onlyIndex + 1]).split(',');

const suites: Record<string, () => Promise<Suite>> = {
  sms: async () => (await import('./sms.ts')).benchSms,
  tickets: async () => (await import('./tickets.ts')).benchTickets,
  flows: async () => (await import('./flows.ts')).benchFlows,
  'flows-ops': async () => (await import('./flows-ops.ts')).benchFlowsOps,
  'flows-ui': async () => (await import('./flows-ui.ts')).benchFlowsUi,
  'tickets-ui': async () => (await import('./tickets-ui.ts')).benchTicketsUi,
  'sms-ui': async () => (await import('./sms-ui.ts')).benchSmsUi,
  scale: async () => (await import('./scale.ts')).benchScale,
};

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-'));
  const databaseUrl = process.env.DATABASE_URL;
  const prefix = `bench_${randomBytes(4).toString('hex')}`;
  const env: Record<string, string> = { DATA_DIR: dataDir, SWITCHBOARD_SECRET: 'benchmark-secret-0123456789', LOG_LEVEL: 'warn' };
  let postgres: BenchContext['postgres'];
  if (databaseUrl) {
    const url = new URL(databaseUrl);
    url.searchParams.delete('schema_prefix');
    postgres = { url: url.toString(), prefix };
    url.searchParams.set('schema_prefix', prefix);
    env.DATABASE_URL = url.toString();
  }
  const context: BenchContext = {
    quick,
    durationSeconds: quick ? 2 : 10,
    warmupSeconds: quick ? 1 : 2,
    connections: 10,
    env,
    postgres,
    log: (message) => process.stderr.write(`[bench] ${message}\n`),
  };
  if (cpuProf) {
    profile.dir = join(import.meta.dirname, 'results', 'profiles', new Date().toISOString().replace(/[:.]/g, '-'));
    context.log(`writing CPU profiles (.cpuprofile, open in Chrome DevTools) to ${profile.dir}`);
  }
  const rows: Row[] = [];
  try {
    for (const [name, load] of Object.entries(suites)) {
      if (only && !only.includes(name)) continue;
      rows.push(...(await (await load())(context)));
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (postgres) await dropSchemas(postgres.url, prefix);
  }
  const meta = {
    date: new Date().toISOString(),
    machine: `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    database: postgres ? 'PostgreSQL' : 'SQLite',
    mode: `${quick ? 'quick' : 'full'} (${context.durationSeconds} s per run after ${context.warmupSeconds} s warm-up${quick ? '' : `, in ${ROUNDS} rounds taking turns with the baseline`}, ${context.connections} connections)`,
  };
  // A run of some suites (--only) writes files of its own, so it never replaces the table of a whole run.
  const name = `latest-${postgres ? 'postgres' : 'sqlite'}${quick ? '-quick' : ''}${only ? `-only-${[...only].sort().join('-')}` : ''}`;
  process.stdout.write(`\n${writeResults(join(import.meta.dirname, 'results'), name, rows, meta)}`);
}

async function dropSchemas(url: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ nspname: string }>('select nspname from pg_namespace where nspname like $1', [`${prefix}\\_%`]);
  for (const row of rows) await client.query(`drop schema "${row.nspname}" cascade`);
  await client.end();
}

await main();
