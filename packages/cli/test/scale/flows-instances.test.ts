import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { listen, type App } from '@switchboard/core';
import { createTestDatabase, startFaultProxy, type FaultProxy, type TestDatabase } from '@switchboard/core/testing';
import { buildApp, loadConfig, openFlowsStores } from '@switchboard/flows';
import { startGatedUpstream, type GatedUpstream } from './gated-upstream.ts';
import { prepareFlows, startStreamingRun, type FlowsFixture } from './flows-fixture.ts';
import { NGINX, startNginx, type RunningNginx } from './nginx.ts';

const postgres = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
const redisAvailable = postgres ? await redisAnswers(REDIS_URL) : false;
if (postgres && !redisAvailable) process.stderr.write(`flows scale-out: Redis at ${REDIS_URL} does not answer; the Redis cases are skipped\n`);

const RATE_LIMITED = {
  error: { message: 'Rate limit of 10 requests per 3600 s exceeded for this token', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' },
};

/** Two flows instances on one PostgreSQL database behind nginx, with `extraEnv`. */
function twoInstances(extraEnv: () => Record<string, string>, before: () => Promise<void> = async () => undefined) {
  const cluster = {
    database: undefined as unknown as TestDatabase,
    upstream: undefined as unknown as GatedUpstream,
    fixture: undefined as unknown as FlowsFixture,
    apps: [] as App[],
    urls: [] as string[],
    logs: [[], []] as string[][],
    nginx: undefined as unknown as RunningNginx,
    /** A new run token of acme (each case counts its own requests). */
    async newRunToken(): Promise<string> {
      return (await cluster.newRunTokenWithId()).token;
    },
    async newRunTokenWithId(): Promise<{ id: string; token: string }> {
      const stores = await openFlowsStores(loadConfig({ ...cluster.database.env, LOG_LEVEL: 'silent' }));
      try {
        const created = await stores.orgs.createToken(cluster.fixture.orgId, { scope: 'run', name: 'case' });
        return { id: created.id, token: created.token };
      } finally {
        await stores.close();
      }
    },
  };
  beforeAll(async () => {
    await before();
    cluster.database = await createTestDatabase('postgres');
    cluster.upstream = await startGatedUpstream();
    cluster.fixture = await prepareFlows(cluster.database.env, cluster.upstream.url);
    const env = { ...cluster.database.env, FLOWS_RATE_LIMIT: '10/h', TRUST_PROXY: '127.0.0.1', ...extraEnv() };
    for (const n of [0, 1]) {
      const app = await buildApp(loadConfig(env), { logDestination: { write: (line: string) => void cluster.logs[n].push(line) } });
      cluster.apps.push(app);
      cluster.urls.push(await listen(app, '127.0.0.1', 0));
    }
    cluster.nginx = await startNginx({ flows: cluster.urls.map((url) => url.replace('http://', '')) });
  });
  afterAll(async () => {
    await cluster.nginx?.close();
    for (const app of cluster.apps) {
      app.server.closeAllConnections();
      await app.close();
    }
    await cluster.upstream?.close();
    await cluster.database?.cleanup();
  });
  return cluster;
}

/** Runs `mem` (raw output) with a session: the answer text and status. */
async function ask(base: string, token: string, question: string, session?: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${base}/api/llm/acme/flows/mem/run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ input: { question }, ...(session ? { metadata: { session_id: session } } : {}) }),
  });
  return { status: response.status, text: await response.text() };
}

/** 12 requests of one token through nginx (round-robin over both instances): every status and distinct body. */
async function twelveRequests(url: string, token: string): Promise<{ statuses: number[]; limited: unknown[] }> {
  const statuses: number[] = [];
  const limited: unknown[] = [];
  for (let i = 0; i < 12; i++) {
    const answer = await ask(url, token, `q${i}`);
    statuses.push(answer.status);
    if (answer.status === 429) limited.push(JSON.parse(answer.text));
  }
  return { statuses, limited };
}

