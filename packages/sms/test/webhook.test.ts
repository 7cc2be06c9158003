import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { SignJWT } from 'jose';
import { timestampSignature, twilioSignature } from '../src/domain/signatures.ts';
import { UNRECOGNIZED_WEBHOOK } from '../src/http/webhook-routes.ts';
import { bearer, startService, type TestService } from './helpers.ts';

const OK = (stored: number[], duplicates = 0, updated = 0) => ({ status: 'ok', stored, duplicates, updated });

describe.each(dialectsUnderTest())('POST /webhook on %s', (dialect) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(dialect, { PUBLIC_BASE_URL: 'https://sms.example.com' });
  });
  afterAll(() => service.close());

  const post = (payload: unknown, headers: Record<string, string> = {}, query = `?key=${service.key}`) =>
    service.app.inject({
      method: 'POST',
      url: `/webhook${query}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const message = async (id: number) => (await service.context.messages.get('acme', id))!;

  /** An outbound message as a gateway accepted it, with the gateway's id. */
  async function outbound(externalId: string): Promise<number> {
    const sent = await service.app.inject({ method: 'POST', url: '/send/acme', headers: bearer(service.key), payload: { to: '+15551234567', body: 'hi' } });
    const id = sent.json().id as number;
    await service.context.outbox.markSent({ id, org_id: 'acme' }, { externalId, gateway: 'test' }, new Date('2026-01-01T00:00:00Z'));
    return id;
  }

  describe('native JSON', () => {
    it('stores a single message, authenticated by ?key=, X-Secret-Key or Bearer', async () => {
      const body = { event: 'sms.received', message: { from: '+15550001111', to: '+15552223333', body: 'Hello 👋', sim: 'phone-a', external_id: 'n-1' } };
      const first = await post(body);
      expect(first.statusCode).toBe(200);
      const [id] = first.json().stored;
      expect(first.json()).toEqual(OK([id]));
      expect(await message(id)).toMatchObject({
        direction: 'inbound',
        sim: 'phone-a',
        body: 'Hello 👋',
        gateway: 'native',
        external_id: 'n-1',
        status: 'received',
        segments: 1,
      });
      // Same external_id again: a duplicate.
      expect((await post(body, { 'x-secret-key': service.key }, '')).json()).toEqual(OK([], 1));
      const other = { event: 'sms.received', message: { from: '+1', to: '+2', body: 'x' } };
      expect((await post(other, bearer(service.key), '')).statusCode).toBe(200);
    });

    it('stores a batch in order and counts duplicates inside it', async () => {
      const events = ['a', 'b', 'a', 'c'].map((tag) => ({
        event: 'sms.received',
        message: { from: '+1555', to: '+1666', body: tag, external_id: `batch-${tag}` },
      }));
      const response = await post({ events });
      const result = response.json();
      expect(result.stored).toHaveLength(3);
      expect(result.duplicates).toBe(1);
      expect(result.stored).toEqual([...result.stored].sort((a: number, b: number) => a - b));
      expect((await message(result.stored[2])).body).toBe('c');
    });

    it('stores a batch naming more SIMs than one statement can bind (6,000 SIMs × 11 parameters)', async () => {
      // Its own organization, so that acme's listings stay short for the other tests.
      const { secretKey } = await service.context.orgs.createOrganization('bulk', undefined, new Date());
      const events = Array.from({ length: 6000 }, (_, i) => ({
        event: 'sms.received',
        message: { from: '+1555', to: '+1666', body: `many ${i}`, sim: `sim-${i}` },
      }));
      const response = await post({ events }, {}, `?key=${secretKey}`);
      expect(response.statusCode).toBe(200);
      const { stored } = response.json();
      expect(response.json()).toEqual(OK(stored));
      expect(stored).toHaveLength(6000);
      const sims = (await service.app.inject({ method: 'GET', url: `/sims/bulk/${secretKey}` })).json().sims;
      expect(sims.filter((s: { inbound_count: number }) => s.inbound_count === 1)).toHaveLength(6000);
    });

    it('applies delivery reports by our id and by external_id', async () => {
      const a = await outbound('ext-a');
      const b = await outbound('ext-b');
      expect((await post({ event: 'sms.delivered', id: a })).json()).toEqual(OK([], 0, 1));
      expect(await message(a)).toMatchObject({ status: 'delivered', sent_at: '2026-01-01T00:00:00.000Z' });
      expect((await message(a)).delivered_at).not.toBeNull();
      expect((await post({ event: 'sms.failed', external_id: 'ext-b', error: 'no signal' })).json()).toEqual(OK([], 0, 1));
      expect(await message(b)).toMatchObject({ status: 'failed', error: 'no signal' });
      // A late "sent" never moves a delivered message back.
      expect((await post({ event: 'sms.sent', id: a })).json()).toEqual(OK([], 0, 0));
      expect((await message(a)).status).toBe('delivered');
      // Mixed batch: one message and one report.
      const c = await outbound('ext-c');
      const mixed = await post({
        events: [
          { event: 'sms.received', message: { from: '+1', to: '+2', body: 'm' } },
          { event: 'sms.delivered', external_id: 'ext-c' },
        ],
      });
      expect(mixed.json().stored).toHaveLength(1);
      expect(mixed.json().updated).toBe(1);
      expect((await message(c)).status).toBe('delivered');
    });

    it('answers 400 naming the expected formats for anything else', async () => {
      for (const body of [{ hello: 'world' }, [1, 2], '"text"', { event: 'sms.exploded' }]) {
        const response = await post(body);
        expect(response.statusCode).toBe(400);
        expect(typeof response.json().detail).toBe('string');
      }
      const unknown = await post({ hello: 'world' });
      expect(unknown.json().detail).toMatch(/native JSON.*SMS Gateway for Android.*httpSMS.*Twilio/);
      const incomplete = await post({ event: 'sms.received', message: { from: '+1' } });
      expect(incomplete.statusCode).toBe(400);
      expect(incomplete.json().detail).toBe('Invalid webhook body: body.message.to: expected a string');
      const malformed = await post('{"event": ');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().detail).toMatch(/^Malformed JSON body: Expecting value/);
      const xml = await post('<xml/>', { 'content-type': 'application/xml' });
      expect(xml.statusCode).toBe(400);
      const empty = await service.app.inject({ method: 'POST', url: `/webhook?key=${service.key}` });
      expect(empty.statusCode).toBe(400);
    });

    it('answers 400, not a stack overflow, for JSON nested deeper than Python decodes', async () => {
      const response = await post('['.repeat(100_000));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        detail: `Malformed JSON body: maximum recursion depth exceeded while decoding a JSON array from a unicode string (at character 1000). ${UNRECOGNIZED_WEBHOOK}`,
      });
    });

    it('answers 400 for a NUL character in an identifier or reason (PostgreSQL text cannot hold one), on every database and format; a body may hold one', async () => {
      const refused = (field: string) => ({ detail: `Invalid webhook body: ${field} must not contain the NUL character (U+0000); only a message's text may` });
      const cases: Array<[string, string]> = [
        ['{"event": "sms.received", "message": {"from": "+1\\u0000", "to": "+2", "body": "ab"}}', 'from'],
        ['{"event": "sms.received", "message": {"from": "+1", "to": "+2", "body": "ab", "external_id": "\\u0000"}}', 'event id'],
        ['{"event": "sms.received", "message": {"from": "+1", "to": "+2", "body": "ab", "sim": "sim\\u00001"}}', 'sim'],
        ['{"event": "sms.failed", "external_id": "x", "error": "no\\u0000signal"}', 'error'],
      ];
      for (const [body, field] of cases) {
        const response = await post(body);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(refused(field));
      }
      const form = await service.app.inject({
        method: 'POST',
        url: `/webhook?key=${service.key}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'MessageSid=SM%00&From=%2B1&To=%2B2&Body=x',
      });
      expect(form.statusCode).toBe(400);
      expect(form.json()).toEqual(refused('event id'));
      const body = await post('{"event": "sms.received", "message": {"from": "+1", "to": "+2", "body": "a\\u0000b"}}');
      expect(body.statusCode).toBe(200);
      expect((await message(body.json().stored[0])).body).toBe('a\u0000b');
    });

    it('answers 413 over the body limit', async () => {
      const big = JSON.stringify({ event: 'sms.received', message: { from: '+1', to: '+2', body: 'x'.repeat(1_100_000) } });
      const response = await post(big);
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({ detail: 'Request body is too large' });
    });
  });

  describe('SMS Gateway for Android', () => {
    const received = (id: string, messageId = 'hash-1', text = 'Android is always a good choice.') => ({
      deviceId: 'ffffffffceb0b1db0000018e937c815b',
      event: 'sms:received',
      id,
      payload: { messageId, message: text, phoneNumber: '+79990001234', simNumber: 1, receivedAt: '2024-06-22T15:46:11.000+07:00' },
      webhookId: 'LreFUt-Z3sSq0JufY9uWB',
    });

    it('stores sms:received in UTC with the SIM slot as sim1 and the SIM number as `to`; dedupes on the event id', async () => {
      await service.context.orgs.setSim('acme', 'sim1', { phoneNumber: '+79991112233' }, new Date());
      const first = await post(received('evt-1'));
      expect(first.statusCode).toBe(200);
      const [id] = first.json().stored;
      expect(await message(id)).toMatchObject({
        sim: 'sim1',
        from: '+79990001234',
        to: '+79991112233',
        body: 'Android is always a good choice.',
        received_at: '2024-06-22T08:46:11.000Z',
        gateway: 'android',
        external_id: 'hash-1',
      });
      expect((await post(received('evt-1'))).json()).toEqual(OK([], 1));
      // The app's messageId is a content hash: the same text again under a new event id is a new message.
      expect((await post(received('evt-2'))).json().stored).toHaveLength(1);
      const sims = (await service.app.inject({ method: 'GET', url: `/sims/acme/${service.key}` })).json().sims;
      expect(sims.find((s: { sim: string }) => s.sim === 'sim1')).toMatchObject({ device_id: 'ffffffffceb0b1db0000018e937c815b', slot: 1, inbound_count: 2 });
    });

    it('stores a message whose simNumber no SIM slot column can hold, without a slot (not a 500 on PostgreSQL)', async () => {
      const body = received('evt-big-slot', 'hash-big');
      const response = await post({ ...body, payload: { ...body.payload, simNumber: 1e10 } });
      expect(response.statusCode).toBe(200);
      const [id] = response.json().stored;
      expect(response.json()).toEqual(OK([id]));
      const sims = (await service.app.inject({ method: 'GET', url: `/sims/acme/${service.key}` })).json().sims;
      expect(sims.find((s: { sim: string }) => s.sim === 'sim10000000000')).toMatchObject({ slot: null, inbound_count: 1 });
    });

    it('answers system:ping with 200 and stores nothing', async () => {
      const response = await post({ deviceId: 'd', event: 'system:ping', id: 'ping-1', payload: { health: {} }, webhookId: 'w' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(OK([]));
    });

    it('updates outbound messages from sms:sent, sms:delivered and sms:failed', async () => {
      const a = await outbound('and-a');
      const b = await outbound('and-b');
      const report = (id: string, event: string, payload: Record<string, unknown>) => post({ deviceId: 'd', event, id, payload, webhookId: 'w' });
      expect((await report('r1', 'sms:delivered', { messageId: 'and-a', phoneNumber: '+1', deliveredAt: '2026-01-02T03:04:05.000+02:00' })).json()).toEqual(
        OK([], 0, 1),
      );
      expect(await message(a)).toMatchObject({ status: 'delivered', delivered_at: '2026-01-02T01:04:05.000Z' });
      expect((await report('r2', 'sms:failed', { messageId: 'and-b', phoneNumber: '+1', reason: 'RESULT_ERROR_NO_SERVICE' })).json()).toEqual(OK([], 0, 1));
      expect(await message(b)).toMatchObject({ status: 'failed', error: 'RESULT_ERROR_NO_SERVICE' });
      expect((await report('r2', 'sms:failed', { messageId: 'and-b', phoneNumber: '+1', reason: 'x' })).json()).toEqual(OK([], 1, 0));
    });
  });

  describe('httpSMS', () => {
    const cloudEvent = (id: string, type: string, data: Record<string, unknown>) => ({
      data,
      datacontenttype: 'application/json',
      id,
      source: '/v1/messages/receive',
      specversion: '1.0',
      time: '2023-06-29T03:21:19.524331882Z',
      type,
    });
    const incoming = (id: string) =>
      cloudEvent(id, 'message.phone.received', {
        contact: '+18005550100',
        content: 'This is a test incoming message',
        message_id: '0b0123bb',
        owner: '+18005550199',
        sim: 'SIM1',
        timestamp: '2023-06-29T03:21:19.814Z',
        user_id: 'u',
      });

    it('stores message.phone.received (SIM1 → sim1) and dedupes on the CloudEvent id', async () => {
      const response = await post(incoming('ce-1'), { 'x-event-type': 'message.phone.received' });
      const [id] = response.json().stored;
      expect(await message(id)).toMatchObject({
        sim: 'sim1',
        from: '+18005550100',
        to: '+18005550199',
        body: 'This is a test incoming message',
        gateway: 'httpsms',
        external_id: '0b0123bb',
        received_at: '2023-06-29T03:21:19.814Z',
      });
      expect((await post(incoming('ce-1'))).json()).toEqual(OK([], 1));
    });

    it('updates outbound messages from delivery events', async () => {
      const a = await outbound('hs-a');
      const delivered = cloudEvent('ce-d', 'message.phone.delivered', {
        id: 'hs-a',
        contact: '+1',
        owner: '+2',
        sim: 'SIM1',
        timestamp: '2023-07-17T18:54:22.262Z',
      });
      expect((await post(delivered)).json()).toEqual(OK([], 0, 1));
      expect(await message(a)).toMatchObject({ status: 'delivered', delivered_at: '2023-07-17T18:54:22.262Z' });
    });

    it('verifies the JWT (HS256, exp, nbf) when the organization set a signing key', async () => {
      await service.context.orgs.setGateway('acme', 'httpsms', { api_key: 'k', signing_key: 'httpsms-signing-key' }, new Date());
      await service.context.orgs.setGateway('acme', 'none', {}, new Date());
      const secret = new TextEncoder().encode('httpsms-signing-key');
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime(now + 600)
        .sign(secret);
      const expired = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime(now - 60)
        .sign(secret);
      const early = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setNotBefore(now + 600)
        .sign(secret);
      const forged = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('wrong'));
      expect((await post(incoming('ce-jwt-0'))).statusCode).toBe(401);
      for (const bad of [expired, early, forged]) {
        const response = await post(incoming('ce-jwt-1'), { authorization: `Bearer ${bad}` });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ detail: 'Invalid credentials' });
      }
      const good = await post(incoming('ce-jwt-2'), { authorization: `Bearer ${token}` });
      expect(good.statusCode).toBe(200);
      expect(good.json().stored).toHaveLength(1);
      // The httpSMS key applies to httpSMS requests only: native ones need just the secret key.
      expect((await post({ event: 'sms.received', message: { from: '+1', to: '+2', body: 'n' } })).statusCode).toBe(200);
    });
  });

  describe('Twilio', () => {
    const form = (params: Record<string, string>) => new URLSearchParams(params).toString();
    const inbound = {
      ToCountry: 'US',
      SmsMessageSid: 'SM1',
      NumMedia: '0',
      MessageSid: 'SM1',
      SmsSid: 'SM1',
      AccountSid: 'AC1',
      From: '+15017122661',
      To: '+15558675310',
      Body: 'Ahoy',
      NumSegments: '1',
      SmsStatus: 'received',
      ApiVersion: '2010-04-01',
    };
    const postForm = (params: Record<string, string>, headers: Record<string, string> = {}) =>
      service.app.inject({
        method: 'POST',
        url: `/webhook?key=${service.key}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: form(params),
      });

    it('stores an inbound message and answers empty TwiML', async () => {
      const response = await postForm(inbound);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/xml/);
      expect(response.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
      const page = (await service.app.inject({ method: 'GET', url: `/messages/acme/${service.key}?limit=1000` })).json();
      expect(page.messages.at(-1)).toMatchObject({ from: '+15017122661', to: '+15558675310', body: 'Ahoy', gateway: 'twilio', external_id: 'SM1', sim: null });
      await postForm(inbound);
      const again = (await service.app.inject({ method: 'GET', url: `/messages/acme/${service.key}?limit=1000` })).json();
      expect(again.count).toBe(page.count);
    });

    it('verifies X-Twilio-Signature over the PUBLIC_BASE_URL-aware URL when the auth token is set, and applies status callbacks', async () => {
      await service.context.orgs.setGateway('acme', 'twilio', { account_sid: 'AC1', auth_token: 'twilio-token', from: '+15550000000' }, new Date());
      const params = { ...inbound, MessageSid: 'SM2', SmsSid: 'SM2', Extra: 'unknown params are expected' };
      const url = `https://sms.example.com/webhook?key=${service.key}`;
      const signature = twilioSignature('twilio-token', url, Object.entries(params));
      expect((await postForm(params)).statusCode).toBe(401);
      expect((await postForm(params, { 'x-twilio-signature': 'bm9wZQ==' })).statusCode).toBe(401);
      const wrongUrl = twilioSignature('twilio-token', `http://localhost:80/webhook?key=${service.key}`, Object.entries(params));
      expect((await postForm(params, { 'x-twilio-signature': wrongUrl })).statusCode).toBe(401);
      expect((await postForm(params, { 'x-twilio-signature': signature })).statusCode).toBe(200);

      const a = await outbound('SM-out');
      const callback = { MessageSid: 'SM-out', MessageStatus: 'undelivered', ErrorCode: '30003', AccountSid: 'AC1', From: '+15550000000', To: '+15551234567' };
      const response = await postForm(callback, { 'x-twilio-signature': twilioSignature('twilio-token', url, Object.entries(callback)) });
      expect(response.statusCode).toBe(200);
      expect(await message(a)).toMatchObject({ status: 'failed', error: 'Twilio error 30003 (undelivered)' });
    });
  });
});

