import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';
import type { BenchContext } from '../context.ts';
import type { RunningProcess } from './process.ts';

/** One load run's figures. Latencies in milliseconds at microsecond resolution. */
export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** What to send. */
export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /** A fixed body, or one built per request (e.g. to make every webhook event unique). */
  body?: string | (() => string);
  connections: number;
  durationSeconds: number;
}

function nearestRank(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[index] * 1000) / 1000;
}

/** The p-th percentile (nearest rank) of times in ms, rounded to the microsecond; NaN entries (nothing measured) are left out. */
export function percentile(values: readonly number[], p: number): number {
  return nearestRank(Float64Array.from(values.filter((value) => !Number.isNaN(value))).sort(), p);
}

/**
 * What autocannon returns without a callback: a promise of the result that is also the run's event emitter
 * (its typings say only the promise; its 'response' event passes the client first).
 */
type LoadInstance = Promise<autocannon.Result> & Pick<EventEmitter, 'on'>;

/** One autocannon run: every 2xx response time (ms), and the counts. */
export interface LoadRun {
  times: number[];
  requests: number;
  errors: number;
  non2xx: number;
  seconds: number;
}

/**
 * Runs autocannon against one URL. autocannon's own latency histogram has
 * 1 ms resolution, too coarse for sub-millisecond services, so every
 * response time (a float in ms) is also collected here.
 */
export async function load(options: LoadOptions): Promise<LoadRun> {
  const times: number[] = [];
  const dynamicBody = typeof options.body === 'function' ? options.body : undefined;
  const instance = autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: typeof options.body === 'string' ? options.body : undefined,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: dynamicBody ? [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: dynamicBody() }) }] : undefined,
  }) as LoadInstance;
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
  });
  const result = await instance;
  return { times, requests: result.requests.total, errors: result.errors + result.timeouts, non2xx: result.non2xx, seconds: options.durationSeconds };
}

/** The figures of one or more runs against the same target, their response times pooled. */
function summarize(runs: readonly LoadRun[]): LoadResult {
  const sorted = Float64Array.from(runs.flatMap((run) => run.times)).sort();
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  return {
    requests,
    rps: Math.round(requests / seconds),
    p50: nearestRank(sorted, 50),
    p99: nearestRank(sorted, 99),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
  };
}

/**
 * Rounds a full run's measurement with a baseline is split into, baseline and
 * service taking turns: a slow spell of the machine (a neighbour on the host,
 * the load generator's own garbage collection) then falls on both alike
 * instead of on whichever ran at the time. Quick runs measure one round.
 */
export const ROUNDS = 3;

/**
 * Measures the baseline and the service on the same request, each after a
 * warm-up, taking turns in rounds (see ROUNDS); each side's response times
 * are pooled over its rounds. The request may differ by side (`side`): the
 * same process measured on two requests (MCP against REST) takes turns too.
 */
export async function compare(
  context: BenchContext,
  service: RunningProcess,
  baseline: RunningProcess | undefined,
  request: (base: string, side: 'service' | 'baseline') => Omit<LoadOptions, 'connections' | 'durationSeconds'>,
): Promise<{ service: LoadResult & { peakRssMiB: number }; baseline?: LoadResult }> {
  // The same process on both sides is measured as two targets, one per request.
  const baselineTarget = baseline === service ? { ...service } : baseline;
  const targets = baselineTarget ? [baselineTarget, service] : [service];
  const run = (target: RunningProcess, durationSeconds: number) =>
    load({ ...request(target.url, target === service ? 'service' : 'baseline'), connections: context.connections, durationSeconds });
  for (const target of targets) await run(target, context.warmupSeconds);
  const rounds = baselineTarget && !context.quick ? ROUNDS : 1;
  const runs = new Map<RunningProcess, LoadRun[]>(targets.map((target) => [target, []]));
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) runs.get(target)!.push(await run(target, context.durationSeconds / rounds));
  }
  return { service: { ...summarize(runs.get(service)!), peakRssMiB: service.peakRssMiB() }, baseline: baselineTarget && summarize(runs.get(baselineTarget)!) };
}

/** Logs failed requests of a measurement: a load of error responses measures nothing. */
export function warnOnFailures(context: BenchContext, label: string, result: { service: LoadResult; baseline?: LoadResult }): void {
  for (const [who, figures] of [
    ['service', result.service],
    ['baseline', result.baseline],
  ] as const) {
    if (figures && (figures.errors > 0 || figures.non2xx > 0))
      context.log(`${label}: WARNING the ${who} had ${figures.errors} errors and ${figures.non2xx} non-2xx responses`);
  }
}
