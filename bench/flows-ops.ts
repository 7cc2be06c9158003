// Issue 26's figures: a run's overhead with tracing on (OTLP/HTTP to a local receiver) next to tracing off in
// the same run, and 1,000 schedules due in the same minute across two instances (PostgreSQL).
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { loadConfig, openFlowsStores } from '../packages/flows/src/index.ts';
import { nextTime } from '../packages/flows/src/domain/schedule.ts';
import { startProcess, startService, type RunningProcess } from './lib/process.ts';
import { percentile, type LoadResult } from './lib/load.ts';
import type { Row } from './lib/report.ts';
import type { BenchContext, Suite } from './context.ts';
import { mcpOverhead } from './flows-mcp.ts';

const ROOT = join(import.meta.dirname, '..');
const ORG = 'ops';
const SCHEDULES = 1_000;

/** Org `ops` with a run token, the `fake` connection and the one-llm-node flow `chat`; returns the token and the flow's id. */
async function seed(env: Record<string, string>, upstream: string): Promise<{ token: string; flowId: number; orgId: number }> {
  const stores = await openFlowsStores(loadConfig(env));
  try {
    const org = await stores.orgs.createOrg(ORG, 'Operations');
    const { token } = await stores.orgs.createToken(org.id, { name: 'bench', scope: 'run' });
    await stores.orgs.setProvider(org.id, { name: 'fake', kind: 'openai-compatible', baseUrl: `${upstream}/v1` });
    const { flow } = await stores.admin.save((await stores.orgs.findOrg(ORG))!, {
      name: 'Chat',
      slug: 'chat',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
        { id: 'answer', type: 'llm', data: { provider: 'fake', model: 'bench', prompt: '{{input.question}}', max_tokens: 64 } },
        { id: 'output', type: 'output', data: { format: 'chat_completion' } },
      ],
      edges: [
        { from: 'input', to: 'answer' },
        { from: 'answer', to: 'output' },
      ],
    });
    return { token, flowId: flow.id, orgId: org.id };
  } finally {
    await stores.close();
  }
}

/** `count` runs alternating between two services, one request at a time on one kept-alive connection each; each side's response times in ms. */
async function alternate(urls: [string, string], token: string, count: number): Promise<[LoadResult, LoadResult]> {
  const body = JSON.stringify({ input: { question: 'What does the fox do?' } });
  const agents = urls.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const one = (index: number) =>
    new Promise<{ ms: number; ok: boolean }>((resolve) => {
      const started = performance.now();
      const req = httpRequest(
        `${urls[index]}/api/llm/${ORG}/flows/chat/run`,
        {
          method: 'POST',
          agent: agents[index],
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ ms: performance.now() - started, ok: res.statusCode === 200 }));
        },
      );
      req.on('error', () => resolve({ ms: NaN, ok: false }));
      req.end(body);
    });
  const times: number[][] = [[], []];
  const errors = [0, 0];
  const started = performance.now();
  try {
    for (let i = 0; i < 2 * count; i++) {
      const index = i % 2;
      const { ms, ok } = await one(index);
      if (ok) times[index].push(ms);
      else errors[index] += 1;
    }
  } finally {
    for (const agent of agents) agent.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  const figures = (index: number): LoadResult => ({
    requests: count,
    rps: Math.round(count / seconds),
    p50: percentile(times[index], 50),
    p99: percentile(times[index], 99),
    errors: errors[index],
    non2xx: errors[index],
  });
  return [figures(0), figures(1)];
}

/**
 * Tracing on against tracing off, the two services taking turns request by request (one at a time): a busy
 * spell of the machine falls on both alike. The difference is what a traced run costs the service, its
 * spans' batching and export to the receiver included.
 */
async function tracingOverhead(context: BenchContext, env: Record<string, string>, token: string): Promise<Row> {
  const sink = await startProcess(join(ROOT, 'bench/fakes/otlp-sink.ts'), {});
  const off = await startService('flows', env);
  const on = await startService('flows', { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url });
  try {
    const count = context.quick ? 1000 : 5000;
    context.log(`flows-ops: run overhead with tracing on and off, ${count} runs each, taking turns`);
    await alternate([on.url, off.url], token, 200);
    const [traced, plain] = await alternate([on.url, off.url], token, count);
    // The last batch leaves within OTEL_BSP_SCHEDULE_DELAY (5 s).
    await new Promise((resolve) => setTimeout(resolve, 5500));
    const received = (await (await fetch(`${sink.url}/stats`)).json()) as { requests: number; bytes: number };
    const delta = traced.p50 - plain.p50;
    return {
      scenario: 'flows POST /run, tracing on (OTLP/HTTP protobuf to a local receiver), 1 connection',
      unit: `${count} runs each, the two services taking turns request by request`,
      service: { ...traced, peakRssMiB: on.peakRssMiB() },
      baseline: { ...plain, label: 'tracing off, same build' },
      note: `p50 ${delta >= 0 ? '+' : ''}${delta.toFixed(3)} ms with tracing (target ≤ 0.3 ms); 5 spans a run (run, 3 nodes, model call); the receiver took ${received.requests} exports, ${(received.bytes / 2 ** 20).toFixed(1)} MiB`,
    };
  } finally {
    await on.stop();
    await off.stop();
    await sink.stop();
  }
}

