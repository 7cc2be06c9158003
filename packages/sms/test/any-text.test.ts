import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '@switchboard/core';
import { createTestDatabase, dialectsUnderTest } from '@switchboard/core/testing';
import { buildApp, loadConfig, smsContext } from '../src/index.ts';
import { smsMigrations } from '../src/store/migrations.ts';
import { openSmsDatabase } from '../src/store/sms-database.ts';
import { bearer, startFakeGateway, startService, type FakeGateway, type TestService } from './helpers.ts';

// design/sms.md: a body is "the text, unmodified (any Unicode)". Every case goes in through each
// webhook format and /send and must come back out of the listing with the same bytes.
const C0 = `${Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('')}\u007f`;
const EDGE_CASES: Array<[string, string]> = [
  ['NUL alone', '\u0000'],
  ['NUL inside', 'a\u0000b'],
  ['NUL at the end of a 1,600-character body', `${'x'.repeat(1599)}\u0000`],
  ['several NULs and the character that stands in for them', '\u0000\u0000\uFFFD\u0000'],
  ['every C0 control character and DEL', C0],
  ['C0 controls between words', 'tab\there\rCR\nLF\u001bESC\u0007BEL\u0008BS\u000bVT\u000cFF'],
  ['emoji ZWJ sequences', '👩‍👩‍👧‍👦 🏳️‍🌈 👨🏽‍💻 🧑‍🤝‍🧑'],
  ['right-to-left and left-to-right marks', '\u200fשלום\u200e abc \u202eevil\u202c \u061cمرحبا'],
  ['combining marks, BOM, non-characters and a lone-looking surrogate pair', 'e\u0301 \ufeff\uffff \ud83d\ude00'],
  ['whitespace at both ends', '  spaced\n\t '],
];

/** The bodies of a listing, in id order, from the raw response text. */
async function listedBodies(service: TestService, org: string, key: string, sinceId: number): Promise<string[]> {
  const response = await service.app.inject({ method: 'GET', url: `/messages/${org}/${key}?limit=1000&since_id=${sinceId}` });
  expect(response.statusCode).toBe(200);
  return (JSON.parse(response.body) as { messages: Array<{ body: string }> }).messages.map((message) => message.body);
}

/** Exactly the same text: the same UTF-16 units and the same UTF-8 bytes. */
function expectSameBytes(actual: string, expected: string, label: string): void {
  expect(actual, label).toBe(expected);
  expect(Buffer.from(actual, 'utf8').equals(Buffer.from(expected, 'utf8')), label).toBe(true);
}

