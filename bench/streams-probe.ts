// `npx tsx bench/streams-probe.ts [COUNT…] [--snapshot] [--cpu-prof] [--baseline]`: opens COUNT held SSE streams (default
// 2,000, 5,000 and 10,000) on a fresh flows service each, as the flows benchmark does, and prints RSS, open
// files, rates, and the service's CPU time per stream opened and per held stream-second (one token forwarded):
// CPU time, unlike wall time, stays meaningful on a machine shared with other work. --snapshot writes a heap
// snapshot of the service with the streams open (SIGUSR2) and --cpu-prof a CPU profile, both under
// bench/results/profiles/. PROBE_NODE_ARGS adds node options to the service, PROBE_MALLOC sets its
// MALLOC_ARENA_MAX. --baseline opens them on the raw stack instead (bench/baselines/stream-baseline.ts: node:http
// passing one HTTP/2 call's bytes through). For finding what a stream holds and costs.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStreams, openStreamsOnBaseline } from './flows-streams.ts';
import { seedOrg, QUESTION, ORG, FAKE_TLS_ENV, TRUST_FAKE_TLS, HOLD_UPSTREAM_BODY } from './flows.ts';
import { firstTokenTimes } from './flows.ts';
import { startProcess, startService } from './lib/process.ts';

const ROOT = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const counts = args.filter((a) => /^\d+$/.test(a)).map(Number);
const snapshot = args.includes('--snapshot');
const cpuProf = args.includes('--cpu-prof');
const dir = join(import.meta.dirname, 'results', 'profiles', `streams-${new Date().toISOString().replace(/[:.]/g, '-')}`);
mkdirSync(dir, { recursive: true });
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-probe-'));
const env: Record<string, string> = { DATA_DIR: dataDir, SWITCHBOARD_SECRET: 'benchmark-secret-0123456789', LOG_LEVEL: 'warn' };
if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
const log = (message: string) => process.stderr.write(`[probe] ${message}\n`);
const context = { quick: true, durationSeconds: 1, warmupSeconds: 1, connections: 10, env, log };

const fake = await startProcess(join(ROOT, 'bench/fakes/fake-llm.ts'), FAKE_TLS_ENV);

/** The same count of held streams on the raw stack (no warm-up runs: the fake holds every call). */
async function probeBaseline(count: number): Promise<void> {
  const held = await openStreamsOnBaseline(context, fake, HOLD_UPSTREAM_BODY, TRUST_FAKE_TLS, count, 5);
  log(
    `${count} (baseline): CPU ${held.cpuUsPerStream} µs per stream opened, ${held.cpuUsPerHeldSecond} µs per held stream-second (a tick forwarded); ${held.result.rps}/s answered, headers p50 ${held.result.p50} p99 ${held.result.p99} ms, ` +
      `upstream ${held.openNow.upstreamOpen}, RSS ${held.before} → ${held.during} (peak ${held.peakRssMiB}) MiB, ${(((held.during - held.before) * 1024) / count).toFixed(1)} KiB per stream`,
  );
}

try {
  // The held streams' provider calls go over HTTP/2 to the fake's TLS port (flows `hold`), as to a real provider.
  const token = await seedOrg(env, fake.url, fake.tlsUrl);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ input: { question: QUESTION } });
  for (const count of counts.length ? counts : [2_000, 5_000, 10_000]) {
    // The fake holds calls again (the last count's release let them through).
    await fetch(`${fake.url}/hold`, { method: 'POST' });
    if (args.includes('--baseline')) {
      await probeBaseline(count);
      continue;
    }
    const nodeArgs = [
      ...(process.env.PROBE_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      `--diagnostic-dir=${dir}`,
      ...(snapshot ? ['--heapsnapshot-signal=SIGUSR2'] : []),
      ...(cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []),
    ];
    const service = await startService(
      'flows',
      {
        ...env,
        FLOWS_PORT: '0',
        FLOWS_RATE_LIMIT: '1000000000/m',
        ...TRUST_FAKE_TLS,
        ...(process.env.PROBE_MALLOC ? { MALLOC_ARENA_MAX: process.env.PROBE_MALLOC } : {}),
      },
      nodeArgs,
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const url = (slug: string) => `${service.url}/api/llm/${ORG}/flows/${slug}/run/stream`;
      await firstTokenTimes(url('chat'), headers, body, 20);
      const cpuBefore = service.cpuMs();
      const held = await openStreams(context, service, fake, [url('hold')], headers, body, count, async () => {
        const cpuOpen = service.cpuMs();
        await new Promise((resolve) => setTimeout(resolve, 5000));
        const cpuHold = service.cpuMs() - cpuOpen;
        log(
          `${count}: service CPU ${(((cpuOpen - cpuBefore) * 1000) / count).toFixed(0)} µs per stream opened, ${((cpuHold * 1000) / (count * 5)).toFixed(0)} µs per held stream-second (a tick forwarded)`,
        );
        if (!snapshot) return;
        const files = readdirSync(dir).length;
        service.child.kill('SIGUSR2');
        // The snapshot is written synchronously by the service; wait for its file to appear and stop growing.
        while (readdirSync(dir).length === files) await new Promise((resolve) => setTimeout(resolve, 500));
        await new Promise((resolve) => setTimeout(resolve, 3000));
      });
      const total = held.during - held.before;
      log(
        `${count}: ${held.result.rps}/s answered, headers p50 ${held.result.p50} p99 ${held.result.p99} ms, upstream ${held.openNow.upstreamOpen}, ` +
          `completed ${held.completed}, RSS ${held.before} → ${held.during} (peak ${service.peakRssMiB()}) MiB, ${((total * 1024) / count).toFixed(1)} KiB per stream`,
      );
    } finally {
      await service.stop();
    }
  }
} finally {
  await fake.stop();
  rmSync(dataDir, { recursive: true, force: true });
  log(`profiles in ${dir}`);
}