describe.each(dialectsUnderTest())('Android webhook signatures on %s', (dialect) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(dialect);
    await service.context.orgs.setGateway(
      'acme',
      'android',
      { url: 'http://phone:8080', username: 'sms', password: 'p', signing_key: 'android-signing' },
      new Date(),
    );
  });
  afterAll(() => service.close());

  const body = (id: string) =>
    JSON.stringify({
      deviceId: 'd',
      event: 'sms:received',
      id,
      payload: { messageId: 'm', message: 'signed', phoneNumber: '+1555', simNumber: 2, receivedAt: '2024-06-22T15:46:11.000+07:00' },
      webhookId: 'w',
    });
  const post = (payload: string, headers: Record<string, string>) =>
    service.app.inject({ method: 'POST', url: `/webhook?key=${service.key}`, headers: { 'content-type': 'application/json', ...headers }, payload });

  it('accepts a valid X-Signature over the raw body and X-Timestamp', async () => {
    const raw = body('s-1');
    const timestamp = String(Math.floor(Date.now() / 1000));
    const response = await post(raw, { 'x-timestamp': timestamp, 'x-signature': timestampSignature('android-signing', raw, timestamp) });
    expect(response.statusCode).toBe(200);
    expect(response.json().stored).toHaveLength(1);
  });

  it('refuses a missing, wrong or stale signature with 401', async () => {
    const raw = body('s-2');
    const now = Math.floor(Date.now() / 1000);
    const stale = String(now - 301);
    const attempts: Array<Record<string, string>> = [
      {},
      { 'x-timestamp': String(now), 'x-signature': timestampSignature('wrong', raw, String(now)) },
      { 'x-timestamp': String(now), 'x-signature': timestampSignature('android-signing', `${raw} `, String(now)) },
      { 'x-timestamp': stale, 'x-signature': timestampSignature('android-signing', raw, stale) },
    ];
    for (const headers of attempts) {
      const response = await post(raw, headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: 'Invalid credentials' });
    }
  });

  it('checks the Android key on Android requests only: native ones need just the secret key', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: `/webhook?key=${service.key}`,
      payload: { event: 'sms.received', message: { from: '+1', to: '+2', body: 'native' } },
    });
    expect(response.statusCode).toBe(200);
  });

  it('still requires the secret key with a valid signature', async () => {
    const raw = body('s-3');
    const timestamp = String(Math.floor(Date.now() / 1000));
    const response = await service.app.inject({
      method: 'POST',
      url: '/webhook',
      headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': timestampSignature('android-signing', raw, timestamp) },
      payload: raw,
    });
    expect(response.statusCode).toBe(401);
  });
});
