import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { bearer, startService, type TestService } from './helpers.ts';

const MESSAGE_FIELDS = [
  'id',
  'org_id',
  'direction',
  'sim',
  'from',
  'to',
  'body',
  'status',
  'segments',
  'gateway',
  'external_id',
  'error',
  'received_at',
  'sent_at',
  'delivered_at',
  'created_at',
  'updated_at',
];

describe.each(dialectsUnderTest())('listing messages on %s', (dialect) => {
  let service: TestService;
  let ids: number[];

  beforeAll(async () => {
    service = await startService(dialect);
    await service.context.orgs.createOrganization('other', undefined, new Date());
    const events = [
      { event: 'sms.received', message: { from: '+15550000001', to: '+15559990001', body: 'one', sim: 'sim1', received_at: '2024-06-22T15:46:11+07:00' } },
      { event: 'sms.received', message: { from: '+15550000002', to: '+15559990002', body: 'two', sim: 'sim2' } },
      { event: 'sms.received', message: { from: '+15550000003', to: '+15559990001', body: 'three', sim: 'sim1' } },
    ];
    const response = await service.app.inject({ method: 'POST', url: '/webhook', headers: { 'x-secret-key': service.key }, payload: { events } });
    ids = response.json().stored;
    await service.app.inject({ method: 'POST', url: '/send/acme', headers: bearer(service.key), payload: { to: '+15551230000', body: 'out', sim: 'sim2' } });
  });
  afterAll(() => service.close());

  const list = (query = '', key = service.key) => service.app.inject({ method: 'GET', url: `/messages/acme/${key}${query}` });

  it('answers the envelope with every message record field, ascending by id', async () => {
    const response = await list();
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(Object.keys(page)).toEqual(['messages', 'count', 'next_since_id', 'has_more']);
    // Compact JSON on both engines: the same bytes whichever database answers.
    expect(response.body).toBe(JSON.stringify(page));
    expect(page.count).toBe(4);
    expect(page.has_more).toBe(false);
    expect(page.messages.map((m: { body: string }) => m.body)).toEqual(['one', 'two', 'three', 'out']);
    expect(page.next_since_id).toBe(page.messages[3].id);
    for (const message of page.messages) expect(Object.keys(message)).toEqual(MESSAGE_FIELDS);
    const first = page.messages[0];
    expect(first).toMatchObject({
      id: ids[0],
      org_id: 'acme',
      direction: 'inbound',
      sim: 'sim1',
      from: '+15550000001',
      to: '+15559990001',
      body: 'one',
      status: 'received',
      segments: 1,
      gateway: 'native',
      external_id: null,
      error: null,
      received_at: '2024-06-22T08:46:11.000Z',
      sent_at: null,
      delivered_at: null,
    });
    expect(first.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(page.messages[3]).toMatchObject({ direction: 'outbound', status: 'queued', to: '+15551230000', sim: 'sim2', received_at: null });
  });

  it('pages with limit, since_id, next_since_id and has_more', async () => {
    const first = (await list('?limit=2')).json();
    expect(first.messages.map((m: { id: number }) => m.id)).toEqual(ids.slice(0, 2));
    expect(first).toMatchObject({ count: 2, next_since_id: ids[1], has_more: true });
    const second = (await list(`?limit=2&since_id=${first.next_since_id}`)).json();
    expect(second.count).toBe(2);
    expect(second.has_more).toBe(false);
    const empty = (await list(`?since_id=${second.next_since_id}`)).json();
    expect(empty).toEqual({ messages: [], count: 0, next_since_id: second.next_since_id, has_more: false });
  });

  it('has_more counts only messages matching the filter', async () => {
    const page = (await list('?direction=inbound&limit=3')).json();
    expect(page.count).toBe(3);
    expect(page.has_more).toBe(false);
  });

  it('filters by direction and by SIM id or the SIM phone number', async () => {
    const bodies = async (query: string) => (await list(query)).json().messages.map((m: { body: string }) => m.body);
    expect(await bodies('?direction=outbound')).toEqual(['out']);
    expect(await bodies('?direction=inbound')).toEqual(['one', 'two', 'three']);
    expect(await bodies('?sim=sim1')).toEqual(['one', 'three']);
    // sim1 learned its number from the inbound `to`.
    expect(await bodies('?sim=%2B15559990001')).toEqual(['one', 'three']);
    expect(await bodies('?sim=sim2&direction=outbound')).toEqual(['out']);
    expect(await bodies('?sim=nope')).toEqual([]);
  });

  it('reads with the key in Authorization: Bearer or X-Secret-Key', async () => {
    const viaBearer = await service.app.inject({ method: 'GET', url: '/messages/acme?limit=1', headers: bearer(service.key) });
    expect(viaBearer.statusCode).toBe(200);
    expect(viaBearer.json().count).toBe(1);
    const viaHeader = await service.app.inject({ method: 'GET', url: '/messages/acme', headers: { 'x-secret-key': service.key } });
    expect(viaHeader.json().count).toBe(4);
  });

  it('returns any text unmodified through the listing', async () => {
    const other = await service.context.orgs.createKey('other', undefined, new Date());
    const body = 'quotes " backslash \\ newline \n tab \t ü ж 😀 \u0001 </script>';
    const stored = await service.app.inject({
      method: 'POST',
      url: `/webhook?key=${other.secretKey}`,
      payload: { event: 'sms.received', message: { from: '+1', to: '+2', body } },
    });
    expect(stored.statusCode).toBe(200);
    const page = (await service.app.inject({ method: 'GET', url: `/messages/other/${other.secretKey}` })).json();
    expect(page.messages.map((m: { body: string }) => m.body)).toEqual([body]);
    expect(page.messages[0].segments).toBe(1);
    await service.context.database.db.deleteFrom('messages').where('org_id', '=', 'other').execute();
  });

  it('keeps organizations apart', async () => {
    const other = await service.context.orgs.createKey('other', undefined, new Date());
    const response = await service.app.inject({ method: 'GET', url: `/messages/other/${other.secretKey}` });
    expect(response.json()).toEqual({ messages: [], count: 0, next_since_id: 0, has_more: false });
  });

  it('lists SIMs with their record fields, registered automatically', async () => {
    const response = await service.app.inject({ method: 'GET', url: `/sims/acme/${service.key}` });
    expect(response.statusCode).toBe(200);
    const { sims } = response.json();
    expect(sims.map((s: { sim: string }) => s.sim).sort()).toEqual(['sim1', 'sim2']);
    const sim1 = sims.find((s: { sim: string }) => s.sim === 'sim1');
    expect(Object.keys(sim1)).toEqual([
      'sim',
      'label',
      'phone_number',
      'device_id',
      'slot',
      'message_count',
      'inbound_count',
      'outbound_count',
      'first_seen_at',
      'last_seen_at',
    ]);
    expect(sim1).toMatchObject({ label: null, phone_number: '+15559990001', message_count: 2, inbound_count: 2, outbound_count: 0 });
    expect(sims.find((s: { sim: string }) => s.sim === 'sim2')).toMatchObject({ message_count: 2, inbound_count: 1, outbound_count: 1 });
  });
});

describe.each(dialectsUnderTest())('422 bodies as FastAPI writes them on %s', (dialect) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(dialect);
  });
  afterAll(() => service.close());

  const get = (query: string) => service.app.inject({ method: 'GET', url: `/messages/acme/${service.key}${query}` });

  it.each([
    [
      '?limit=abc',
      { type: 'int_parsing', loc: ['query', 'limit'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: 'abc' },
    ],
    ['?limit=0', { type: 'greater_than_equal', loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', input: '0', ctx: { ge: 1 } }],
    ['?limit=5000', { type: 'less_than_equal', loc: ['query', 'limit'], msg: 'Input should be less than or equal to 1000', input: '5000', ctx: { le: 1000 } }],
    [
      '?since_id=-1',
      { type: 'greater_than_equal', loc: ['query', 'since_id'], msg: 'Input should be greater than or equal to 0', input: '-1', ctx: { ge: 0 } },
    ],
    [
      '?direction=sideways',
      {
        type: 'enum',
        loc: ['query', 'direction'],
        msg: "Input should be 'inbound' or 'outbound'",
        input: 'sideways',
        ctx: { expected: "'inbound' or 'outbound'" },
      },
    ],
    [
      '?sim=sim%001',
      {
        type: 'value_error',
        loc: ['query', 'sim'],
        msg: "Value error, 'sim' must not contain the NUL character (U+0000)",
        input: 'sim\u00001',
        ctx: { error: {} },
      },
    ],
  ])('%s', async (query, issue) => {
    const response = await get(query);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: [issue] });
  });

  it('reports several errors in one response, in parameter order', async () => {
    const response = await get('?limit=abc&since_id=-1&direction=sideways');
    expect(response.statusCode).toBe(422);
    expect(response.json().detail.map((d: { loc: string[] }) => d.loc[1])).toEqual(['limit', 'since_id', 'direction']);
  });

  it('validates /messages/{org_id} and before authentication, as FastAPI does', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/messages/acme?limit=0' });
    expect(response.statusCode).toBe(422);
  });

  const send = (payload: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    service.app.inject({ method: 'POST', url: '/send/acme', headers: { ...bearer(service.key), ...headers }, payload });

  it('send without a body', async () => {
    const response = await send(undefined, {});
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
    expect((await send('null')).json()).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
  });

  it('send without to, and with "to": 5', async () => {
    expect((await send('{"body": "hi"}')).json()).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'to'], msg: 'Field required', input: { body: 'hi' } }],
    });
    expect((await send('{"to": 5, "body": "hi"}')).json()).toEqual({
      detail: [{ type: 'string_type', loc: ['body', 'to'], msg: 'Input should be a valid string', input: 5 }],
    });
  });

  it('send with malformed JSON', async () => {
    const response = await send('{"to": "+15551234567", "body": }');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      detail: [{ type: 'json_invalid', loc: ['body', 31], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }],
    });
  });

  it('send with JSON nested deeper than Python decodes: 422, not a stack overflow', async () => {
    const response = await send('['.repeat(100_000));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      detail: [
        {
          type: 'json_invalid',
          loc: ['body', 1000],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: 'maximum recursion depth exceeded while decoding a JSON array from a unicode string' },
        },
      ],
    });
  });

  it('send with a bad number and a text too long', async () => {
    const response = await send(JSON.stringify({ to: '12', body: 'x'.repeat(1601) }));
    expect(response.statusCode).toBe(422);
    const [to, body] = response.json().detail;
    expect(to).toMatchObject({ type: 'value_error', loc: ['body', 'to'], input: '12', ctx: { error: {} } });
    expect(to.msg).toMatch(/^Value error, .*phone number/);
    expect(body).toEqual({
      type: 'string_too_long',
      loc: ['body', 'body'],
      msg: 'String should have at most 1600 characters',
      input: 'x'.repeat(1601),
      ctx: { max_length: 1600 },
    });
    expect((await send('{"to": "+15551234567", "body": ""}')).json().detail[0]).toEqual({
      type: 'string_too_short',
      loc: ['body', 'body'],
      msg: 'String should have at least 1 character',
      input: '',
      ctx: { min_length: 1 },
    });
  });

  it('send with a NUL character in the SIM (PostgreSQL text cannot hold one): 422 on every database; the text may hold one', async () => {
    const response = await send('{"to": "+15551234567", "body": "a\\u0000b", "sim": "sim\\u0000"}');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'sim'],
          msg: "Value error, 'sim' must not contain the NUL character (U+0000)",
          input: 'sim\u0000',
          ctx: { error: {} },
        },
      ],
    });
  });

  it('send with a body that is not an object', async () => {
    expect((await send('[1]')).json()).toEqual({
      detail: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: [1] }],
    });
  });
});

