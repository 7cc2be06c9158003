import { createServer, type Server } from 'node:http';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, listen, type App } from '@switchboard/core';
import { createTestDatabase, type TestDatabase } from '@switchboard/core/testing';
import { buildApp, loadConfig, smsContext } from '@switchboard/sms';
import { NGINX, startNginx, type RunningNginx } from './nginx.ts';

const postgres = process.env.TEST_DATABASE_URL;
const MESSAGES = 1000;

/** A gateway that records the id of every message it is asked to send (the webhook driver posts the message record). */
async function startRecordingGateway(): Promise<{ url: string; ids: number[]; close(): Promise<void> }> {
  const ids: number[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      ids.push(JSON.parse(body).id);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/gateway`,
    ids,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Runs `task` for each item with at most `limit` in flight. */
async function inParallel<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await task(items[next++]);
    }),
  );
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(!postgres || !NGINX)('two SMS instances on one PostgreSQL behind nginx', () => {
  let database: TestDatabase;
  let gateway: Awaited<ReturnType<typeof startRecordingGateway>>;
  let nginx: RunningNginx;
  const apps: App[] = [];
  const instanceUrls: string[] = [];
  const logs: string[][] = [[], []];
  let key = '';

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    gateway = await startRecordingGateway();
    const env = {
      ...database.env,
      LOG_LEVEL: 'info',
      SMS_WORKER_INTERVAL_MS: '50',
      SMS_SEND_RATE_LIMIT: '100000/m',
      // nginx runs on this machine: its address is the one proxy to believe.
      TRUST_PROXY: '127.0.0.1',
    };
    for (const n of [0, 1]) {
      const logger = createLogger({ service: 'sms', level: 'info', destination: { write: (line: string) => void logs[n].push(line) } });
      const app = await buildApp(loadConfig(env), { logger });
      apps.push(app);
      instanceUrls.push(await listen(app, '127.0.0.1', 0));
    }
    const context = smsContext(apps[0]);
    key = (await context.orgs.createOrganization('acme', 'Acme', new Date())).secretKey;
    await context.orgs.setGateway('acme', 'webhook', { url: gateway.url }, new Date());
    nginx = await startNginx({ sms: instanceUrls.map((url) => url.replace('http://', '')) });
  });
  afterAll(async () => {
    await nginx?.close();
    for (const app of apps) await app.close();
    await gateway?.close();
    await database?.cleanup();
  });

  it(`sends each of ${MESSAGES} queued messages exactly once from both workers, applies delivery reports at either instance, and since_id pollers on both see every message once, in order`, async () => {
    const url = nginx.urls.sms!;
    const polling = { on: true };
    const poller = async (base: string) => {
      const seen: number[] = [];
      let sinceId = 0;
      const poll = async () => {
        const response = await fetch(`${base}/messages/acme/${key}?limit=100&since_id=${sinceId}`);
        const page = await response.json();
        for (const message of page.messages) seen.push(message.id);
        sinceId = page.next_since_id;
        return page.has_more as boolean;
      };
      while (polling.on) {
        // A pause between polls once caught up, as a real poller makes (the machine has two cores to share).
        if (!(await poll())) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      while (await poll());
      return seen;
    };
    const pollers = instanceUrls.map((base) => poller(base));

    // The first 100 through nginx's /send (either instance takes each), the rest straight into the outbox: the
    // workers of both instances drain one backlog.
    const queued: number[] = [];
    await inParallel(
      Array.from({ length: 100 }, (_, i) => i),
      8,
      async (i) => {
        const response = await fetch(`${url}/send/acme`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ to: '+15551234567', body: `message ${i}` }),
        });
        expect(response.status).toBe(200);
        queued.push((await response.json()).id);
      },
    );
    const outbox = smsContext(apps[0]).outbox;
    await inParallel(
      Array.from({ length: MESSAGES - 100 }, (_, i) => i + 100),
      8,
      async (i) => {
        const { message } = await outbox.enqueue(
          'acme',
          { to: '+15551234567', body: `message ${i}`, sim: null },
          { idempotencyKey: undefined, from: '', gateway: 'webhook', now: new Date() },
        );
        queued.push(message.id);
      },
    );
    const queuedAt = Date.now();
    await until(() => gateway.ids.length >= MESSAGES);
    await until(async () => (await outbox.depth()) === 0);
    const drainedMs = Date.now() - queuedAt;
    // Each message reached the gateway once: no double send between the two workers, none missed.
    expect([...gateway.ids].sort((a, b) => a - b)).toEqual([...queued].sort((a, b) => a - b));
    // A message's log line may come a moment after its row is marked sent.
    const sentBy = () => logs.map((lines) => lines.filter((line) => line.includes('"msg":"message sent"')).length);
    await until(() => sentBy()[0]! + sentBy()[1]! >= MESSAGES);
    expect(sentBy()[0]! + sentBy()[1]!).toBe(MESSAGES);

    // Delivery reports in batches of 25, round-robined by nginx over both instances.
    const batches = Array.from({ length: MESSAGES / 25 }, (_, b) => queued.slice(b * 25, b * 25 + 25));
    await inParallel(batches, 4, async (ids) => {
      const events = ids.map((id) => ({ event: 'sms.delivered', id }));
      const response = await fetch(`${url}/webhook`, {
        method: 'POST',
        headers: { 'x-secret-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
      });
      expect({ status: response.status, body: await response.json() }).toEqual({ status: 200, body: { status: 'ok', stored: [], duplicates: 0, updated: 25 } });
    });
    const rows = await smsContext(apps[1]).database.db.selectFrom('messages').select(['status']).where('direction', '=', 'outbound').execute();
    expect(rows.length).toBe(MESSAGES);
    expect(rows.every((row) => row.status === 'delivered')).toBe(true);
    const reportsBy = logs.map((lines) => lines.filter((line) => line.includes('"url":"/webhook"')).length);

    polling.on = false;
    const seen = await Promise.all(pollers);
    const ordered = [...queued].sort((a, b) => a - b);
    for (const list of seen) expect(list).toEqual(ordered);
    console.log(
      `sms scale-out: ${MESSAGES} messages, sent by worker A ${sentBy()[0]} / B ${sentBy()[1]} (outbox drained ${drainedMs} ms after the last was queued), delivery reports at A ${reportsBy[0]} / B ${reportsBy[1]}`,
    );
    expect(reportsBy[0]).toBeGreaterThan(0);
    expect(reportsBy[1]).toBeGreaterThan(0);
  }, 120_000);

  it("passes the caller's address on, trusted from nginx only (a forged X-Forwarded-For is not believed)", async () => {
    const { port } = new URL(nginx.urls.sms!);
    const status = await new Promise<number>((resolve, reject) => {
      // From 127.0.0.2 (another loopback address), so the caller differs from nginx's own 127.0.0.1.
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/health',
          localAddress: '127.0.0.2',
          headers: { 'x-forwarded-for': '203.0.113.9', 'x-request-id': 'trust-proxy-check' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    const line = logs
      .flat()
      .map((entry) => JSON.parse(entry))
      .find((entry) => entry.request_id === 'trust-proxy-check' && entry.msg === 'request');
    expect({ ip: line.ip, status: line.status }).toEqual({ ip: '127.0.0.2', status: 200 });
  });

  it("lets a body of BODY_LIMIT bytes through to an instance, and answers a larger one with the service's own 413", async () => {
    const url = nginx.urls.sms!;
    const padded = (size: number) => {
      const base = JSON.stringify({ to: '+15551234567', body: 'x', pad: '' });
      return base.replace('"pad":""', `"pad":"${'y'.repeat(size - base.length)}"`);
    };
    const send = (body: string) =>
      fetch(`${url}/send/acme`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
    const atLimit = await send(padded(1_048_576));
    expect(Buffer.byteLength(padded(1_048_576))).toBe(1_048_576);
    expect({ status: atLimit.status, body: (await atLimit.json()).body }).toEqual({ status: 200, body: 'x' });
    // Many times over: whether nginx met a closed connection while still sending the body (and answered its own
    // 502) depended on timing.
    for (let attempt = 0; attempt < 20; attempt++) {
      const over = await send(padded(1_048_577));
      expect({ status: over.status, body: await over.text() }).toEqual({ status: 413, body: '{"detail":"Request body is too large"}' });
    }
  });
});
