import { describe, expect, it, afterAll } from 'vitest';
import { sql, type Kysely } from 'kysely';
import {
  AppError,
  ConfigError,
  MemoryRateLimiter,
  SqlRateLimiter,
  UserStore,
  constantTimeEqual,
  coreMigrations,
  createHttpServer,
  createLogger,
  localBaseUrl,
  decryptCredential,
  encryptCredential,
  fromFrameworkError,
  hashSecret,
  issueSecret,
  loadPlatformConfig,
  openDatabase,
  openPlatformDatabase,
  parseRate,
  sqliteReaderOf,
  redactUrl,
} from '../src/index.ts';
import { createTestDatabase, dialectsUnderTest } from '../src/testing.ts';
import { CallbackQueryClient, withStatementCache } from '../src/database.ts';
import SQLite from 'better-sqlite3';

/** The one table the database tests create. */
interface ThingTables {
  things: { name: string };
}

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadPlatformConfig('sms', { DATA_DIR: '/tmp/sb-core-test', SWITCHBOARD_SECRET: 'x'.repeat(20) });
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8101, bodyLimit: 1_048_576, logLevel: 'info', databaseUrl: undefined });
    expect(config.oauthRegistrationRate).toEqual({ count: 20, windowMs: 3_600_000 });
    expect(loadPlatformConfig('flows', { SWITCHBOARD_SECRET: 'x'.repeat(20), DATA_DIR: '/tmp/sb-core-test' }).port).toBe(8102);
    expect(loadPlatformConfig('tickets', { SWITCHBOARD_SECRET: 'x'.repeat(20), DATA_DIR: '/tmp/sb-core-test' }).port).toBe(8103);
  });

  it('names the variable of a bad value', () => {
    const base = { DATA_DIR: '/tmp/sb-core-test', SWITCHBOARD_SECRET: 'x'.repeat(20) };
    expect(() => loadPlatformConfig('sms', { ...base, SMS_PORT: 'abc' })).toThrow(new ConfigError('SMS_PORT', 'must be an integer, got "abc"'));
    expect(() => loadPlatformConfig('sms', { ...base, SMS_PORT: '70000' })).toThrow('SMS_PORT: must be at most 65535, got 70000');
    expect(() => loadPlatformConfig('sms', { ...base, DATABASE_URL: 'mysql://x' })).toThrow('DATABASE_URL: must use postgres: or postgresql:, got mysql:');
    expect(() => loadPlatformConfig('sms', { ...base, LOG_LEVEL: 'loud' })).toThrow(/^LOG_LEVEL: must be one of/);
    expect(() => loadPlatformConfig('flows', { ...base, OAUTH_REGISTRATION_RATE: '20' })).toThrow(
      'OAUTH_REGISTRATION_RATE: must look like 60/m or 30/30m (count/window with unit s, m, h or d), got "20"',
    );
    expect(loadPlatformConfig('tickets', { ...base, OAUTH_REGISTRATION_RATE: '5/30m' }).oauthRegistrationRate).toEqual({ count: 5, windowMs: 1_800_000 });
    expect(loadPlatformConfig('sms', { ...base, DATABASE_URL: 'postgres://a/b', SMS_DATABASE_URL: 'postgres://c/d' })).toMatchObject({
      databaseUrl: 'postgres://c/d',
      databaseUrlVariable: 'SMS_DATABASE_URL',
    });
  });

  it('parses rates', () => {
    expect(parseRate('60/m')).toEqual({ count: 60, windowMs: 60_000 });
    expect(parseRate('30/30m')).toEqual({ count: 30, windowMs: 1_800_000 });
    expect(parseRate('600/h')).toEqual({ count: 600, windowMs: 3_600_000 });
    expect(parseRate('0/m')).toBeUndefined();
    expect(parseRate('ten/m')).toBeUndefined();
  });
});

