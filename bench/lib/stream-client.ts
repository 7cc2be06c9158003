// The client side of the open-streams scenarios: POSTs that each hold an SSE
// answer open, timed with a raw node:http client. Runs in worker threads
// (openStreamsInWorkers), so that opening 10,000 sockets at once is not held
// back by one event loop that also reads every stream's first token.
import { Agent, request as httpRequest } from 'node:http';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/** What a raw HTTP client saw of one response, times in ms from sending the request. */
export interface Timing {
  status: number;
  headers: number;
  firstByte: number;
  firstToken: number;
  total: number;
  text: string;
}

/**
 * One POST with a raw node:http client, timing the first body byte, the first
 * non-empty content delta (`"content":"x`) and the end. `onResponse` fires
 * with the status and headers, `onFirstToken` with the first token. With
 * `keep` false only the last 300 characters of the body are kept (enough to
 * see `[DONE]` or an error), so 10,000 streams do not weigh on the client.
 */
export function timedPost(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
  onFirstToken?: () => void,
  onResponse?: () => void,
  keep = true,
): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let headersAt = NaN;
    let firstByte = NaN;
    let firstToken = NaN;
    let text = '';
    const req = httpRequest(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      headersAt = performance.now() - started;
      onResponse?.();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const now = performance.now() - started;
        if (Number.isNaN(firstByte)) firstByte = now;
        text += chunk;
        if (Number.isNaN(firstToken) && /"content":"[^"]/.test(text)) {
          firstToken = now;
          onFirstToken?.();
        }
        if (!keep && text.length > 600) text = text.slice(-300);
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: headersAt, firstByte, firstToken, total: performance.now() - started, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What one worker was asked to open. */
interface Job {
  /** The stream i goes to urls[i % urls.length] (several instances without a balancer in front). */
  urls: string[];
  headers: Record<string, string>;
  body: string;
  count: number;
}

/** A worker's progress (every 100 ms) and its end. */
type FromWorker =
  | { type: 'progress'; answered: number; withToken: number }
  | { type: 'done'; headers: number[]; statuses: number[]; completed: number; failure?: string };

/** The streams of all workers, once released and ended. */
export interface StreamsSummary {
  /** Time to the status and headers of each stream, ms (NaN when it failed before). */
  headers: number[];
  statuses: number[];
  completed: number;
  failure?: string;
}

/** Streams being opened by worker threads: live counts, then release() and the summary. */
export interface OpenStreams {
  answered(): number;
  withToken(): number;
  /** Resolves when every stream has ended (call after the upstream was released). */
  finished(): Promise<StreamsSummary>;
  close(): Promise<void>;
}

// The worker is this file, TypeScript: Node 20 does not pass tsx's loader on to a worker thread, so it registers tsx first.
const WORKER_BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); });`;

/** Opens `count` streams at once, split over `workers` worker threads. */
export function openStreamsInWorkers(job: Omit<Job, 'count'>, count: number, workers: number): OpenStreams {
  const progress = Array.from({ length: workers }, () => ({ answered: 0, withToken: 0 }));
  const threads: Worker[] = [];
  const ends: Promise<Extract<FromWorker, { type: 'done' }>>[] = [];
  for (let i = 0; i < workers; i++) {
    const share = Math.floor(count / workers) + (i < count % workers ? 1 : 0);
    const worker = new Worker(WORKER_BOOT, { eval: true, workerData: { ...job, count: share } satisfies Job });
    threads.push(worker);
    ends.push(
      new Promise((resolve, reject) => {
        worker.on('message', (message: FromWorker) => {
          if (message.type === 'progress') progress[i] = message;
          else resolve(message);
        });
        worker.on('error', reject);
      }),
    );
  }
  const sum = (field: 'answered' | 'withToken') => progress.reduce((total, p) => total + p[field], 0);
  return {
    answered: () => sum('answered'),
    withToken: () => sum('withToken'),
    async finished() {
      const done = await Promise.all(ends);
      return {
        headers: done.flatMap((d) => d.headers),
        statuses: done.flatMap((d) => d.statuses),
        completed: done.reduce((total, d) => total + d.completed, 0),
        failure: done.find((d) => d.failure)?.failure,
      };
    },
    async close() {
      await Promise.all(threads.map((worker) => worker.terminate()));
    },
  };
}

async function runWorker(job: Job): Promise<void> {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  let answered = 0;
  let withToken = 0;
  const report = setInterval(() => parentPort!.postMessage({ type: 'progress', answered, withToken } satisfies FromWorker), 100);
  const failed = (error: Error): Timing => ({ status: 0, headers: NaN, firstByte: NaN, firstToken: NaN, total: NaN, text: error.message });
  const streams: Promise<Timing>[] = [];
  for (let i = 0; i < job.count; i++)
    streams.push(
      timedPost(
        agent,
        job.urls[i % job.urls.length],
        job.headers,
        job.body,
        () => (withToken += 1),
        () => (answered += 1),
        false,
      ).catch(failed),
    );
  const timings = await Promise.all(streams);
  clearInterval(report);
  agent.destroy();
  const ok = (t: Timing) => t.status === 200 && t.text.includes('data: [DONE]') && !t.text.includes('"error"');
  const bad = timings.find((t) => !ok(t));
  parentPort!.postMessage({
    type: 'done',
    headers: timings.map((t) => t.headers),
    statuses: timings.map((t) => t.status),
    completed: timings.filter(ok).length,
    failure: bad && `${bad.status} ${bad.text.slice(-300)}`,
  } satisfies FromWorker);
}

if (!isMainThread && parentPort) void runWorker(workerData as Job);
