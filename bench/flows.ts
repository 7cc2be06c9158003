import { Agent } from 'node:http';
import { join } from 'node:path';
import { loadConfig, openFlowsStores } from '../packages/flows/src/index.ts';
import { startProcess, startService, type RunningProcess } from './lib/process.ts';
import { compare, percentile, warnOnFailures, type LoadResult } from './lib/load.ts';
import { timedPost, type Timing } from './lib/stream-client.ts';
import { openStreams, openStreamsOnBaseline } from './flows-streams.ts';
import type { Row } from './lib/report.ts';
import type { Suite } from './context.ts';

const ROOT = join(import.meta.dirname, '..');
/** The test certificate the fake upstream serves HTTP/2 over TLS with (it secures nothing). */
export const FAKE_TLS_DIR = join(ROOT, 'packages/flows/test/fixtures/tls');
/** The fake upstream's environment (TLS on a second port) and the flows service's (trusting its certificate). */
export const FAKE_TLS_ENV = { FAKE_LLM_TLS: FAKE_TLS_DIR };
export const TRUST_FAKE_TLS = { NODE_EXTRA_CA_CERTS: join(FAKE_TLS_DIR, 'localhost-cert.pem') };
export const ORG = 'bench';
const SYSTEM = 'You answer in one short sentence.';
export const QUESTION = 'What does the fox do?';
/** The upstream call flows sends for the `hold` flow's streamed run (as the fake upstream records it), which the raw-stack baseline sends. */
export const HOLD_UPSTREAM_BODY = JSON.stringify({
  model: 'hold',
  messages: [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: QUESTION },
  ],
  max_tokens: 64,
  stream: true,
  stream_options: { include_usage: true },
});
/** The open-stream scenarios, each on fresh services: how many streams, on how many instances, and the target they are held to. */
const STREAM_SCENARIOS: Array<[count: number, instances: number, target: string]> = [
  [1_000, 1, 'peak < 200 MB'],
  [10_000, 1, 'peak < 600 MB, ≤ 50 KiB per stream, ≥ 2,000 answered per second'],
  [10_000, 2, 'past one process: two instances'],
];

/** `count` flows services started side by side, seen as one process by openStreams (memory and CPU summed, open files of the busiest). */
async function startGroup(count: number, env: Record<string, string>): Promise<RunningProcess & { urls: string[] }> {
  const instances: RunningProcess[] = [];
  for (let i = 0; i < count; i++) instances.push(await startService('flows', env));
  const sum = (read: (p: RunningProcess) => number) => Math.round(instances.reduce((total, p) => total + read(p), 0) * 10) / 10;
  return {
    child: instances[0].child,
    url: instances[0].url,
    urls: instances.map((instance) => instance.url),
    peakRssMiB: () => sum((p) => p.peakRssMiB()),
    rssMiB: () => sum((p) => p.rssMiB()),
    cpuMs: () => sum((p) => p.cpuMs()),
    openFiles: () => Math.max(...instances.map((p) => p.openFiles())),
    stop: async () => {
      await Promise.all(instances.map((p) => p.stop()));
    },
  };
}
/** Streamed runs on the fresh service before the streams open. */
const WARMUP_RUNS = 20;

/** input → llm (the fake upstream's `model`, through connection `provider`) → output chat_completion. */
function oneLlmFlow(slug: string, model: string, provider: string) {
  return {
    name: `Bench ${slug}`,
    slug,
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'answer', type: 'llm', data: { provider, model, system: SYSTEM, prompt: '{{input.question}}', max_tokens: 64 } },
      { id: 'output', type: 'output', data: { format: 'chat_completion' } },
    ],
    edges: [
      { from: 'input', to: 'answer' },
      { from: 'answer', to: 'output' },
    ],
  };
}

/**
 * Creates org `bench`, a run token, the `fake` openai-compatible connection and the flows `chat`, `paced` and
 * `hold`; with `tlsUpstream`, `hold` calls it through connection `fake-tls` (HTTP/2 over TLS, as real providers).
 */
export async function seedOrg(env: Record<string, string>, upstream: string, tlsUpstream?: string): Promise<string> {
  const stores = await openFlowsStores(loadConfig(env));
  try {
    const created = await stores.orgs.createOrg(ORG, 'Benchmark');
    const { token } = await stores.orgs.createToken(created.id, { name: 'bench', scope: 'run' });
    await stores.orgs.setProvider(created.id, { name: 'fake', kind: 'openai-compatible', baseUrl: `${upstream}/v1` });
    if (tlsUpstream) await stores.orgs.setProvider(created.id, { name: 'fake-tls', kind: 'openai-compatible', baseUrl: `${tlsUpstream}/v1` });
    const org = (await stores.orgs.findOrg(ORG))!;
    for (const [slug, model] of [
      ['chat', 'bench'],
      ['paced', 'paced'],
      ['hold', 'hold'],
    ])
      await stores.admin.save(org, oneLlmFlow(slug, model, slug === 'hold' && tlsUpstream ? 'fake-tls' : 'fake'));
    return token;
  } finally {
    await stores.close();
  }
}

