import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startFaultProxy } from '@switchboard/core/testing';
import { buildApp, loadConfig } from '../src/index.ts';
import { restCaller, startBoard, ToolCallError } from './helpers.ts';
import { openEventStream } from './event-stream.ts';

const postgres = process.env.TEST_DATABASE_URL;

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(!postgres)('the ticket board during a PostgreSQL outage', () => {
  it('answers 503 with Retry-After in its error shape while the database is cut, keeps every acknowledged ticket, and recovers with its event stream', async () => {
    const target = new URL(postgres!);
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const board = await startBoard('postgres', { key: 'CUT' });
    // The instance under test reaches PostgreSQL (its pool, the platform database and its LISTEN connection) through the proxy.
    const app = await buildApp(loadConfig({ ...board.env, DATABASE_URL: proxy.rewrite(board.env.DATABASE_URL) }));
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const call = restCaller(url, board.token);
      const stream = await openEventStream(`${url}/api/projects/CUT/events`, { authorization: `Bearer ${board.token}` });
      await stream.waitFor((event) => event.event === 'ready');

      const created = new Set<string>();
      const refused: string[] = [];
      let n = 0;
      let writing = true;
      const writer = async () => {
        while (writing) {
          const title = `ticket ${n++}`;
          try {
            await call('create_ticket', { title });
            created.add(title);
          } catch (error) {
            if (!(error instanceof ToolCallError)) throw error;
            refused.push(`${error.status} ${error.code} ${error.message}`);
          }
        }
      };
      const writers = Array.from({ length: 4 }, () => writer());
      await until(() => created.size >= 20);

      proxy.cut();
      const cutAt = n;
      await until(() => n > cutAt + 20);
      const health = await fetch(`${url}/health`);
      expect({ status: health.status, body: await health.json() }).toEqual({
        status: 503,
        body: { status: 'unavailable', service: 'tickets', database: 'postgres' },
      });
      const listing = await fetch(`${url}/api/mcp/v1/tickets`, { headers: { authorization: `Bearer ${board.token}` } });
      expect({ status: listing.status, retryAfter: listing.headers.get('retry-after'), body: await listing.json() }).toEqual({
        status: 503,
        retryAfter: '5',
        body: { error: { code: 'unavailable', message: 'The database is unavailable; retry shortly.' } },
      });

      // /metrics still answers, with the outage counted.
      const metrics = await fetch(`${url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^database_unavailable_total{fault="unreachable"} [1-9]\d*$/m);

      proxy.restore();
      await until(async () => (await fetch(`${url}/health`)).status === 200);
      const before = created.size;
      await until(() => created.size >= before + 10);
      writing = false;
      await Promise.all(writers);

      expect(new Set(refused)).toEqual(new Set(['503 unavailable The database is unavailable; retry shortly.']));
      // Every ticket acknowledged is on the board (read through the instance that never lost its database).
      const rows = await board.app.ticketsDb.db.selectFrom('tickets').select('title').execute();
      const titles = new Set(rows.map((row) => row.title));
      expect([...created].filter((title) => !titles.has(title))).toEqual([]);

      // The LISTEN connection came back by itself: a change made through the other instance reaches this instance's stream.
      const after = await restCaller(board.url, board.token)('create_ticket', { title: 'after the outage' });
      const event = await stream.waitFor((e) => e.event === 'change' && e.data.key === after.key, 10_000);
      expect(event.data).toMatchObject({ kind: 'ticket', action: 'created', key: after.key });
      stream.close();
      console.log(`tickets outage: ${n} writes, ${created.size} acknowledged and all stored, ${refused.length} answered 503`);
    } finally {
      app.server.closeAllConnections();
      await app.close();
      await proxy.close();
      await board.close();
    }
  });
});

describe.skipIf(!postgres)('the ticket board with REDIS_URL set while Redis is down', () => {
  it('starts, serves, and carries changes between instances by the safety poll; Redis used again once it is back', async () => {
    const redis = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
    const proxy = await startFaultProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    proxy.cut();
    const board = await startBoard('postgres', { key: 'NORED', env: { REDIS_URL: proxy.rewrite(redis.toString()), TICKETS_EVENTS_POLL_MS: '200' } });
    const second = await buildApp(loadConfig(board.env));
    try {
      await second.listen({ host: '127.0.0.1', port: 0 });
      const secondUrl = `http://127.0.0.1:${(second.server.address() as AddressInfo).port}`;
      expect((await fetch(`${board.url}/health`)).status).toBe(200);
      const stream = await openEventStream(`${secondUrl}/api/projects/NORED/events`, { authorization: `Bearer ${board.token}` });
      await stream.waitFor((event) => event.event === 'ready');
      const created = await restCaller(board.url, board.token)('create_ticket', { title: 'while Redis is down' });
      expect((await stream.waitFor((e) => e.event === 'change' && e.data.key === created.key, 10_000)).data.action).toBe('created');
      proxy.restore();
      const again = await restCaller(board.url, board.token)('create_ticket', { title: 'Redis back' });
      expect((await stream.waitFor((e) => e.event === 'change' && e.data.key === again.key, 10_000)).data.action).toBe('created');
      stream.close();
    } finally {
      second.server.closeAllConnections();
      await second.close();
      await board.close();
      await proxy.close();
    }
  });
});
