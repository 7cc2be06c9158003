import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, startFaultProxy, type FaultProxy, type TestDatabase } from '@switchboard/core/testing';
import { openSmsAdmin } from '@switchboard/sms';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

const postgres = process.env.TEST_DATABASE_URL;

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(!postgres)('an SMS service process whose PostgreSQL connection is cut under webhook load', () => {
  let database: TestDatabase;
  let proxy: FaultProxy;
  let service: ServiceProcess;
  afterAll(async () => {
    await service?.kill();
    await proxy?.close();
    await database?.cleanup();
  });

  it('stays up, answers 503 while cut and 200 again once the database is back, without a restart', async () => {
    database = await createTestDatabase('postgres');
    const admin = await openSmsAdmin({ ...database.env, LOG_LEVEL: 'silent' });
    const key = (await admin.orgs.createOrganization('acme', 'Acme', new Date())).secretKey;
    await admin.close();
    const target = new URL(postgres!);
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    service = await startServiceProcess('sms', { ...database.env, DATABASE_URL: proxy.rewrite(database.env.DATABASE_URL), SMS_WORKER_INTERVAL_MS: '100' });

    const statuses = new Map<number, number>();
    let sending = true;
    let n = 0;
    const sender = async () => {
      while (sending) {
        const response = await fetch(`${service.url}/webhook`, {
          method: 'POST',
          headers: { 'x-secret-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ event: 'sms.received', message: { from: '+15550001111', to: '+15559990000', body: `hook ${n}` } }),
        });
        await response.arrayBuffer();
        statuses.set(n++, response.status);
      }
    };
    const senders = Array.from({ length: 8 }, () => sender());
    await until(() => n > 100);
    for (let round = 0; round < 3; round++) {
      proxy.cut();
      const cutAt = n;
      await until(() => n > cutAt + 30);
      expect((await fetch(`${service.url}/health`)).status).toBe(503);
      proxy.restore();
      await until(async () => (await fetch(`${service.url}/health`)).status === 200);
      const backAt = n;
      await until(() => [...statuses].some(([id, status]) => id > backAt && status === 200));
    }
    sending = false;
    await Promise.all(senders);
    // The process never died (a crash would have failed the requests with connection errors) and answered only 200 or 503.
    expect(new Set(statuses.values())).toEqual(new Set([200, 503]));
    expect(service.output()).not.toMatch(/Unhandled|uncaught/i);
    // The outage is logged as warnings (each 503, each worker tick), never as errors.
    const levels = new Set(
      service
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line).level),
    );
    expect([...levels].filter((level) => level >= 50)).toEqual([]);
    const stillRunning = await Promise.race([service.exited.then(() => false), new Promise((resolve) => setTimeout(() => resolve(true), 100))]);
    expect(stillRunning).toBe(true);
    console.log(
      `sms outage (process): ${n} webhooks across 3 cuts, ${[...statuses.values()].filter((s) => s === 200).length} answered 200, ${[...statuses.values()].filter((s) => s === 503).length} answered 503`,
    );
  }, 60_000);
});
