import { describe, expect, it } from 'vitest';
import { listen } from '@switchboard/core';
import { startFaultProxy } from '@switchboard/core/testing';
import { buildApp, loadConfig } from '../src/index.ts';
import { simpleFlow, startHarness } from './helpers/harness.ts';

const postgres = process.env.TEST_DATABASE_URL;

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const UNAVAILABLE = { error: { message: 'The database is unavailable; retry shortly.', type: 'api_error', param: null, code: 'unavailable' } };

describe.skipIf(!postgres)('flows during a PostgreSQL outage', () => {
  it("answers 503 with Retry-After in OpenAI's error shape while the database is cut, records every answered run, and recovers by itself", async () => {
    const target = new URL(postgres!);
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const h = await startHarness('postgres');
    await h.save(simpleFlow({ slug: 'bot', format: 'raw' }));
    const app = await buildApp(loadConfig({ ...h.db.env, LOG_LEVEL: 'silent', DATABASE_URL: proxy.rewrite(h.db.env.DATABASE_URL) }));
    try {
      const base = await listen(app, '127.0.0.1', 0);
      const run = (question: string) =>
        fetch(`${base}/api/llm/acme/flows/bot/run`, {
          method: 'POST',
          headers: { authorization: `Bearer ${h.runToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ input: { question } }),
        });
      const answered: string[] = [];
      const refused = new Set<string>();
      let n = 0;
      let running = true;
      const runner = async () => {
        while (running) {
          const response = await run(`q${n++}`);
          if (response.status === 200) answered.push(response.headers.get('x-run-id')!);
          else refused.add(JSON.stringify({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() }));
        }
      };
      const runners = Array.from({ length: 4 }, () => runner());
      await until(() => answered.length >= 20);

      proxy.cut();
      const cutAt = n;
      await until(() => n > cutAt + 20);
      const health = await fetch(`${base}/health`);
      expect({ status: health.status, body: await health.json() }).toEqual({
        status: 503,
        body: { status: 'unavailable', service: 'flows', database: 'postgres' },
      });
      const listing = await fetch(`${base}/api/llm/acme/flows`, { headers: { authorization: `Bearer ${h.manageToken}` } });
      expect({ status: listing.status, retryAfter: listing.headers.get('retry-after'), body: await listing.json() }).toEqual({
        status: 503,
        retryAfter: '5',
        body: UNAVAILABLE,
      });

      // /metrics still answers, with the outage counted.
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^database_unavailable_total{fault="unreachable"} [1-9]\d*$/m);

      proxy.restore();
      await until(async () => (await fetch(`${base}/health`)).status === 200);
      const before = answered.length;
      await until(() => answered.length >= before + 10);
      running = false;
      await Promise.all(runners);

      expect([...refused]).toEqual([JSON.stringify({ status: 503, retryAfter: '5', body: UNAVAILABLE })]);
      // Each run answered before the cut was recorded by then or is written when the database returns (the recorder retries).
      app.server.closeAllConnections();
      await app.close();
      const org = await h.stores.orgs.requireOrg('acme');
      const ids = new Set((await h.stores.runs.list(org.id, { limit: 10_000 })).runs.map((r) => r.id));
      expect(answered.filter((id) => !ids.has(id))).toEqual([]);
      console.log(`flows outage: ${n} runs, ${answered.length} answered 200 and all recorded, ${n - answered.length} answered 503`);
    } finally {
      app.server.closeAllConnections();
      await app.close();
      await proxy.close();
      await h.close();
    }
  });
});
