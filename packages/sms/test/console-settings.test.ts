import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { consoleCall, signedInUser, type SignedIn } from './console-helpers.ts';
import { startFakeGateway, startService, type FakeGateway, type TestService } from './helpers.ts';

describe.each(dialectsUnderTest())('the console API on %s: gateway, keys and SIMs', (dialect) => {
  let service: TestService;
  let gateway: FakeGateway;
  let member: SignedIn;
  const base = '/api/orgs/acme';

  beforeAll(async () => {
    service = await startService(dialect);
    gateway = await startFakeGateway();
    member = await signedInUser(service, 'member@example.com', { memberOf: ['acme'] });
  });
  afterAll(async () => {
    await gateway?.close();
    await service?.close();
  });

  it('shows an organization without a gateway as driver none, with the webhook URL to give a gateway', async () => {
    const answer = await consoleCall(service, member.cookie, `${base}/gateway`);
    expect(answer).toEqual({ status: 200, body: { driver: 'none', drivers: [], webhook_url: 'http://localhost:80/webhook' } });
  });

  it('refuses a gateway without a known driver, with a bad URL, or missing what the driver needs (422)', async () => {
    const bad = await consoleCall(service, member.cookie, `${base}/gateway`, { method: 'PUT', body: { driver: 'carrier-pigeon', url: 'ftp://x' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((issue: { type: string; loc: string[]; msg: string }) => [issue.type, issue.loc.join('.'), issue.msg])).toEqual([
      ['enum', 'body.driver', "Input should be 'android', 'httpsms', 'twilio', 'webhook' or 'none'"],
      ['value_error', 'body.url', "Value error, 'url' must be an http:// or https:// URL"],
    ]);
    const incomplete = await consoleCall(service, member.cookie, `${base}/gateway`, { method: 'PUT', body: { driver: 'android', url: gateway.url } });
    expect(incomplete.body.detail.map((issue: { loc: string[] }) => issue.loc[1])).toEqual(['username', 'password']);
    expect((await consoleCall(service, member.cookie, `${base}/gateway`, { method: 'PUT', body: 'not json' })).status).toBe(422);
  });

  it('sets a driver with write-only credentials: shown as set, never returned, kept when left empty, removed with null', async () => {
    const set = await consoleCall(service, member.cookie, `${base}/gateway`, {
      method: 'PUT',
      body: { driver: 'android', url: gateway.url, username: 'sms', password: 'pa55word-secret', signing_key: 'sign-secret' },
    });
    expect(set.status).toBe(200);
    expect(set.body.driver).toBe('android');
    expect(set.body.drivers).toEqual([
      {
        driver: 'android',
        settings: { url: gateway.url, username: 'sms', account_sid: null, from: null },
        secrets: { password: true, api_key: false, auth_token: false, signing_key: true },
        updated_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(set.body)).not.toMatch(/pa55word|sign-secret/);
    const kept = await consoleCall(service, member.cookie, `${base}/gateway`, {
      method: 'PUT',
      body: { driver: 'android', url: gateway.url, username: 'sms2', password: '', signing_key: null },
    });
    expect(kept.body.drivers[0]).toMatchObject({ settings: { username: 'sms2' }, secrets: { password: true, signing_key: false } });
    expect(await service.context.orgs.gatewaySettings('acme', 'android')).toEqual({ url: gateway.url, username: 'sms2', password: 'pa55word-secret' });
    // Nothing of the credentials reached the log.
    expect(service.logs.join('\n')).not.toContain('pa55word-secret');
  });

  it("tests the sending driver: one message to the number given, and the gateway's answer, or why it failed", async () => {
    gateway.respond(() => ({ status: 202, body: { id: 'gw-1', state: 'Pending' } }));
    const ok = await consoleCall(service, member.cookie, `${base}/gateway/test`, { method: 'POST', body: { to: '+1 555 000 1234' } });
    expect(ok).toEqual({ status: 200, body: { ok: true, driver: 'android', external_id: 'gw-1', answer: '{"id":"gw-1","state":"Pending"}' } });
    const request = gateway.requests.at(-1)!;
    expect(request.url).toBe('/message');
    expect(JSON.parse(request.body)).toMatchObject({
      phoneNumbers: ['+15550001234'],
      textMessage: { text: 'Test message from Switchboard: your gateway works.' },
    });
    gateway.respond(() => ({ status: 401, body: { message: 'bad credentials' } }));
    const refused = await consoleCall(service, member.cookie, `${base}/gateway/test`, { method: 'POST', body: { to: '+15550001234', body: 'Ping' } });
    expect(refused).toEqual({
      status: 200,
      body: { ok: false, driver: 'android', external_id: null, answer: 'gateway answered 401: {"message":"bad credentials"}' },
    });
    // Nothing was stored: a test is not a message.
    expect((await consoleCall(service, member.cookie, '/messages/acme')).body.count).toBe(0);
    expect((await consoleCall(service, member.cookie, `${base}/gateway/test`, { method: 'POST', body: { to: 'nobody' } })).status).toBe(422);
    await consoleCall(service, member.cookie, `${base}/gateway`, { method: 'PUT', body: { driver: 'none' } });
    expect((await consoleCall(service, member.cookie, `${base}/gateway/test`, { method: 'POST', body: { to: '+15550001234' } })).body).toEqual({
      ok: false,
      driver: 'none',
      external_id: null,
      answer: 'No gateway driver is set: choose one and save it before testing.',
    });
    // Switching drivers keeps the others' settings (the Android signing key keeps checking Android webhooks).
    expect((await consoleCall(service, member.cookie, `${base}/gateway`)).body).toMatchObject({ driver: 'none', drivers: [{ driver: 'android' }] });
  });

  it('creates a key shown once, lists keys without secrets, and revokes one so that it fails at once', async () => {
    expect((await consoleCall(service, member.cookie, `${base}/keys`, { method: 'POST', body: { name: '' } })).body.detail[0]).toMatchObject({
      type: 'string_too_short',
      loc: ['body', 'name'],
    });
    const created = await consoleCall(service, member.cookie, `${base}/keys`, { method: 'POST', body: { name: 'Android phone' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ key_id: expect.any(Number), name: 'Android phone', secret_key: expect.stringMatching(/^sms_[A-Za-z0-9_-]{43}$/) });
    const key = created.body.secret_key as string;
    const listed = await consoleCall(service, member.cookie, `${base}/keys`);
    expect(listed.body.keys.map((k: { name: string; revoked_at: string | null }) => [k.name, k.revoked_at])).toEqual([
      ['default', null],
      ['Android phone', null],
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(service.logs.join('\n')).not.toContain(key);
    expect((await service.app.inject({ method: 'GET', url: '/messages/acme', headers: { 'x-secret-key': key } })).statusCode).toBe(200);
    // A key manages no keys: that needs a signed-in user (403).
    const byKey = await service.app.inject({ method: 'GET', url: `${base}/keys`, headers: { 'x-secret-key': key } });
    expect(byKey.statusCode).toBe(403);
    expect(await consoleCall(service, member.cookie, `${base}/keys/${created.body.key_id}`, { method: 'DELETE' })).toEqual({
      status: 200,
      body: { revoked: true },
    });
    expect((await service.app.inject({ method: 'GET', url: '/messages/acme', headers: { 'x-secret-key': key } })).statusCode).toBe(401);
    expect((await consoleCall(service, member.cookie, `${base}/keys/${created.body.key_id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await consoleCall(service, member.cookie, `${base}/keys/abc`, { method: 'DELETE' })).status).toBe(422);
  });

  it("sets a SIM's label and phone number, clears them with null, and refuses a number that is not one", async () => {
    const set = await consoleCall(service, member.cookie, `${base}/sims/sim1`, {
      method: 'PATCH',
      body: { label: 'Support line', phone_number: '+1 (555) 222-3333' },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ sim: 'sim1', label: 'Support line', phone_number: '+15552223333' });
    const cleared = await consoleCall(service, member.cookie, `${base}/sims/sim1`, { method: 'PATCH', body: { label: null } });
    expect(cleared.body).toMatchObject({ label: null, phone_number: '+15552223333' });
    const bad = await consoleCall(service, member.cookie, `${base}/sims/sim1`, { method: 'PATCH', body: { phone_number: 'call me' } });
    expect(bad.body.detail).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'phone_number'],
        msg: "Value error, 'phone_number' must be a phone number: '+' followed by 3 to 15 digits (spaces, dashes and parentheses are ignored)",
        input: 'call me',
        ctx: { error: {} },
      },
    ]);
    expect((await consoleCall(service, member.cookie, `${base}/sims`)).body.sims).toMatchObject([{ sim: 'sim1', phone_number: '+15552223333' }]);
  });
});