describe.each(dialectsUnderTest())('authentication on %s', (dialect) => {
  let service: TestService;
  let otherKey: string;
  beforeAll(async () => {
    service = await startService(dialect);
    otherKey = (await service.context.orgs.createOrganization('other', undefined, new Date())).secretKey;
  });
  afterAll(() => service.close());

  const INVALID = { detail: 'Invalid credentials' };

  it("answers the same 401 for a wrong key, another organization's key, an unknown organization and no key", async () => {
    const attempts = [
      service.app.inject({ method: 'GET', url: '/messages/acme/sms_wrong' }),
      service.app.inject({ method: 'GET', url: `/messages/acme/${otherKey}` }),
      service.app.inject({ method: 'GET', url: `/messages/nosuchorg/${service.key}` }),
      service.app.inject({ method: 'GET', url: '/messages/nosuchorg/sms_wrong' }),
      service.app.inject({ method: 'GET', url: '/messages/acme' }),
      service.app.inject({ method: 'GET', url: '/messages/acme', headers: bearer(otherKey) }),
      service.app.inject({ method: 'GET', url: '/sims/acme/sms_wrong' }),
      service.app.inject({ method: 'POST', url: '/send/acme', headers: bearer('sms_wrong'), payload: { to: '+15551234567', body: 'x' } }),
      service.app.inject({ method: 'POST', url: '/send/nosuchorg', headers: bearer(service.key), payload: { to: '+15551234567', body: 'x' } }),
      service.app.inject({ method: 'POST', url: '/webhook', payload: { event: 'sms.received', message: { from: 'a', to: 'b', body: 'c' } } }),
      service.app.inject({ method: 'POST', url: '/webhook?key=sms_wrong', payload: { event: 'sms.received', message: { from: 'a', to: 'b', body: 'c' } } }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(INVALID);
    }
  });

  it('does not accept ?key= on reads', async () => {
    const response = await service.app.inject({ method: 'GET', url: `/messages/acme?key=${service.key}` });
    expect(response.statusCode).toBe(401);
  });

  it('revokes a key with immediate effect and records last_used_at', async () => {
    const { keyId, secretKey } = await service.context.orgs.createKey('acme', 'temp', new Date());
    expect((await service.app.inject({ method: 'GET', url: `/messages/acme/${secretKey}` })).statusCode).toBe(200);
    const listed = (await service.context.orgs.listKeys('acme')).find((k) => k.key_id === keyId)!;
    expect(listed.last_used_at).not.toBeNull();
    expect(listed.name).toBe('temp');
    expect(JSON.stringify(listed)).not.toContain(secretKey);
    await service.context.orgs.revokeKey('acme', keyId, new Date());
    const after = await service.app.inject({ method: 'GET', url: `/messages/acme/${secretKey}` });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(INVALID);
  });

  it('writes last_used_at at most once a minute per key', async () => {
    const { keyId, secretKey } = await service.context.orgs.createKey('acme', 'touch', new Date());
    const lastUsed = async () => (await service.context.orgs.listKeys('acme')).find((k) => k.key_id === keyId)!.last_used_at;
    await service.app.inject({ method: 'GET', url: `/messages/acme/${secretKey}` });
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await service.app.inject({ method: 'GET', url: `/messages/acme/${secretKey}` });
    expect(await lastUsed()).toBe(first);
    const old = new Date(Date.now() - 120_000).toISOString();
    await service.context.database.db.updateTable('api_keys').set({ last_used_at: old }).where('id', '=', keyId).execute();
    await service.app.inject({ method: 'GET', url: '/messages/acme', headers: { 'x-secret-key': secretKey } });
    expect(Date.parse((await lastUsed())!)).toBeGreaterThan(Date.parse(first!) - 1000);
    expect(await lastUsed()).not.toBe(old);
  });

  it('keeps the secret key out of the access log', async () => {
    const before = service.logs.length;
    await service.app.inject({ method: 'GET', url: `/messages/acme/${service.key}?limit=1` });
    await service.app.inject({ method: 'GET', url: `/sims/acme/${service.key}` });
    await service.app.inject({ method: 'POST', url: `/webhook?key=${service.key}`, payload: { events: [] } });
    const lines = service.logs.slice(before).join('');
    expect(lines).toContain('/messages/acme/[redacted]?limit=1');
    expect(lines).toContain('/sims/acme/[redacted]');
    expect(lines).not.toContain(service.key);
    expect(lines).not.toContain(service.key.slice(4));
  });
});
