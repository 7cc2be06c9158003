import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { NO_DRIVER_WARNING } from '../src/http/send-routes.ts';
import { bearer, eventually, startFakeGateway, startService, type FakeGateway, type TestService } from './helpers.ts';

const LATER = () => new Date(Date.now() + 3_600_000);

describe.each(dialectsUnderTest())('POST /send on %s', (dialect) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(dialect, { SMS_SEND_RATE_LIMIT: '5/d' });
  });
  afterAll(() => service.close());

  const send = (payload: unknown, headers: Record<string, string> = {}, org = 'acme', key = service.key) =>
    service.app.inject({ method: 'POST', url: `/send/${org}`, headers: bearer(key, headers), payload: payload as object });

  it('answers the queued message with segments, and a warning while no driver is set', async () => {
    const response = await send({ to: '+44 (20) 7946-0958', body: 'ж'.repeat(71), sim: 'sim1' }, { 'x-unused': '1' });
    expect(response.statusCode).toBe(200);
    const message = response.json();
    expect(message).toMatchObject({
      org_id: 'acme',
      direction: 'outbound',
      sim: 'sim1',
      to: '+442079460958',
      body: 'ж'.repeat(71),
      status: 'queued',
      segments: 2,
      gateway: null,
      external_id: null,
      error: null,
      received_at: null,
      sent_at: null,
      delivered_at: null,
      warning: NO_DRIVER_WARNING,
    });
    expect(await service.context.outbox.depth()).toBe(1);
  });

  it('returns the first message for a repeated Idempotency-Key and queues nothing new', async () => {
    const first = await send({ to: '+15551234567', body: 'once' }, { 'idempotency-key': 'order-1' });
    const again = await send({ to: '+15551234567', body: 'once' }, { 'idempotency-key': 'order-1' });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    const other = await send({ to: '+15551234567', body: 'once' }, { 'idempotency-key': 'order-2' });
    expect(other.json().id).not.toBe(first.json().id);
    const outbound = (await service.app.inject({ method: 'GET', url: `/messages/acme/${service.key}?direction=outbound` })).json();
    expect(outbound.messages.filter((m: { body: string }) => m.body === 'once')).toHaveLength(2);
  });

  it('limits sends per organization with 429, Retry-After and the documented body', async () => {
    // Five per window (a day, so the test never straddles a window): four were used above.
    expect((await send({ to: '+15551234567', body: 'x' })).statusCode).toBe(200);
    const limited = await send({ to: '+15551234567', body: 'x' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ detail: 'Rate limit exceeded' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another organization has its own budget.
    const other = await service.context.orgs.createOrganization('other', undefined, new Date());
    expect((await send({ to: '+15551234567', body: 'x' }, {}, 'other', other.secretKey)).statusCode).toBe(200);
  });
});