describe.each(dialectsUnderTest())('message bodies with any character on %s', (dialect) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(dialect);
  });
  afterAll(() => service.close());

  const webhook = (payload: string, contentType = 'application/json') =>
    service.app.inject({ method: 'POST', url: `/webhook?key=${service.key}`, headers: { 'content-type': contentType }, payload });

  // Each format carries the text in its own field; JSON escapes control characters, the form percent-encodes them.
  const formats: Array<[string, (text: string, n: number) => Promise<{ statusCode: number; id: () => Promise<number> }>]> = [
    [
      'native webhook',
      async (text, n) => {
        const response = await webhook(
          JSON.stringify({ event: 'sms.received', message: { from: '+15550001111', to: '+15552223333', body: text, external_id: `native-${n}` } }),
        );
        return { statusCode: response.statusCode, id: async () => response.json().stored[0] };
      },
    ],
    [
      'Android webhook',
      async (text, n) => {
        const payload = { messageId: `hash-${n}`, message: text, phoneNumber: '+79990001234', simNumber: 1, receivedAt: '2024-06-22T15:46:11.000+07:00' };
        const response = await webhook(JSON.stringify({ deviceId: 'device', event: 'sms:received', id: `android-${n}`, payload, webhookId: 'w' }));
        return { statusCode: response.statusCode, id: async () => response.json().stored[0] };
      },
    ],
    [
      'httpSMS webhook',
      async (text, n) => {
        const data = {
          message_id: `hs-${n}`,
          owner: '+18005550199',
          contact: '+18005550100',
          content: text,
          sim: 'SIM1',
          timestamp: '2023-06-29T03:21:19.814Z',
        };
        const response = await webhook(
          JSON.stringify({ specversion: '1.0', id: `httpsms-${n}`, source: '/v1/messages/receive', type: 'message.phone.received', data }),
        );
        return { statusCode: response.statusCode, id: async () => response.json().stored[0] };
      },
    ],
    [
      'Twilio webhook',
      async (text, n) => {
        const form = new URLSearchParams({ MessageSid: `SM${n}`, AccountSid: 'AC1', From: '+15550001111', To: '+15552223333', Body: text, NumMedia: '0' });
        const response = await webhook(form.toString(), 'application/x-www-form-urlencoded');
        // Twilio is answered with TwiML: the message is the newest one.
        return { statusCode: response.statusCode, id: async () => (await service.context.messages.get('acme', await newestId()))!.id };
      },
    ],
    [
      'POST /send',
      async (text) => {
        const response = await service.app.inject({
          method: 'POST',
          url: '/send/acme',
          headers: bearer(service.key, { 'content-type': 'application/json' }),
          payload: JSON.stringify({ to: '+15551234567', body: text }),
        });
        if (response.statusCode === 200) expectSameBytes(response.json().body, text, 'the /send answer');
        return { statusCode: response.statusCode, id: async () => response.json().id };
      },
    ],
  ];

  async function newestId(): Promise<number> {
    const row = await service.context.database.db
      .selectFrom('messages')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  it.each(formats)('%s: every edge case is stored and listed byte for byte', async (_format, deliver) => {
    const since = await newestId();
    const ids: number[] = [];
    for (const [index, [label, text]] of EDGE_CASES.entries()) {
      const result = await deliver(text, since * 100 + index);
      expect(result.statusCode, label).toBe(200);
      ids.push(await result.id());
    }
    const listed = await listedBodies(service, 'acme', service.key, since);
    expect(listed).toHaveLength(EDGE_CASES.length);
    for (const [index, [label, text]] of EDGE_CASES.entries()) {
      expectSameBytes(listed[index], text, `${label} in the listing`);
      expectSameBytes((await service.context.messages.get('acme', ids[index]))!.body, text, `${label} read alone`);
    }
    // The header-authenticated listing and a filtered one (another query shape on PostgreSQL) agree.
    const filtered = await service.app.inject({
      method: 'GET',
      url: `/messages/acme?limit=1000&since_id=${since}&direction=${_format === 'POST /send' ? 'outbound' : 'inbound'}`,
      headers: bearer(service.key),
    });
    expect(filtered.json().messages.map((message: { body: string }) => message.body)).toEqual(EDGE_CASES.map(([, text]) => text));
  });

  it('keeps the readable copy in the text column: U+0000 shown as U+FFFD, the exact bytes beside it', async () => {
    const response = await webhook(JSON.stringify({ event: 'sms.received', message: { from: '+1', to: '+2', body: 'a\u0000b', external_id: 'readable' } }));
    const [id] = response.json().stored;
    const row = await service.context.database.db.selectFrom('messages').select(['body', 'body_utf8']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.body).toBe('a\uFFFDb');
    expect(Buffer.from(row.body_utf8!).equals(Buffer.from('a\u0000b'))).toBe(true);
    const plain = await webhook(JSON.stringify({ event: 'sms.received', message: { from: '+1', to: '+2', body: 'plain', external_id: 'plain' } }));
    const plainRow = await service.context.database.db
      .selectFrom('messages')
      .select(['body', 'body_utf8'])
      .where('id', '=', plain.json().stored[0])
      .executeTakeFirstOrThrow();
    expect(plainRow).toEqual({ body: 'plain', body_utf8: null });
  });
});