describe.skipIf(!postgres || !NGINX)('two flows instances on one PostgreSQL behind nginx', () => {
  const cluster = twoInstances(() => ({}));

  it('holds the per-token rate limit across instances (10 allowed, then 429 on whichever instance)', async () => {
    const token = await cluster.newRunToken();
    const { statuses, limited } = await twelveRequests(cluster.nginx.urls.flows!, token);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    expect(limited).toEqual([RATE_LIMITED, RATE_LIMITED]);
    // Both instances answered some of them.
    const served = cluster.logs.map((lines) => lines.filter((line) => line.includes('"url":"/api/llm/acme/flows/mem/run"')).length);
    expect(served.every((count) => count > 0)).toBe(true);
  });

  it("continues a conversation's memory whichever instance serves the next message", async () => {
    const token = await cluster.newRunToken();
    expect(await ask(cluster.urls[0], token, 'first', 'chat-1')).toEqual({ status: 200, text: 'History: user:first' });
    expect(await ask(cluster.urls[1], token, 'second', 'chat-1')).toEqual({
      status: 200,
      text: 'History: user:first | assistant:History: user:first | user:second',
    });
  });

  it('refuses a token revoked through one instance on the other at its next request', async () => {
    const { id, token } = await cluster.newRunTokenWithId();
    expect((await ask(cluster.urls[1], token, 'before')).status).toBe(200);
    const revoked = await fetch(`${cluster.urls[0]}/api/llm/acme/tokens/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${cluster.fixture.manageToken}` },
    });
    expect({ status: revoked.status, body: await revoked.json() }).toEqual({ status: 200, body: { revoked: true } });
    const after = await ask(cluster.urls[1], token, 'after');
    expect({ status: after.status, body: JSON.parse(after.text) }).toEqual({
      status: 401,
      body: { error: { message: 'Invalid or revoked token', type: 'authentication_error', param: null, code: 'invalid_api_key' } },
    });
  });

  it('streams JSON Lines through nginx as they are written (the first lines arrive while the run waits upstream)', async () => {
    const run = await startStreamingRun(cluster.nginx.urls.flows!, cluster.fixture.runToken);
    expect(run.response.status).toBe(200);
    const reader = run.response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('Hello')) text += (await reader.read()).value ?? '';
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toEqual({ type: 'run', run_id: run.runId, flow: 'bot', version: 1 });
    expect(lines.some((line) => line.type === 'done')).toBe(false);
    cluster.upstream.open();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    expect(JSON.parse(text.trim().split('\n').at(-1)!)).toEqual({
      type: 'done',
      output: 'Hello world',
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    cluster.upstream.shut();
  });
});

describe.skipIf(!postgres || !NGINX || !redisAvailable)('two flows instances with REDIS_URL behind nginx', () => {
  const cluster = twoInstances(() => ({ REDIS_URL }));

  it('holds the per-token rate limit across instances in Redis', async () => {
    const token = await cluster.newRunToken();
    const { statuses, limited } = await twelveRequests(cluster.nginx.urls.flows!, token);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    expect(limited).toEqual([RATE_LIMITED, RATE_LIMITED]);
    // Counted in Redis, not in PostgreSQL.
    const stores = await openFlowsStores(loadConfig({ ...cluster.database.env, LOG_LEVEL: 'silent' }));
    try {
      const rows = await stores.database.db
        .selectFrom('rate_limit_windows' as never)
        .selectAll()
        .execute();
      expect(rows).toEqual([]);
    } finally {
      await stores.close();
    }
  });
});

describe.skipIf(!postgres || !NGINX || !redisAvailable)('two flows instances whose Redis goes down', () => {
  let proxy: FaultProxy;
  const cluster = twoInstances(
    () => ({ REDIS_URL: proxy.rewrite(REDIS_URL) }),
    async () => {
      const target = new URL(REDIS_URL);
      proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) });
    },
  );
  afterAll(async () => proxy?.close());

  it('keeps the limit from PostgreSQL while Redis is away, logs a warning and counts it in a metric, never a 500', async () => {
    proxy.cut();
    const token = await cluster.newRunToken();
    const { statuses, limited } = await twelveRequests(cluster.nginx.urls.flows!, token);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    expect(limited).toEqual([RATE_LIMITED, RATE_LIMITED]);
    for (const lines of cluster.logs) {
      expect(lines.some((line) => line.includes('Redis does not answer; rate limits are counted without it until it is back'))).toBe(true);
    }
    let fallbacks = 0;
    for (const url of cluster.urls) {
      const metrics = await (await fetch(`${url}/metrics`)).text();
      fallbacks += Number(/^rate_limit_fallback_total (\d+)/m.exec(metrics)![1]);
    }
    expect(fallbacks).toBe(12);
    // Redis back: counting returns to it (a new token starts at 0 there).
    proxy.restore();
    const again = await cluster.newRunToken();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await ask(cluster.nginx.urls.flows!, again, 'back')).status;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
  });
});
