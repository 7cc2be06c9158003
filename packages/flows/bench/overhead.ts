/**
 * Overhead benchmark (issue 4): a one-llm-node flow against a fake
 * OpenAI-compatible upstream, side by side with calling the upstream directly.
 *
 *   npx tsx packages/flows/bench/overhead.ts [seconds=10] [connections=10]
 *
 * Prints p50/p99 latency of both and the difference, then how long the
 * upstream's first streamed token takes to reach the client through the
 * service vs directly (the token carries its send time on the monotonic clock).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { loadConfig, openFlowsStores } from '../src/index.ts';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 10);

function spawnLine(args: string[], env: Record<string, string>, pattern: RegExp): Promise<{ child: ChildProcess; match: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let buffer = '';
    child.stdout!.on('data', (data: Buffer) => {
      buffer += data.toString();
      const found = pattern.exec(buffer);
      if (found) resolve({ child, match: found[0] });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

const here = dirname(fileURLToPath(import.meta.url));
const upstreamProcess = await spawnLine([join(here, 'fake-upstream-server.mjs')], {}, /http:\/\/127\.0\.0\.1:\d+\/v1/);
const upstreamUrl = upstreamProcess.match;

const dataDir = mkdtempSync(join(tmpdir(), 'flows-bench-'));
const env = {
  DATA_DIR: dataDir,
  SWITCHBOARD_SECRET: 'bench-secret-0123456789',
  LOG_LEVEL: 'warn',
  FLOWS_RATE_LIMIT: '100000000/m',
  DATABASE_URL: process.env.DATABASE_URL ?? '',
};
const config = loadConfig(env);
const stores = await openFlowsStores(config);
const org = await stores.orgs.createOrg('bench');
const { token } = await stores.orgs.createToken(org.id, { scope: 'run' });
await stores.orgs.setProvider(org.id, { name: 'up', kind: 'openai-compatible', baseUrl: upstreamUrl });
await stores.admin.save(org, {
  name: 'Bench',
  slug: 'bench',
  nodes: [
    { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
    { id: 'answer', type: 'llm', data: { provider: 'up', model: 'm', prompt: '{{input.question}}' } },
    { id: 'output', type: 'output', data: { format: 'chat_completion' } },
  ],
  edges: [
    { from: 'input', to: 'answer' },
    { from: 'answer', to: 'output' },
  ],
});
await stores.admin.save(org, {
  name: 'Template',
  slug: 'template',
  nodes: [
    { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
    { id: 'reply', type: 'template', data: { template: 'You asked {{input.question}}' } },
    { id: 'output', type: 'output', data: { format: 'chat_completion' } },
  ],
  edges: [
    { from: 'input', to: 'reply' },
    { from: 'reply', to: 'output' },
  ],
});
await stores.close();
// The service runs as its own process, as in production (`npm run start:flows`).
const serviceProcess = await spawnLine(
  [...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []), '--import', 'tsx', join(here, '..', 'src', 'main.ts')],
  { ...env, FLOWS_PORT: '0' },
  /listening on (http:\/\/\S+)/,
);
const base = serviceProcess.match.replace('listening on ', '');

async function load(url: string, body: string, headers: Record<string, string>) {
  const result = await autocannon({ url, method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, connections, duration: seconds });
  return { p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average, errors: result.errors + result.non2xx };
}

/** Milliseconds from the upstream sending its first token to this client receiving it (monotonic clock, same machine). */
function firstByte(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let done = false;
      res.on('data', (chunk: Buffer) => {
        const sent = /"content":"@(\d+)"/.exec(chunk.toString());
        if (!done && sent) {
          done = true;
          resolve(Number(process.hrtime.bigint() - BigInt(sent[1])) / 1e6);
        }
      });
      res.on('end', () => (done ? undefined : reject(new Error('no content'))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const directBody = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
const flowBody = JSON.stringify({ input: { question: 'hi' } });
const auth = { authorization: `Bearer ${token}` };

// Warm up both paths (JIT, caches, connections).
await load(`${upstreamUrl}/chat/completions`, directBody, {});
await load(`${base}/api/llm/bench/flows/bench/run`, flowBody, auth);
const direct = await load(`${upstreamUrl}/chat/completions`, directBody, {});
const flow = await load(`${base}/api/llm/bench/flows/bench/run`, flowBody, auth);
const template = await load(`${base}/api/llm/bench/flows/template/run`, flowBody, auth);

const ttfbDirect: number[] = [];
const ttfbFlow: number[] = [];
const directStream = JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });
for (let i = 0; i < 100; i++) {
  ttfbDirect.push(await firstByte(`${upstreamUrl}/chat/completions`, directStream, {}));
  ttfbFlow.push(await firstByte(`${base}/api/llm/bench/flows/bench/run/stream`, flowBody, auth));
}

const fmt = (n: number) => n.toFixed(2);
console.log(`dialect: ${config.databaseUrl ? 'postgres' : 'sqlite'}, ${seconds} s, ${connections} connections`);
console.log(`direct upstream : p50 ${fmt(direct.p50)} ms  p99 ${fmt(direct.p99)} ms  ${fmt(direct.rps)} req/s  errors ${direct.errors}`);
console.log(`through the flow: p50 ${fmt(flow.p50)} ms  p99 ${fmt(flow.p99)} ms  ${fmt(flow.rps)} req/s  errors ${flow.errors}`);
console.log(`template flow (no model call): p50 ${fmt(template.p50)} ms  p99 ${fmt(template.p99)} ms  ${fmt(template.rps)} req/s`);
console.log(`added           : p50 ${fmt(flow.p50 - direct.p50)} ms  p99 ${fmt(flow.p99 - direct.p99)} ms`);
const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)];
console.log(
  `upstream first token -> client (SSE, 100 sequential calls): direct p50 ${fmt(median(ttfbDirect))} ms p99 ${fmt(p99(ttfbDirect))} ms; through the flow p50 ${fmt(median(ttfbFlow))} ms p99 ${fmt(p99(ttfbFlow))} ms; added p50 ${fmt(median(ttfbFlow) - median(ttfbDirect))} ms`,
);

serviceProcess.child.kill('SIGTERM');
upstreamProcess.child.kill('SIGTERM');
await new Promise((resolve) => serviceProcess.child.once('exit', resolve));
rmSync(dataDir, { recursive: true, force: true });