/** `count` sequential requests; the figures are the time to the first content token. */
export async function firstTokenTimes(
  url: string,
  headers: Record<string, string>,
  body: string,
  count: number,
): Promise<{ result: LoadResult; firstByteP50: number; totalP50: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const timings: Timing[] = [];
  const started = performance.now();
  try {
    for (let i = 0; i < count; i++) timings.push(await timedPost(agent, url, headers, body));
  } finally {
    agent.destroy();
  }
  const ok = timings.filter((t) => t.status === 200 && t.text.includes('[DONE]'));
  const tokens = ok.map((t) => t.firstToken);
  return {
    result: {
      requests: timings.length,
      rps: Math.round(timings.length / ((performance.now() - started) / 1000)),
      p50: percentile(tokens, 50),
      p99: percentile(tokens, 99),
      errors: timings.length - ok.length,
      non2xx: timings.filter((t) => t.status !== 200).length,
    },
    firstByteP50: percentile(
      ok.map((t) => t.firstByte),
      50,
    ),
    totalP50: percentile(
      ok.map((t) => t.total),
      50,
    ),
  };
}

async function upstreamStats(fake: RunningProcess): Promise<{ open: number; calls: number; last: unknown }> {
  return (await fetch(`${fake.url}/stats`)).json() as Promise<{ open: number; calls: number; last: unknown }>;
}