describe('secrets', () => {
  it('issues prefixed 32-byte tokens and stores only their hash', () => {
    const issued = issueSecret('sms_');
    expect(issued.value).toMatch(/^sms_[A-Za-z0-9_-]{43}$/);
    expect(issued.hash).toBe(hashSecret(issued.value));
    expect(issued.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(issueSecret('sms_').value).not.toBe(issued.value);
  });

  it('compares in constant time', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });

  it('encrypts credentials with AES-256-GCM and detects tampering', () => {
    const key = Buffer.alloc(32, 7);
    const sealed = encryptCredential(key, 'hunter2');
    expect(sealed).not.toContain('hunter2');
    expect(decryptCredential(key, sealed)).toBe('hunter2');
    expect(() => decryptCredential(Buffer.alloc(32, 8), sealed)).toThrow();
    const parts = sealed.split(':');
    parts[3] = Buffer.from('hunter3').toString('base64url');
    expect(() => decryptCredential(key, parts.join(':'))).toThrow();
  });

  it('redacts credentials from URLs', () => {
    expect(redactUrl('/webhook?key=sms_abcdefghijklmnop&x=1')).toBe('/webhook?key=[redacted]&x=1');
    expect(redactUrl('/messages/acme/sms_abcdefghijklmnopqrstu?limit=5')).toBe('/messages/acme/sms_[redacted]?limit=5');
  });
});

describe('base URLs', () => {
  it('shows a wildcard IPv4 host as loopback and puts IPv6 hosts in brackets', () => {
    expect(localBaseUrl('0.0.0.0', 8101)).toBe('http://127.0.0.1:8101');
    expect(localBaseUrl('127.0.0.1', 8102)).toBe('http://127.0.0.1:8102');
    expect(localBaseUrl('::', 8103)).toBe('http://[::]:8103');
    expect(localBaseUrl('::1', 8103)).toBe('http://[::1]:8103');
  });
});

describe('errors', () => {
  it('maps framework errors to the catalogue', () => {
    expect(fromFrameworkError({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413, message: 'x' })?.status).toBe(413);
    expect(fromFrameworkError({ code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400, message: 'bad' })?.code).toBe('invalid_json');
    expect(fromFrameworkError(new AppError('conflict', 'taken'))?.status).toBe(409);
    expect(fromFrameworkError(new Error('boom'))).toBeUndefined();
    // PostgreSQL's refusal of a NUL character in text (SQLSTATE 22021) is the caller's error, not a 500.
    const nul = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    expect(fromFrameworkError(nul)).toEqual(new AppError('invalid_request', 'Text must not contain NUL characters (U+0000)'));
    expect(fromFrameworkError(nul)?.status).toBe(400);
  });

  it("answers a URL the router cannot decode through the service's own error handler", async () => {
    const app = createHttpServer({ logger: createLogger({ service: 'test', level: 'silent' }), bodyLimit: 1024 });
    app.setErrorHandler((error, _request, reply) => {
      const known = fromFrameworkError(error)!;
      reply.code(known.status).send({ failure: { code: known.code, message: known.message } });
    });
    app.get('/things/:id', async () => ({ ok: true }));
    const response = await app.inject({ method: 'GET', url: '/things/%' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ failure: { code: 'invalid_request', message: "'/things/%' is not a valid url component" } });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await app.close();
  });
});