/**
 * 1,000 schedules due at the same minute (each once a day, at that minute), two instances polling: each due time must run once,
 * within that minute. p50/p99: from the due time to the run's start.
 */
async function schedulesAcrossInstances(context: BenchContext, env: Record<string, string>, seeded: { flowId: number; orgId: number }): Promise<Row> {
  const stores = await openFlowsStores(loadConfig(env));
  const instances: RunningProcess[] = [];
  try {
    // A due minute at least 10 s away, so both instances are up before it.
    let due = nextTime('* * * * *', 'UTC', new Date())!;
    if (due.getTime() - Date.now() < 10_000) due = new Date(due.getTime() + 60_000);
    context.log(`flows-ops: ${SCHEDULES} schedules due at ${due.toISOString()}, two instances`);
    // Due once a day at that minute, not every minute: on a slow machine the runs of the minute after would
    // otherwise count as schedules that ran twice.
    const spec = { cron: `${due.getUTCMinutes()} ${due.getUTCHours()} * * *`, timezone: 'UTC', input: { question: 'Scheduled' }, enabled: true };
    for (let i = 0; i < SCHEDULES; i++) await stores.schedules.put(seeded.orgId, seeded.flowId, `s${i}`, spec, due.toISOString());
    for (let i = 0; i < 2; i++) instances.push(await startService('flows', env));
    const db = stores.database.db;
    const deadline = due.getTime() + 90_000;
    let finished = 0;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const row = await db
        .selectFrom('schedule_fires')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('due_at', '=', due.toISOString())
        .where('status', 'in', ['succeeded', 'failed'])
        .executeTakeFirstOrThrow();
      finished = Number(row.n);
      if (finished >= SCHEDULES) break;
    }
    const runs = await db.selectFrom('runs').select(['schedule', 'status', 'started_at', 'finished_at']).where('trigger', '=', 'schedule').execute();
    const perSchedule = new Map<string, number>();
    for (const run of runs) perSchedule.set(run.schedule!, (perSchedule.get(run.schedule!) ?? 0) + 1);
    const twice = [...perSchedule.values()].filter((n) => n > 1).length;
    const delays = runs.map((r) => Date.parse(r.started_at) - due.getTime()).sort((a, b) => a - b);
    const lastEnd = Math.max(...runs.map((r) => Date.parse(r.finished_at ?? r.started_at))) - due.getTime();
    const failed = runs.filter((r) => r.status !== 'succeeded').length;
    return {
      scenario: `flows ${SCHEDULES.toLocaleString('en')} schedules due in the same minute, 2 instances`,
      unit: "req/s = scheduled runs ended per second after the due time; p50/p99 = from the due time to the run's start",
      service: {
        requests: runs.length,
        rps: Math.round(runs.length / Math.max(lastEnd / 1000, 0.001)),
        p50: percentile(delays, 50),
        p99: percentile(delays, 99),
        errors: failed + twice + (SCHEDULES - perSchedule.size),
        non2xx: 0,
        peakRssMiB: instances.reduce((sum, p) => sum + p.peakRssMiB(), 0),
      },
      note: `${perSchedule.size} of ${SCHEDULES} schedules ran, ${twice} more than once, ${failed} failed; the last run ended ${(lastEnd / 1000).toFixed(2)} s after the due time (target: within the minute); FLOWS_SCHEDULE_TICK_MS 1000, FLOWS_SCHEDULE_CONCURRENCY 20`,
    };
  } finally {
    for (const instance of instances) await instance.stop();
    await stores.close();
  }
}

/** Issue 26: tracing overhead (both engines) and schedules across two instances (PostgreSQL only). */
export const benchFlowsOps: Suite = async (context) => {
  const rows: Row[] = [];
  const fake = await startProcess(join(ROOT, 'bench/fakes/fake-llm.ts'), {});
  try {
    const seeded = await seed(context.env, fake.url);
    const env = { ...context.env, FLOWS_PORT: '0', FLOWS_RATE_LIMIT: '1000000000/m' };
    rows.push(await tracingOverhead(context, env, seeded.token));
    rows.push(...(await mcpOverhead(context, env, ORG, seeded.token)));
    if (context.postgres) rows.push(await schedulesAcrossInstances(context, env, seeded));
    else context.log('flows-ops: schedules across two instances skipped (needs DATABASE_URL: instances share one PostgreSQL)');
  } finally {
    await fake.stop();
  }
  return rows;
};
