import { join } from 'node:path';
import { percentile, type LoadResult } from './lib/load.ts';
import { startProcess, type RunningProcess } from './lib/process.ts';
import { openStreamsInWorkers } from './lib/stream-client.ts';
import type { BenchContext } from './context.ts';

/** Client worker threads opening the streams: one event loop would hold back the opening of 10,000 sockets. */
const CLIENT_WORKERS = 2;

async function upstreamOpen(fake: RunningProcess): Promise<number> {
  return ((await (await fetch(`${fake.url}/stats`)).json()) as { open: number }).open;
}

/** What a held set of streams measured. */
export interface HeldStreams {
  before: number;
  during: number;
  openNow: { answered: number; withToken: number; upstreamOpen: number; files: number };
  /** Seconds until every stream was answered (or the wait ended). */
  openSeconds: number;
  completed: number;
  result: LoadResult;
}

/**
 * Opens `count` SSE runs of a `hold` flow at once (spread over `urls`, one per instance); the fake upstream holds
 * each open after its first token until released. The service's RSS is read
 * before, and once every stream is open (200 and headers received, first
 * token delivered) and the upstream's count of held calls has stopped growing.
 * `whileOpen` runs with the streams open (a heap snapshot, say).
 */
export async function openStreams(
  context: BenchContext,
  service: RunningProcess,
  fake: RunningProcess,
  urls: string[],
  headers: Record<string, string>,
  body: string,
  count: number,
  whileOpen?: () => Promise<void>,
): Promise<HeldStreams> {
  const before = service.rssMiB();
  const started = performance.now();
  const streams = openStreamsInWorkers({ urls, headers, body }, count, CLIENT_WORKERS);
  let allAnsweredAt = Number.NaN;
  try {
    // Wait until every stream is answered with its first token and the upstream holds as many calls as it is going to (or 90 s).
    const deadline = Date.now() + 90_000;
    let held = 0;
    let steadySince = Date.now();
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (Number.isNaN(allAnsweredAt) && streams.answered() === count) allAnsweredAt = performance.now();
      const open = await upstreamOpen(fake);
      if (open !== held) [held, steadySince] = [open, Date.now()];
      if (streams.answered() === count && streams.withToken() === count && (held === count || Date.now() - steadySince > 1500)) break;
    }
    const openSeconds = ((Number.isNaN(allAnsweredAt) ? performance.now() : allAnsweredAt) - started) / 1000;
    const during = service.rssMiB();
    const openNow = { answered: streams.answered(), withToken: streams.withToken(), upstreamOpen: held, files: service.openFiles() };
    context.log(
      `flows: ${openNow.answered}/${count} streams answered in ${openSeconds.toFixed(1)} s, ${openNow.withToken} with a first token, upstream holds ${held}, ` +
        `service has ${openNow.files} open files; service RSS ${before} → ${during} MiB`,
    );
    await whileOpen?.();
    await fetch(`${fake.url}/release`, { method: 'POST' });
    const summary = await streams.finished();
    if (summary.failure) context.log(`flows: ${count - summary.completed} streams did not complete, e.g. ${summary.failure}`);
    return {
      before,
      during,
      openNow,
      openSeconds,
      completed: summary.completed,
      result: {
        requests: count,
        rps: Math.round(openNow.answered / openSeconds),
        p50: percentile(summary.headers, 50),
        p99: percentile(summary.headers, 99),
        errors: count - summary.completed,
        non2xx: summary.statuses.filter((status) => status !== 200).length,
      },
    };
  } finally {
    await streams.close();
  }
}

/**
 * The same held streams on the raw stack (bench/baselines/stream-baseline.ts: node:http passing one HTTP/2 call's
 * bytes through, `upstreamBody` the call flows sends), on a fresh process, with its peak RSS and CPU per stream
 * opened (and, held `holdSeconds` longer, per held stream-second): what any Node server doing the same I/O spends
 * on this machine.
 */
export async function openStreamsOnBaseline(
  context: BenchContext,
  fake: RunningProcess,
  upstreamBody: string,
  env: Record<string, string>,
  count: number,
  holdSeconds = 0,
): Promise<HeldStreams & { peakRssMiB: number; cpuUsPerStream: number; cpuUsPerHeldSecond: number }> {
  const baseline = await startProcess(join(import.meta.dirname, 'baselines/stream-baseline.ts'), {
    ...env,
    BASELINE_UPSTREAM: fake.tlsUrl!,
    BASELINE_UPSTREAM_BODY: upstreamBody,
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await fetch(`${fake.url}/hold`, { method: 'POST' });
    const cpuBefore = baseline.cpuMs();
    let cpuUsPerStream = Number.NaN;
    let cpuUsPerHeldSecond = Number.NaN;
    const held = await openStreams(context, baseline, fake, [`${baseline.url}/stream`], {}, '{}', count, async () => {
      const cpuOpen = baseline.cpuMs();
      cpuUsPerStream = Math.round(((cpuOpen - cpuBefore) * 1000) / count);
      if (holdSeconds <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, holdSeconds * 1000));
      cpuUsPerHeldSecond = Math.round(((baseline.cpuMs() - cpuOpen) * 1000) / (count * holdSeconds));
    });
    return { ...held, peakRssMiB: baseline.peakRssMiB(), cpuUsPerStream, cpuUsPerHeldSecond };
  } finally {
    await baseline.stop();
  }
}