describe.each(dialectsUnderTest())('gateway drivers send bodies with any character on %s', (dialect) => {
  let service: TestService;
  let gateway: FakeGateway;
  beforeEach(async () => {
    service = await startService(dialect);
    gateway = await startFakeGateway();
  });
  afterEach(async () => {
    await service.close();
    await gateway.close();
  });

  const text = 'NUL\u0000inside, C0 \u0001\u001f, 👩‍👩‍👧‍👦, \u200fשלום\u0000';
  const sentText: Record<string, (body: string) => string> = {
    android: (body) => JSON.parse(body).textMessage.text,
    httpsms: (body) => JSON.parse(body).content,
    twilio: (body) => new URLSearchParams(body).get('Body')!,
    webhook: (body) => JSON.parse(body).body,
  };

  it.each(Object.keys(sentText))('%s: the gateway receives the exact text', async (driver) => {
    const settings = { url: gateway.url, username: 'u', password: 'p', api_key: 'k', account_sid: 'AC1', auth_token: 't', from: '+15550009999' };
    await service.context.orgs.setGateway('acme', driver as 'android', settings, new Date());
    gateway.respond(() => ({ status: 200, body: { id: 'ext-1', sid: 'SM1', data: { id: 'ext-1' } } }));
    const queued = await service.app.inject({ method: 'POST', url: '/send/acme', headers: bearer(service.key), payload: { to: '+15551234567', body: text } });
    expect(queued.statusCode).toBe(200);
    expect(await service.context.worker.runOnce()).toBe(1);
    expect(gateway.requests).toHaveLength(1);
    expectSameBytes(sentText[driver](gateway.requests[0].body), text, driver);
    const message = (await service.context.messages.get('acme', queued.json().id))!;
    expect(message.status).toBe('sent');
    expectSameBytes(message.body, text, 'after sending');
  });
});

/** The two tables this test writes, as they were before migration 0101 (no body_utf8, no console columns). */
interface TablesBefore0101 {
  organizations: { org_id: string; name: string; active_driver: string; seq: number; created_at: string };
  messages: {
    org_id: string;
    direction: string;
    sim: string | null;
    from_number: string;
    to_number: string;
    body: string;
    status: string;
    segments: number;
    created_at: string;
    updated_at: string;
  };
}

describe.each(dialectsUnderTest())('a database from before bodies could hold U+0000, on %s', (dialect) => {
  it('migrates: existing messages list unchanged (and a SQLite body that already held U+0000 keeps it)', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const config = loadConfig({ ...database.env, LOG_LEVEL: 'silent', SMS_WORKER_INTERVAL_MS: '0' });
      // The schema as it was: every migration before the body_utf8 column.
      const before = Object.fromEntries(Object.entries(smsMigrations).filter(([name]) => name < '0101_sms_body_utf8'));
      const old = await openDatabase<TablesBefore0101>({
        url: config.databaseUrl,
        urlVariable: 'DATABASE_URL',
        sqliteFile: `${config.dataDir}/sms.db`,
        schema: 'sms',
        migrations: before,
      });
      const now = new Date().toISOString();
      const row = {
        org_id: 'acme',
        direction: 'inbound',
        sim: null,
        from_number: '+1',
        to_number: '+2',
        status: 'received',
        segments: 1,
        created_at: now,
        updated_at: now,
      };
      await old.db.insertInto('organizations').values({ org_id: 'acme', name: 'Acme', active_driver: 'none', seq: 0, created_at: now }).execute();
      const bodies = ['before the change 👋', '  kept as sent\n', ...(dialect === 'sqlite' ? ['held U+0000\u0000 in SQLite text'] : [])];
      for (const body of bodies)
        await old.db
          .insertInto('messages')
          .values({ ...row, body })
          .execute();
      await old.close();

      // Opening the service's database runs the new migration.
      const migrated = await openSmsDatabase(config);
      const rows = await migrated.db.selectFrom('messages').select(['body', 'body_utf8']).orderBy('id').execute();
      expect(rows.map((r) => r.body_utf8 === null)).toEqual(bodies.map((body) => !body.includes('\u0000')));
      await migrated.close();

      const app = await buildApp(config);
      await app.ready();
      try {
        const { secretKey } = await smsContext(app).orgs.createKey('acme', 'test', new Date());
        const response = await app.inject({ method: 'GET', url: `/messages/acme/${secretKey}` });
        const listed = response.json().messages.map((message: { body: string }) => message.body);
        expect(listed).toEqual(bodies);
        for (const [index, body] of bodies.entries()) expectSameBytes(listed[index], body, body);
      } finally {
        await app.close();
      }
    } finally {
      await database.cleanup();
    }
  });
});
