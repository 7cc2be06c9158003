import { describe, expect, it } from 'vitest';
import type { App } from '@switchboard/core';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startService } from './helpers.ts';

const WRITERS = 4;
const READERS = 3;
const BATCHES_PER_WRITER = 40;

describe.each(dialectsUnderTest())('since_id under concurrent writers on %s', (dialect) => {
  it('pollers passing next_since_id back see every message exactly once, in order', async () => {
    const service = await startService(dialect, { LOG_LEVEL: 'warn' });
    try {
      // PostgreSQL: every writer is its own instance with its own connection pool, as behind a load balancer.
      // SQLite: one instance (its deployment model), many requests in flight.
      const writerApps: App[] = [];
      for (let i = 0; i < WRITERS; i++) writerApps.push(dialect === 'postgres' ? await service.rebuild({ LOG_LEVEL: 'warn' }) : service.app);

      const written: number[] = [];
      let writing = true;
      const writer = async (app: App, index: number) => {
        for (let batch = 0; batch < BATCHES_PER_WRITER; batch++) {
          // Several SIMs per batch: each is one more statement between drawing the ids and the commit,
          // which widens the window in which a careless design would let a poller skip an id.
          const size = 1 + ((index + batch) % 5);
          const events = Array.from({ length: size }, (_, n) => ({
            event: 'sms.received',
            message: { from: `+1555000${index}`, to: '+15559990000', body: `w${index}-b${batch}-${n}`, sim: `sim${index}-${n}` },
          }));
          const response = await app.inject({ method: 'POST', url: '/webhook', headers: { 'x-secret-key': service.key }, payload: { events } });
          expect(response.statusCode).toBe(200);
          written.push(...response.json().stored);
        }
      };

      const reader = async () => {
        const seen: number[] = [];
        let sinceId = 0;
        const poll = async () => {
          const response = await service.app.inject({ method: 'GET', url: `/messages/acme/${service.key}?limit=5&since_id=${sinceId}` });
          const page = response.json();
          for (const message of page.messages) seen.push(message.id);
          sinceId = page.next_since_id;
          return page.has_more as boolean;
        };
        while (writing) {
          await poll();
          await new Promise((resolve) => setImmediate(resolve));
        }
        while (await poll());
        return seen;
      };

      const readers = Array.from({ length: READERS }, () => reader());
      await Promise.all(writerApps.map((app, index) => writer(app, index)));
      writing = false;
      const expected = [...written].sort((a, b) => a - b);
      expect(written.length).toBeGreaterThan(WRITERS * BATCHES_PER_WRITER);
      for (const seen of await Promise.all(readers)) expect(seen).toEqual(expected);
    } finally {
      await service.close();
    }
  });
});
