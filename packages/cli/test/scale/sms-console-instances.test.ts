import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, listen, type App } from '@switchboard/core';
import { createTestDatabase, openEventStream, type EventStream, type TestDatabase } from '@switchboard/core/testing';
import { buildApp, loadConfig, smsContext } from '@switchboard/sms';
import { NGINX, startNginx, type RunningNginx } from './nginx.ts';

const postgres = process.env.TEST_DATABASE_URL;

describe.skipIf(!postgres || !NGINX)('the SMS console on two instances behind nginx, one PostgreSQL', () => {
  let database: TestDatabase;
  let nginx: RunningNginx;
  let base = '';
  let cookie = '';
  let key = '';
  const apps: App[] = [];
  const instanceUrls: string[] = [];
  const streams: EventStream[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const env = { ...database.env, LOG_LEVEL: 'warn', SMS_WORKER_INTERVAL_MS: '0', SMS_EVENTS_POLL_MS: '60000', TRUST_PROXY: '127.0.0.1' };
    const urls: string[] = [];
    for (let n = 0; n < 2; n++) {
      const app = await buildApp(loadConfig(env), { logger: createLogger({ service: 'sms', level: 'warn' }) });
      apps.push(app);
      urls.push(await listen(app, '127.0.0.1', 0));
      instanceUrls.push(urls[n]);
    }
    const context = smsContext(apps[0]);
    key = (await context.orgs.createOrganization('acme', 'Acme', new Date())).secretKey;
    const { user } = await context.web.users.create({ email: 'ops@example.com', password: 'ops password 123' });
    await context.web.memberships.add('sms', 'acme', user.id);
    nginx = await startNginx({ sms: urls.map((url) => url.replace('http://', '')) });
    base = nginx.urls.sms!;
    const signedIn = await fetch(`${base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: 'ops@example.com', password: 'ops password 123' }),
    });
    expect(signedIn.status).toBe(200);
    cookie = /sb_session=[^;]+/.exec(signedIn.headers.get('set-cookie') ?? '')![0];
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await nginx?.close();
    for (const app of apps) {
      app.server.closeAllConnections();
      await app.close();
    }
    await database?.cleanup();
  });

  it('shows on a console every message a webhook stores, whichever instance serves the page and the webhook, within a second', async () => {
    const stream = await openEventStream(`${base}/api/orgs/acme/events`, { cookie });
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.waitFor((event) => event.event === 'ready');
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const body = `through nginx ${i}`;
      // nginx takes turns: half of these reach the instance that does not serve the stream.
      const answer = await fetch(`${base}/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-secret-key': key },
        body: JSON.stringify({ event: 'sms.received', message: { from: `+1555000${String(i % 3).padStart(4, '0')}`, to: '+15550009999', body } }),
      });
      const answered = performance.now();
      expect(answer.status).toBe(200);
      const shown = await stream.waitFor((event) => event.event === 'messages' && event.data.messages.some((m: { body: string }) => m.body === body), 3000);
      latencies.push(shown.at - answered);
    }
    expect(Math.max(...latencies)).toBeLessThan(1000);
    // Both instances took webhooks (their own request counters say so).
    for (const url of instanceUrls) {
      const metrics = await (await fetch(`${url}/metrics`)).text();
      const served = /http_requests_total\{[^}]*route="\/webhook"[^}]*\} (\d+)/.exec(metrics);
      expect(Number(served?.[1] ?? 0)).toBeGreaterThan(0);
    }
    const seqs = stream.events.filter((event) => event.event === 'messages').map((event) => event.data.seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('reads the same conversations and unread counts through either instance, and sends with the session and the Origin of the proxy', async () => {
    const first = await (await fetch(`${base}/api/orgs/acme/conversations`, { headers: { cookie } })).json();
    const second = await (await fetch(`${base}/api/orgs/acme/conversations`, { headers: { cookie } })).json();
    expect(first.conversations.map((c: { peer: string; unread: number }) => [c.peer, c.unread])).toEqual(
      second.conversations.map((c: { peer: string; unread: number }) => [c.peer, c.unread]),
    );
    expect(first.conversations.reduce((sum: number, c: { unread: number }) => sum + c.unread, 0)).toBe(20);
    const sent = await fetch(`${base}/send/acme`, {
      method: 'POST',
      headers: { cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ to: '+15550000000', body: 'from the console' }),
    });
    expect(sent.status).toBe(200);
    expect(
      (
        await fetch(`${base}/send/acme`, {
          method: 'POST',
          headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
          body: '{"to":"+15550000000","body":"x"}',
        })
      ).status,
    ).toBe(403);
  });
});