describe.each(dialectsUnderTest())('outbox drivers on %s', (dialect) => {
  let service: TestService;
  let gateway: FakeGateway;
  beforeEach(async () => {
    service = await startService(dialect, { SMS_SEND_RETRY_BASE_MS: '30000', SMS_SEND_MAX_ATTEMPTS: '3' });
    gateway = await startFakeGateway();
  });
  afterEach(async () => {
    await service.close();
    await gateway.close();
  });

  const send = async (payload: Record<string, unknown>) => {
    const response = await service.app.inject({ method: 'POST', url: '/send/acme', headers: bearer(service.key), payload });
    expect(response.statusCode).toBe(200);
    return response.json() as { id: number; warning?: string; gateway: string | null };
  };
  const message = async (id: number) => (await service.context.messages.get('acme', id))!;
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  it('android: POST {url}/message with basic auth, textMessage, phoneNumbers and simNumber', async () => {
    await service.context.orgs.setGateway('acme', 'android', { url: `${gateway.url}/`, username: 'sms', password: 'pa55' }, new Date());
    gateway.respond(() => ({ status: 202, body: { id: 'and-42', state: 'Pending', recipients: [{ phoneNumber: '+15551234567', state: 'Pending' }] } }));
    const queued = await send({ to: '+15551234567', body: 'Hello Android', sim: 'sim2' });
    expect(queued.warning).toBeUndefined();
    expect(queued.gateway).toBe('android');
    expect(await service.context.worker.runOnce()).toBe(1);
    expect(gateway.requests).toHaveLength(1);
    const [request] = gateway.requests;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/message');
    expect(request.headers.authorization).toBe(basic('sms', 'pa55'));
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      textMessage: { text: 'Hello Android' },
      phoneNumbers: ['+15551234567'],
      withDeliveryReport: true,
      simNumber: 2,
    });
    const sent = await message(queued.id);
    expect(sent).toMatchObject({ status: 'sent', external_id: 'and-42', gateway: 'android', error: null });
    expect(sent.sent_at).not.toBeNull();
    expect(await service.context.outbox.depth()).toBe(0);
  });

  it('httpsms: POST /v1/messages/send with x-api-key and {from, to, content}', async () => {
    await service.context.orgs.setGateway('acme', 'httpsms', { url: gateway.url, api_key: 'hs-key', from: '+15550009999' }, new Date());
    gateway.respond(() => ({ status: 200, body: { data: { id: 'hs-msg-1', status: 'pending' }, message: 'message added to queue', status: 'success' } }));
    const queued = await send({ to: '+15551234567', body: 'Hello httpSMS' });
    await service.context.worker.runOnce();
    const [request] = gateway.requests;
    expect(request.url).toBe('/v1/messages/send');
    expect(request.headers['x-api-key']).toBe('hs-key');
    expect(JSON.parse(request.body)).toEqual({ from: '+15550009999', to: '+15551234567', content: 'Hello httpSMS' });
    expect(await message(queued.id)).toMatchObject({ status: 'sent', external_id: 'hs-msg-1', from: '+15550009999' });
  });

  it('twilio: POST /2010-04-01/Accounts/{sid}/Messages.json, form To/From/Body, basic auth sid:token', async () => {
    await service.context.orgs.setGateway('acme', 'twilio', { url: gateway.url, account_sid: 'AC123', auth_token: 'tok', from: '+15557654321' }, new Date());
    gateway.respond(() => ({ status: 201, body: { sid: 'SM999', status: 'queued' } }));
    const queued = await send({ to: '+15551234567', body: 'Hello & Twilio' });
    await service.context.worker.runOnce();
    const [request] = gateway.requests;
    expect(request.url).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(request.headers.authorization).toBe(basic('AC123', 'tok'));
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ To: '+15551234567', From: '+15557654321', Body: 'Hello & Twilio' });
    expect(await message(queued.id)).toMatchObject({ status: 'sent', external_id: 'SM999' });
  });

  it('webhook: JSON message record, signed with X-Timestamp and X-Signature', async () => {
    await service.context.orgs.setGateway('acme', 'webhook', { url: `${gateway.url}/hook?x=1`, signing_key: 'out-key' }, new Date());
    const queued = await send({ to: '+15551234567', body: 'Hello webhook' });
    await service.context.worker.runOnce();
    const [request] = gateway.requests;
    expect(request.url).toBe('/hook?x=1');
    expect(JSON.parse(request.body)).toMatchObject({
      id: queued.id,
      org_id: 'acme',
      direction: 'outbound',
      to: '+15551234567',
      body: 'Hello webhook',
      status: 'sending',
    });
    const timestamp = request.headers['x-timestamp'] as string;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(request.headers['x-signature']).toBe(
      createHmac('sha256', 'out-key')
        .update(request.body + timestamp)
        .digest('hex'),
    );
    expect((await message(queued.id)).status).toBe('sent');
  });

  it('none: messages stay queued until a driver is set', async () => {
    const queued = await send({ to: '+15551234567', body: 'wait' });
    expect(queued.warning).toBe(NO_DRIVER_WARNING);
    expect(await service.context.worker.runOnce(LATER())).toBe(0);
    expect((await message(queued.id)).status).toBe('queued');
  });

  it('retries with exponential backoff, then fails with the error after the last attempt', async () => {
    await service.context.orgs.setGateway('acme', 'webhook', { url: gateway.url }, new Date());
    gateway.respond(() => ({ status: 503, body: 'down for maintenance' }));
    const queued = await send({ to: '+15551234567', body: 'retry me' });
    const nextAttempt = async () =>
      Number((await service.context.database.db.selectFrom('outbox').select('next_attempt_at').executeTakeFirstOrThrow()).next_attempt_at);

    const t1 = Date.now();
    await service.context.worker.runOnce();
    const wait1 = (await nextAttempt()) - t1;
    expect(wait1).toBeGreaterThanOrEqual(30_000);
    expect(wait1).toBeLessThan(40_000);
    expect((await message(queued.id)).status).toBe('queued');
    expect(await service.context.worker.runOnce()).toBe(0);

    const t2 = Date.now();
    await service.context.worker.runOnce(new Date(t1 + wait1 + 1));
    const wait2 = (await nextAttempt()) - t2;
    expect(wait2).toBeGreaterThanOrEqual(60_000);
    expect(wait2).toBeLessThan(70_000);

    await service.context.worker.runOnce(LATER());
    expect(gateway.requests).toHaveLength(3);
    const failed = await message(queued.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('gateway answered 503: down for maintenance');
    expect(await service.context.outbox.depth()).toBe(0);
  });

  it('a retry that succeeds ends sent', async () => {
    await service.context.orgs.setGateway('acme', 'webhook', { url: gateway.url }, new Date());
    let calls = 0;
    gateway.respond(() => (++calls === 1 ? { status: 500, body: 'oops' } : { status: 200, body: { external_id: 'w-1' } }));
    const queued = await send({ to: '+15551234567', body: 'second time lucky' });
    await service.context.worker.runOnce();
    await service.context.worker.runOnce(LATER());
    expect(await message(queued.id)).toMatchObject({ status: 'sent', external_id: 'w-1', error: null });
  });

  it('keeps gateway credentials encrypted at rest and out of every answer', async () => {
    await service.context.orgs.setGateway('acme', 'android', { url: gateway.url, username: 'sms', password: 'very-secret-password' }, new Date());
    const row = await service.context.database.db.selectFrom('gateways').select('config').executeTakeFirstOrThrow();
    expect(row.config).not.toContain('very-secret-password');
    expect(row.config).toMatch(/^v1:/);
    const queued = await send({ to: '+15551234567', body: 'x' });
    await service.context.worker.runOnce();
    const answers = [
      JSON.stringify(queued),
      (await service.app.inject({ method: 'GET', url: `/messages/acme/${service.key}` })).body,
      (await service.app.inject({ method: 'GET', url: `/sims/acme/${service.key}` })).body,
    ].join('');
    expect(answers).not.toContain('very-secret-password');
  });
});