describe('in-memory rate limiter', () => {
  it('allows the configured count per window then asks to retry after the window', async () => {
    const limiter = new MemoryRateLimiter();
    const rate = { count: 2, windowMs: 60_000 };
    const t0 = 120_000;
    expect(await limiter.hit('k', rate, t0)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await limiter.hit('k', rate, t0 + 1)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await limiter.hit('k', rate, t0 + 30_000)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(await limiter.hit('other', rate, t0 + 30_000)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await limiter.hit('k', rate, t0 + 60_000)).toEqual({ allowed: true, retryAfterSeconds: 0 });
  });
});

describe.each(dialectsUnderTest())('database on %s', (dialect) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('migrates once, answers ping, and counts rate-limit windows in SQL', async () => {
    const test = await createTestDatabase(dialect);
    cleanups.push(test.cleanup);
    const options = {
      url: test.env.DATABASE_URL,
      urlVariable: 'DATABASE_URL',
      sqliteFile: `${test.env.DATA_DIR}/core.db`,
      schema: 'core',
      migrations: {
        ...coreMigrations,
        '0001_things': {
          async up(db: Kysely<unknown>) {
            await db.schema.createTable('things').addColumn('name', 'text').execute();
          },
        },
      },
    };
    const first = await openDatabase<ThingTables>(options);
    expect(first.dialect).toBe(dialect);
    expect(await first.ping()).toBe(true);
    await first.db.insertInto('things').values({ name: 'a' }).execute();
    await first.close();
    const second = await openDatabase<ThingTables>(options);
    const rows = await second.db.selectFrom('things').selectAll().execute();
    expect(rows).toEqual([{ name: 'a' }]);
    const limiter = new SqlRateLimiter(second.db);
    const rate = { count: 1, windowMs: 60_000 };
    expect(await limiter.hit('org', rate, 60_000)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await limiter.hit('org', rate, 90_000)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    const count = await sql<{ n: number }>`select count(*) as n from rate_limit_windows`.execute(second.db);
    expect(Number(count.rows[0].n)).toBe(1);
    if (dialect === 'postgres') {
      // Unlogged: a counter update writes no WAL and waits for no flush.
      const table = await sql<{ relpersistence: string }>`select relpersistence from pg_class where oid = 'rate_limit_windows'::regclass`.execute(second.db);
      expect(table.rows).toEqual([{ relpersistence: 'u' }]);
    }
    await second.close();
  });

  it('keeps users with hashed passwords', async () => {
    const test = await createTestDatabase(dialect);
    cleanups.push(test.cleanup);
    const platform = await openPlatformDatabase(test.env);
    const users = new UserStore(platform.db);
    expect(await users.count()).toBe(0);
    const { user, password } = await users.create({ email: 'Admin@Example.com', admin: true });
    expect(user).toMatchObject({ email: 'admin@example.com', role: 'admin', name: 'admin' });
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(await users.authenticate('admin@example.com', password)).toEqual(user);
    expect(await users.authenticate('admin@example.com', 'wrong-password')).toBeUndefined();
    await expect(users.create({ email: 'admin@example.com' })).rejects.toThrow('a user with email admin@example.com already exists');
    // The same shortest password as an invitation's and the Account page's (MIN_PASSWORD_LENGTH).
    await expect(users.create({ email: 'eve@example.com', password: 'eleven-char' })).rejects.toThrow(
      new AppError('invalid_request', 'password must be at least 12 characters'),
    );
    expect((await users.create({ email: 'eve@example.com', password: 'twelve-chars' })).user.email).toBe('eve@example.com');
    const stored = await platform.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(stored.password_hash).not.toContain(password);
    await platform.close();
  });
});

describe('the SQLite statement cache', () => {
  it('prepares each text once and, when full, lets the statement prepared first go', () => {
    const cache = withStatementCache(new SQLite(':memory:'), 2);
    try {
      const first = cache.prepare('select 1 as n');
      expect(cache.prepare('select 1 as n')).toBe(first);
      const second = cache.prepare('select 2 as n');
      cache.prepare('select 1 as n');
      // Full: the third text evicts the first prepared, however recently it was used.
      cache.prepare('select 3 as n');
      expect(cache.prepare('select 2 as n')).toBe(second);
      const again = cache.prepare('select 1 as n');
      expect(again).not.toBe(first);
      expect(again.get()).toEqual({ n: 1 });
    } finally {
      cache.close();
    }
  });
});

describe('the SQLite read connection', () => {
  it('reads committed rows only, never a transaction in progress, and is absent for transactions', async () => {
    const test = await createTestDatabase('sqlite');
    const database = await openDatabase<ThingTables>({
      url: undefined,
      urlVariable: 'DATABASE_URL',
      sqliteFile: `${test.env.DATA_DIR}/reader.db`,
      schema: 'core',
      migrations: {
        '0001_things': {
          async up(db: Kysely<unknown>) {
            await db.schema.createTable('things').addColumn('name', 'text').execute();
          },
        },
      },
    });
    try {
      const reader = sqliteReaderOf(database.db)!;
      await database.db.insertInto('things').values({ name: 'committed' }).execute();
      expect(reader.all('select name from things order by name', [])).toEqual([{ name: 'committed' }]);
      let insideTransaction: unknown;
      await database.db.transaction().execute(async (trx) => {
        expect(sqliteReaderOf<ThingTables>(trx)).toBeUndefined();
        await trx.insertInto('things').values({ name: 'pending' }).execute();
        // Another request reading now must not see the uncommitted row (a read on the writer's connection would).
        insideTransaction = reader.all('select name from things where name > ? order by name', ['a']);
      });
      expect(insideTransaction).toEqual([{ name: 'committed' }]);
      expect(reader.all('select name from things order by name', [])).toEqual([{ name: 'committed' }, { name: 'pending' }]);
      expect(() => reader.all("insert into things (name) values ('x') returning name", [])).toThrow('attempt to write a readonly database');
    } finally {
      await database.close();
      await test.cleanup();
    }
  });

  it('gives row objects keyed by the column names, whatever the names', async () => {
    const test = await createTestDatabase('sqlite');
    const database = await openDatabase<unknown>({
      url: undefined,
      urlVariable: 'DATABASE_URL',
      sqliteFile: `${test.env.DATA_DIR}/rows.db`,
      schema: 'core',
      migrations: {},
    });
    try {
      const reader = sqliteReaderOf(database.db)!;
      const text = `select 1 as "id", 'x' as "it's ""quoted""", null as "empty", 2.5 as "id", x'00ff' as "blob", ? as "param"`;
      const expected = { id: 2.5, 'it\'s "quoted"': 'x', empty: null, blob: Buffer.from([0, 255]), param: 'p' };
      expect(reader.all(text, ['p'])).toEqual([expected]);
      // The second call reuses the prepared statement and its row function.
      expect(reader.all(text, ['p'])).toEqual([expected]);
      expect(Object.keys(reader.all<object>(text, ['p'])[0])).toEqual(['id', 'it\'s "quoted"', 'empty', 'blob', 'param']);
      expect(reader.all('select value as n from json_each(?) order by value', ['[3,1,2]'])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(reader.all('select 1 as n where 0', [])).toEqual([]);
    } finally {
      await database.close();
      await test.cleanup();
    }
  });

  it('is absent on PostgreSQL', async () => {
    if (!process.env.TEST_DATABASE_URL) return;
    const test = await createTestDatabase('postgres');
    const database = await openDatabase<unknown>({ url: test.env.DATABASE_URL, urlVariable: 'DATABASE_URL', sqliteFile: '', schema: 'core', migrations: {} });
    try {
      expect(sqliteReaderOf(database.db)).toBeUndefined();
    } finally {
      await database.close();
      await test.cleanup();
    }
  });
});

describe('the PostgreSQL pool', () => {
  it('hands out clients whose promise-form queries answer as pg does', async () => {
    if (!process.env.TEST_DATABASE_URL) return;
    const test = await createTestDatabase('postgres');
    const database = await openDatabase<unknown>({ url: test.env.DATABASE_URL, urlVariable: 'DATABASE_URL', sqliteFile: '', schema: 'core', migrations: {} });
    const client = await database.pool!.connect();
    try {
      expect(client).toBeInstanceOf(CallbackQueryClient);
      expect((await client.query('select $1::int as n, $2::text as s', [7, 'x'])).rows).toEqual([{ n: 7, s: 'x' }]);
      expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      const config = { text: 'select $1::int as n', values: [3] };
      expect((await client.query(config)).rows).toEqual([{ n: 3 }]);
      expect(config).toEqual({ text: 'select $1::int as n', values: [3] });
      await expect(client.query('select * from no_such_table', [])).rejects.toMatchObject({
        code: '42P01',
        message: 'relation "no_such_table" does not exist',
      });
      const viaCallback = await new Promise((resolve, reject) =>
        client.query('select 2 as two', [], (error, result) => (error ? reject(error) : resolve(result.rows))),
      );
      expect(viaCallback).toEqual([{ two: 2 }]);
      // Kysely's own path: rows as before.
      expect((await sql<{ n: number }>`select ${5}::int as n`.execute(database.db)).rows).toEqual([{ n: 5 }]);
    } finally {
      client.release();
      await database.close();
      await test.cleanup();
    }
  });
});

describe('database errors', () => {
  it('reports an unreachable PostgreSQL against the variable that named it', async () => {
    await expect(
      openDatabase({ url: 'postgres://127.0.0.1:1/nope', urlVariable: 'SMS_DATABASE_URL', sqliteFile: '/tmp/x.db', schema: 'sms', migrations: {} }),
    ).rejects.toThrow(/^SMS_DATABASE_URL: cannot connect to PostgreSQL/);
  });
});