/** Flows: a one-`llm`-node flow non-streaming and SSE against the fake upstream called directly, time to first token, 1,000 open SSE streams. */
export const benchFlows: Suite = async (outer) => {
  const started = performance.now();
  const context = { ...outer, log: (message: string) => outer.log(`${message} (${((performance.now() - started) / 1000).toFixed(1)} s)`) };
  const rows: Row[] = [];
  const fake = await startProcess(join(ROOT, 'bench/fakes/fake-llm.ts'), FAKE_TLS_ENV);
  let service: RunningProcess | undefined;
  try {
    // The open streams' provider calls go over HTTP/2 (TLS), as to a real provider; the other rows stay on plain HTTP/1.1.
    const token = await seedOrg(context.env, fake.url, fake.tlsUrl);
    const serviceEnv = { ...context.env, FLOWS_PORT: '0', FLOWS_RATE_LIMIT: '1000000000/m', ...TRUST_FAKE_TLS };
    service = await startService('flows', serviceEnv);
    const runHeaders = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const runBody = JSON.stringify({ input: { question: QUESTION } });
    const flowUrl = (slug: string, path: string) => `${service!.url}/api/llm/${ORG}/flows/${slug}/${path}`;

    // The upstream request as the service sends it (checked once), so the direct calls have the same shape.
    const check = await fetch(flowUrl('chat', 'run'), { method: 'POST', headers: runHeaders, body: runBody });
    const checked = (await check.json()) as { choices?: Array<{ message: { content: string } }> };
    if (check.status !== 200 || !checked.choices?.[0]?.message.content) throw new Error(`flows: run answered ${check.status} ${JSON.stringify(checked)}`);
    const sent = (await upstreamStats(fake)).last as Record<string, unknown>;
    const direct = { ...sent, stream: false };
    delete (direct as Record<string, unknown>).stream_options;
    const directStream = { ...sent, stream: true, stream_options: { include_usage: true } };
    const upstreamHeaders = { authorization: 'Bearer none', 'content-type': 'application/json' };
    const chatUrl = `${fake.url}/v1/chat/completions`;
    context.log(`flows: the service sends upstream ${JSON.stringify(sent)}`);

    context.log('flows: non-streaming and SSE runs');
    // A run through the service; against the fake, the request the service sends upstream, sent directly (the baseline).
    const runOrDirect = (path: string, directBody: object) => (base: string) =>
      base === fake.url
        ? { url: chatUrl, method: 'POST' as const, headers: upstreamHeaders, body: JSON.stringify(directBody) }
        : { url: flowUrl('chat', path), method: 'POST' as const, headers: runHeaders, body: runBody };
    const overhead = (a: number, b: number | undefined) => (b === undefined ? '–' : (a - b).toFixed(2));
    const overheads = (result: { service: LoadResult; baseline?: LoadResult }) =>
      `overhead p50 +${overhead(result.service.p50, result.baseline?.p50)} ms, p99 +${overhead(result.service.p99, result.baseline?.p99)} ms`;
    const plain = await compare(context, service, fake, runOrDirect('run', direct));
    warnOnFailures(context, 'flows run', plain);
    rows.push({
      scenario: 'flows POST /run (1 llm node, non-streaming, 10 connections)',
      ...plain,
      baseline: plain.baseline && { ...plain.baseline, label: 'fake upstream direct' },
      note: `${overheads(plain)} (queueing behind 10 connections included)`,
    });
    // One connection: the service's own time per run, without queueing behind the other connections.
    const single = await compare({ ...context, connections: 1 }, service, fake, runOrDirect('run', direct));
    warnOnFailures(context, 'flows run, 1 connection', single);
    rows.push({
      scenario: 'flows POST /run (non-streaming, 1 connection)',
      ...single,
      baseline: single.baseline && { ...single.baseline, label: 'fake upstream direct' },
      note: `${overheads(single)} (target < 2 ms at p50)`,
    });
    const sse = await compare(context, service, fake, runOrDirect('run/stream', directStream));
    warnOnFailures(context, 'flows SSE', sse);
    rows.push({
      scenario: 'flows POST /run/stream (SSE, 10 tokens)',
      ...sse,
      baseline: sse.baseline && { ...sse.baseline, label: 'fake upstream SSE direct' },
      note: `whole stream; ${overheads(sse)}`,
    });

    const sequential = context.quick ? 20 : 200;
    context.log(`flows: time to first token, ${sequential} sequential requests each`);
    const pacedStream = JSON.stringify({ ...directStream, model: 'paced' });
    await firstTokenTimes(chatUrl, upstreamHeaders, pacedStream, 10);
    await firstTokenTimes(flowUrl('paced', 'run/stream'), runHeaders, runBody, 10);
    const upstreamTtft = await firstTokenTimes(chatUrl, upstreamHeaders, pacedStream, sequential);
    const serviceTtft = await firstTokenTimes(flowUrl('paced', 'run/stream'), runHeaders, runBody, sequential);
    rows.push({
      scenario: 'flows SSE time to first token (sequential)',
      service: { ...serviceTtft.result, peakRssMiB: service.peakRssMiB() },
      baseline: { ...upstreamTtft.result, label: 'fake upstream SSE direct' },
      unit: `${sequential} requests one at a time; raw http client`,
      note:
        `upstream paces tokens 5 ms apart; first body byte p50 ${serviceTtft.firstByteP50.toFixed(2)} ms (upstream ${upstreamTtft.firstByteP50.toFixed(2)}), ` +
        `whole stream p50 ${serviceTtft.totalP50.toFixed(2)} ms (upstream ${upstreamTtft.totalP50.toFixed(2)})`,
    });

    // The streams' memory is measured on fresh services each time: the one above keeps the heap the earlier load left behind.
    await service.stop();
    service = undefined;
    for (const [count, instances, target] of STREAM_SCENARIOS) {
      context.log(`flows: ${count} concurrent open SSE streams on ${instances} fresh service${instances > 1 ? 's' : ''}`);
      const group = await startGroup(instances, serviceEnv);
      try {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const idle = group.rssMiB();
        // A few streamed runs first on each, so code loaded and compiled on the first run is not counted per stream.
        for (const url of group.urls) await firstTokenTimes(`${url}/api/llm/${ORG}/flows/chat/run/stream`, runHeaders, runBody, WARMUP_RUNS);
        await fetch(`${fake.url}/hold`, { method: 'POST' });
        const hold = group.urls.map((url) => `${url}/api/llm/${ORG}/flows/hold/run/stream`);
        const held = await openStreams(context, group, fake, hold, runHeaders, runBody, count);
        const total = held.during - held.before;
        // One process: the raw stack's figures for the same count, on a fresh process of its own.
        const raw = instances === 1 ? await openStreamsOnBaseline(context, fake, HOLD_UPSTREAM_BODY, TRUST_FAKE_TLS, count) : undefined;
        const rawNote = raw
          ? `; the raw stack: RSS ${raw.before} → ${raw.during} MiB (peak ${raw.peakRssMiB}), ${(((raw.during - raw.before) * 1024) / count).toFixed(1)} KiB per stream, ` +
            `upstream held ${raw.openNow.upstreamOpen}, ${raw.cpuUsPerStream} µs of CPU per stream opened`
          : '';
        const each = instances > 1 ? ` (summed over the ${instances} instances; open files of the busiest)` : '';
        rows.push({
          scenario: `flows ${count.toLocaleString('en')} concurrent open SSE streams${instances > 1 ? `, ${instances} instances` : ''}`,
          service: { ...held.result, peakRssMiB: group.peakRssMiB() },
          baseline: raw && { ...raw.result, label: 'raw stack: node:http + one HTTP/2 call, bytes passed through' },
          unit:
            `all opened at once on ${instances > 1 ? `${instances} fresh services, every other stream to each (no balancer: it would need 2 sockets per stream itself)` : 'a fresh service'}; ` +
            'req/s = streams answered per second until the last was, p50/p99 = time to the 200 and headers',
          note:
            `${held.openNow.answered} open at once (${held.openNow.withToken} with a first token, upstream held ${held.openNow.upstreamOpen}` +
            `${held.openNow.upstreamOpen < count ? `: ${count - held.openNow.upstreamOpen} had not reached it when the wait ended` : ''}), ${held.completed} completed after release; ` +
            `RSS${each} idle ${idle} MiB, ${held.before} MiB after ${WARMUP_RUNS} runs, ${held.during} MiB with the streams open (target: ${target}), ` +
            `${held.openNow.files} open files: +${total.toFixed(1)} MiB, ${((total * 1024) / count).toFixed(1)} KiB per stream${rawNote}`,
        });
      } finally {
        await group.stop();
      }
    }
  } finally {
    await service?.stop();
    await fake.stop();
  }
  return rows;
};
