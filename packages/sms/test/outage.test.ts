import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startFaultProxy } from '@switchboard/core/testing';
import { eventually, startService } from './helpers.ts';

const postgres = process.env.TEST_DATABASE_URL;

/** One webhook of `size` received messages, each body naming the webhook. */
function webhook(n: number, size: number) {
  return {
    events: Array.from({ length: size }, (_, i) => ({
      event: 'sms.received',
      message: { from: '+15550001111', to: '+15559990000', body: `hook ${n} part ${i}` },
    })),
  };
}

describe.skipIf(!postgres)('SMS during a PostgreSQL outage', () => {
  it('answers 503 with Retry-After while the database is cut, stores every acknowledged webhook whole, and recovers by itself', async () => {
    const target = new URL(postgres!);
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const service = await startService('postgres', { LOG_LEVEL: 'silent' });
    try {
      const app = await service.rebuild({ DATABASE_URL: proxy.rewrite(service.env.DATABASE_URL), LOG_LEVEL: 'silent' });
      const outcomes = new Map<number, number>();
      const bodies: Array<{ status: number; retryAfter: string | undefined; body: unknown }> = [];
      let n = 0;
      let sending = true;
      const sender = async () => {
        while (sending) {
          const id = n++;
          const response = await app.inject({ method: 'POST', url: '/webhook', headers: { 'x-secret-key': service.key }, payload: webhook(id, 3) });
          outcomes.set(id, response.statusCode);
          if (response.statusCode !== 200)
            bodies.push({ status: response.statusCode, retryAfter: response.headers['retry-after'] as string | undefined, body: response.json() });
        }
      };
      const senders = Array.from({ length: 8 }, () => sender());
      await eventually(async () => [...outcomes.values()].filter((status) => status === 200).length >= 50);

      proxy.cut();
      const cutAt = n;
      await eventually(async () => n > cutAt + 40);
      const health = await app.inject({ method: 'GET', url: '/health' });
      expect({ status: health.statusCode, body: health.json() }).toEqual({
        status: 503,
        body: { status: 'unavailable', version: '1.0', database: 'unavailable' },
      });
      const listing = await app.inject({ method: 'GET', url: `/messages/acme/${service.key}` });
      expect({ status: listing.statusCode, retryAfter: listing.headers['retry-after'], body: listing.json() }).toEqual({
        status: 503,
        retryAfter: '5',
        body: { detail: 'The database is unavailable; retry shortly.' },
      });

      // /metrics still answers, with the outage counted.
      const metrics = await app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.statusCode).toBe(200);
      expect(metrics.body).toMatch(/^database_unavailable_total{fault="unreachable"} [1-9]\d*$/m);

      proxy.restore();
      await eventually(async () => (await app.inject({ method: 'GET', url: '/health' })).statusCode === 200);
      const afterAt = n;
      await eventually(async () => [...outcomes.entries()].filter(([id, status]) => id > afterAt && status === 200).length >= 20);
      sending = false;
      await Promise.all(senders);

      expect(new Set(bodies.map((body) => JSON.stringify(body)))).toEqual(
        new Set([JSON.stringify({ status: 503, retryAfter: '5', body: { detail: 'The database is unavailable; retry shortly.' } })]),
      );
      // Every webhook answered 200 is stored whole; one answered 503 is stored whole (its commit went through
      // before the connection broke) or not at all.
      const rows = await service.context.database.db.selectFrom('messages').select('body').execute();
      const parts = new Map<number, number>();
      for (const { body } of rows) {
        const id = Number(/^hook (\d+) part \d$/.exec(body as string)![1]);
        parts.set(id, (parts.get(id) ?? 0) + 1);
      }
      const acknowledged = [...outcomes].filter(([, status]) => status === 200).map(([id]) => id);
      const refused = [...outcomes].filter(([, status]) => status === 503).map(([id]) => id);
      expect(acknowledged.filter((id) => parts.get(id) !== 3)).toEqual([]);
      expect(refused.filter((id) => parts.has(id) && parts.get(id) !== 3)).toEqual([]);
      expect(refused.length).toBeGreaterThan(0);
      expect(rows.length).toBe([...parts.values()].reduce((a, b) => a + b, 0));
      console.log(
        `SMS outage: ${outcomes.size} webhooks, ${acknowledged.length} acknowledged and all stored, ${refused.length} answered 503 (${refused.filter((id) => parts.has(id)).length} of them committed just before the cut)`,
      );
    } finally {
      await proxy.close();
      await service.close();
    }
  });
});

describe('SMS on a SQLite DATA_DIR that cannot be written', () => {
  it('answers writes 503 with a clear message and a log line, and keeps answering reads', async () => {
    const service = await startService('sqlite', { LOG_LEVEL: 'warn' });
    try {
      const db = service.context.database.db;
      const stored = await service.app.inject({ method: 'POST', url: '/webhook', headers: { 'x-secret-key': service.key }, payload: webhook(1, 1) });
      expect(stored.statusCode).toBe(200);
      const write = () => service.app.inject({ method: 'POST', url: '/webhook', headers: { 'x-secret-key': service.key }, payload: webhook(2, 50) });
      const read = async () => {
        const response = await service.app.inject({ method: 'GET', url: `/messages/acme/${service.key}` });
        return { status: response.statusCode, bodies: response.json().messages.map((m: { body: string }) => m.body) };
      };

      // Disk full: the file may not grow by a page.
      const [{ page_count }] = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows;
      await sql.raw(`pragma max_page_count = ${page_count}`).execute(db);
      const full = await write();
      expect({ status: full.statusCode, retryAfter: full.headers['retry-after'], body: full.json() }).toEqual({
        status: 503,
        retryAfter: '5',
        body: { detail: 'The database cannot store anything more: its disk is full. Reads still work; retry writes later.' },
      });
      expect(await read()).toEqual({ status: 200, bodies: ['hook 1 part 0'] });
      await sql.raw('pragma max_page_count = 1073741823').execute(db);

      // Read-only: every write is refused.
      await sql`pragma query_only = on`.execute(db);
      const readOnly = await write();
      expect({ status: readOnly.statusCode, retryAfter: readOnly.headers['retry-after'], body: readOnly.json() }).toEqual({
        status: 503,
        retryAfter: '5',
        body: { detail: 'The database is read-only (DATA_DIR cannot be written). Reads still work; retry writes later.' },
      });
      expect(await read()).toEqual({ status: 200, bodies: ['hook 1 part 0'] });
      const logged = service.logs.map((line) => JSON.parse(line)).filter((line) => line.msg === 'database unavailable; answered 503');
      expect(logged.map((line) => [line.level, line.fault, line.err.code])).toEqual([
        [40, 'disk_full', 'SQLITE_FULL'],
        [40, 'read_only', 'SQLITE_READONLY'],
      ]);

      await sql`pragma query_only = off`.execute(db);
      expect((await write()).statusCode).toBe(200);
    } finally {
      await service.close();
    }
  });
});