describe.each(dialectsUnderTest())('per-SIM pacing on %s', (dialect) => {
  let service: TestService;
  let gateway: FakeGateway;
  beforeAll(async () => {
    service = await startService(dialect, { SMS_SIM_RATE: '2/d' });
    gateway = await startFakeGateway();
    gateway.respond((request) => ({ status: 200, body: { id: `p-${JSON.parse(request.body).textMessage.text}`, state: 'Pending' } }));
  });
  afterAll(async () => {
    await service.close();
    await gateway.close();
  });

  it('queues a burst beyond SMS_SIM_RATE instead of sending it, without spending attempts', async () => {
    await service.context.orgs.setGateway('acme', 'android', { url: gateway.url, username: 'u', password: 'p' }, new Date());
    const ids: number[] = [];
    for (const text of ['1', '2', '3']) {
      const response = await service.app.inject({
        method: 'POST',
        url: '/send/acme',
        headers: bearer(service.key),
        payload: { to: '+15551234567', body: text, sim: 'sim1' },
      });
      ids.push(response.json().id);
    }
    const other = (
      await service.app.inject({ method: 'POST', url: '/send/acme', headers: bearer(service.key), payload: { to: '+15551234567', body: '4', sim: 'sim2' } })
    ).json().id;
    await service.context.worker.runOnce();
    // Attempts run concurrently: which of the three sim1 messages waits is not fixed, only that one does.
    const texts = gateway.requests.map((r) => JSON.parse(r.body).textMessage.text as string);
    expect(texts).toHaveLength(3);
    expect(texts).toContain('4');
    const statuses = await Promise.all(ids.map(async (id) => (await service.context.messages.get('acme', id))!.status));
    expect(statuses.filter((status) => status === 'sent')).toHaveLength(2);
    expect((await service.context.messages.get('acme', other))!.status).toBe('sent');
    const waiting = ids[statuses.indexOf('queued')];
    const row = await service.context.database.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
    expect(Number(row.message_id)).toBe(waiting);
    expect(Number(row.attempts)).toBe(0);
    expect(Number(row.next_attempt_at)).toBeGreaterThan(Date.now() + 60_000);
  });
});

describe.each(dialectsUnderTest())('restart durability on %s', (dialect) => {
  it('keeps every message a webhook answered 200 for', async () => {
    const service = await startService(dialect);
    try {
      const events = Array.from({ length: 20 }, (_, i) => ({ event: 'sms.received', message: { from: '+1555', to: '+1666', body: `durable ${i}` } }));
      const answered = await service.app.inject({ method: 'POST', url: '/webhook', headers: { 'x-secret-key': service.key }, payload: { events } });
      expect(answered.statusCode).toBe(200);
      await service.app.close();
      const restarted = await service.rebuild();
      const page = (await restarted.inject({ method: 'GET', url: `/messages/acme/${service.key}?limit=100` })).json();
      expect(page.messages.map((m: { id: number }) => m.id)).toEqual(answered.json().stored);
    } finally {
      await service.close();
    }
  });

  it('sends messages queued before a restart (driver none, then gateway down)', async () => {
    const service = await startService(dialect, { SMS_SEND_RETRY_BASE_MS: '50' });
    const gateway = await startFakeGateway();
    try {
      const send = (body: string) =>
        service.app.inject({ method: 'POST', url: '/send/acme', headers: bearer(service.key), payload: { to: '+15551234567', body } });
      const first = (await send('queued while no driver')).json().id;
      await service.context.orgs.setGateway('acme', 'webhook', { url: gateway.url }, new Date());
      gateway.respond(() => ({ status: 503, body: 'down' }));
      const second = (await send('queued while the gateway is down')).json().id;
      await service.context.worker.runOnce();
      expect(gateway.requests.length).toBeGreaterThan(0);
      await service.app.close();

      gateway.respond(() => ({ status: 200, body: {} }));
      const restarted = await service.rebuild({ SMS_WORKER_INTERVAL_MS: '20' });
      const { smsContext } = await import('../src/index.ts');
      const context = smsContext(restarted);
      await eventually(async () => {
        const statuses = await Promise.all([first, second].map(async (id) => (await context.messages.get('acme', id))!.status));
        return statuses.every((status) => status === 'sent');
      });
      const bodies = gateway.requests.filter((r) => r.body.includes('queued')).map((r) => JSON.parse(r.body).body);
      expect(bodies).toContain('queued while no driver');
      expect(bodies).toContain('queued while the gateway is down');
    } finally {
      await service.close();
      await gateway.close();
    }
  });
});
