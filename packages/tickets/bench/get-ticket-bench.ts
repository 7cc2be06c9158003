/**
 * Benchmark of the read path (issue 3): `GET /tickets/{id}` over REST and
 * `tools/call get_ticket` over MCP on a project of 10,000 tickets, 10 s each
 * with 10 connections. Run: `npx tsx packages/tickets/bench/get-ticket-bench.ts`
 * (SQLite in a temporary DATA_DIR; set DATABASE_URL for PostgreSQL).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createProject, createToken, withTicketsStore } from '../src/index.ts';
import { projectByKey, projectColumns } from '../src/store/project-store.ts';

const TICKETS = 10_000;
const PORT = Number(process.env.BENCH_PORT ?? 18103);
const env: Record<string, string> = {
  DATA_DIR: process.env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'tickets-bench-')),
  SWITCHBOARD_SECRET: 'bench-secret-0123456789',
  LOG_LEVEL: 'warn',
  TICKETS_PORT: String(PORT),
  TICKETS_SUMMARY_WORKER: 'off',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
};

const token = await withTicketsStore(env, async (db) => {
  const key = `B${Date.now().toString(36).toUpperCase().slice(-6)}`;
  await createProject(db, { key, name: 'Benchmark' });
  const project = await projectByKey(db, key);
  const columns = await projectColumns(db, project.id);
  const now = new Date().toISOString();
  for (let start = 0; start < TICKETS; start += 500) {
    const rows = Array.from({ length: Math.min(500, TICKETS - start) }, (_, i) => ({
      id: randomUUID(),
      project_id: project.id,
      number: start + i + 1,
      title: `Benchmark ticket ${start + i + 1}`,
      description: 'A description of moderate length, so that the row is not trivially small. '.repeat(4),
      priority: 'medium',
      ticket_type: 'task',
      column_id: columns[(start + i) % columns.length].id,
      parent_id: null,
      assignee: null,
      created_at: now,
      updated_at: now,
      completed_at: null,
      ai_summary: null,
      ai_summary_source: null,
      summary_version: 1,
      summarized_version: 1,
      summary_claimed_until: null,
    }));
    await db.insertInto('tickets').values(rows).execute();
  }
  await db.updateTable('projects').set({ ticket_counter: TICKETS }).where('id', '=', project.id).execute();
  return { key, value: (await createToken(db, key, 'bench')).token };
});

const server = spawn(process.execPath, [...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []), '--import', 'tsx', join(import.meta.dirname, '..', 'src', 'main.ts')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise<void>((ready) => server.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && ready()));

const base = `http://127.0.0.1:${PORT}`;
const auth = { authorization: `Bearer ${token.value}` };
const target = `${token.key}-${TICKETS / 2}`;
const runs = {
  'REST GET /tickets/{id}': { url: `${base}/api/mcp/v1/tickets/${target}`, method: 'GET' as const, headers: auth },
  'MCP tools/call get_ticket': {
    url: `${base}/api/mcp/v1/mcp`,
    method: 'POST' as const,
    headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_ticket', arguments: { ticket_id: target } } }),
  },
};
if (process.env.BENCH_HOLD) {
  console.log(`holding: ${runs['REST GET /tickets/{id}'].url} ${token.value}`);
  await new Promise((resolve) => setTimeout(resolve, Number(process.env.BENCH_HOLD)));
}
try {
  for (const [name, options] of Object.entries(runs)) {
    if (process.env.BENCH_ONLY && !name.startsWith(process.env.BENCH_ONLY)) continue;
    await autocannon({ ...options, connections: 10, duration: 2 }); // warm-up
    const result = await autocannon({ ...options, connections: 10, duration: 10 });
    const errors = result.non2xx + result.errors;
    console.log(`${name}: ${Math.round(result.requests.average)} req/s, latency p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, errors ${errors}`);
  }
} finally {
  server.kill('SIGTERM');
}
