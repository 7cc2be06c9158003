import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import {
  AppError,
  MembershipStore,
  SESSION_IDLE_MS,
  UserStore,
  createHttpServer,
  createLogger,
  fromFrameworkError,
  hashSecret,
  openPlatformDatabase,
  registerSessionRoutes,
  requireSameOrigin,
  type App,
  type Database,
  type PlatformTables,
} from '../src/index.ts';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '../src/testing.ts';

/** A clock the tests move by hand. */
class Clock {
  constructor(public ms = Date.parse('2030-01-01T00:00:00.000Z')) {}
  now = () => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

/**
 * A service with the session routes and the ticket board's error shape
 * (`{"error": {"code", "message"}}`), whose handler does not send Retry-After
 * itself: the routes must.
 */
async function sessionApp(platform: Database<PlatformTables>, options: { clock: Clock; publicBaseUrl?: string; logs?: string[] }): Promise<App> {
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      options.logs?.push(String(chunk));
      callback();
    },
  });
  const app = createHttpServer({ logger: createLogger({ service: 'test', level: options.logs ? 'trace' : 'silent', destination }), bodyLimit: 4096 });
  app.setErrorHandler((error, _request, reply) => {
    const known = fromFrameworkError(error) ?? new AppError('internal', 'Internal error');
    reply.code(known.status).send({ error: { code: known.code, message: known.message } });
  });
  await registerSessionRoutes(app, {
    platform,
    publicBaseUrl: options.publicBaseUrl,
    now: options.clock.now,
    describe: async (user) => ({ projects: [{ key: 'DEMO', name: `for ${user.email}` }] }),
  });
  return app;
}

const ORIGIN = 'http://localhost';

function cookieOf(response: { headers: Record<string, unknown> }): string {
  const header = response.headers['set-cookie'];
  const value = Array.isArray(header) ? header[0] : String(header);
  return value.split(';')[0];
}

describe.each(dialectsUnderTest())('web sign-in on %s', (dialect) => {
  let test: TestDatabase;
  let platform: Database<PlatformTables>;
  let alice: { id: string; email: string; role: 'admin' | 'member' };
  const clock = new Clock();
  let app: App;
  let address = 0;
  // A fresh client address per sign-in, so that the per-address counter only counts where a test means it to.
  const nextAddress = () => `10.0.${Math.floor(++address / 250)}.${(address % 250) + 1}`;
  const signIn = (email: string, password: string, extra: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { email, password },
      remoteAddress: extra.remoteAddress ?? nextAddress(),
      headers: extra.headers,
    });

  beforeAll(async () => {
    test = await createTestDatabase(dialect);
    platform = await openPlatformDatabase(test.env);
    const users = new UserStore(platform.db);
    alice = (await users.create({ email: 'alice@example.com', password: 'correct-horse', name: 'Alice' })).user;
    await users.create({ email: 'root@example.com', password: 'root-password', admin: true });
    app = await sessionApp(platform, { clock });
  });
  afterAll(async () => {
    await app?.close();
    await platform?.close();
    await test?.cleanup();
  });

  it('signs in with the cookie HttpOnly, SameSite=Lax, Path=/, Max-Age 14 days, and stores only its hash', async () => {
    const response = await signIn('Alice@Example.com', 'correct-horse');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: { id: alice.id, email: 'alice@example.com', name: 'Alice', role: 'member' } });
    const setCookie = response.headers['set-cookie'] as string;
    expect(setCookie).toMatch(/^sb_session=[A-Za-z0-9_-]{43}; Max-Age=1209600; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(response.headers['cache-control']).toBe('no-store');
    const token = cookieOf(response).slice('sb_session='.length);
    const rows = await platform.db.selectFrom('sessions').selectAll().where('user_id', '=', alice.id).execute();
    expect(rows.map((row) => row.token_hash)).toContain(hashSecret(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    const row = rows.find((r) => r.token_hash === hashSecret(token))!;
    expect(row).toEqual({
      token_hash: hashSecret(token),
      user_id: alice.id,
      created_at: clock.now().toISOString(),
      last_used_at: clock.now().toISOString(),
      expires_at: new Date(clock.ms + SESSION_IDLE_MS).toISOString(),
    });
  });

  it('answers a wrong password and an unknown email with the same 401 and no cookie', async () => {
    const wrong = await signIn('alice@example.com', 'wrong-password');
    const unknown = await signIn('nobody@example.com', 'correct-horse');
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: { code: 'invalid_credentials', message: 'Invalid email or password' } });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  it('refuses a malformed sign-in body with 400', async () => {
    const missing = await app.inject({ method: 'POST', url: '/api/session', payload: { email: 'alice@example.com' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('invalid_request');
    expect(missing.json().error.message).toMatch(/password/);
    const notJson = await app.inject({ method: 'POST', url: '/api/session', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error.code).toBe('invalid_json');
    const wrongType = await app.inject({ method: 'POST', url: '/api/session', payload: { email: 1, password: 'x' } });
    expect(wrongType.statusCode).toBe(400);
  });

  it('GET /api/session: the user and the service extras with a session, 401 without', async () => {
    const cookie = cookieOf(await signIn('alice@example.com', 'correct-horse'));
    const me = await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      user: { id: alice.id, email: 'alice@example.com', name: 'Alice', role: 'member' },
      projects: [{ key: 'DEMO', name: 'for alice@example.com' }],
    });
    const anonymous = await app.inject({ method: 'GET', url: '/api/session' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: { code: 'not_signed_in', message: 'Not signed in' } });
    expect(anonymous.headers['set-cookie']).toBeUndefined();
    const forged = await app.inject({ method: 'GET', url: '/api/session', headers: { cookie: `sb_session=${'A'.repeat(43)}` } });
    expect(forged.statusCode).toBe(401);
    // The browser is told to forget a cookie the server does not know.
    expect(forged.headers['set-cookie']).toMatch(/^sb_session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/);
  });

  it('DELETE /api/session: 204, the session gone from the server and the cookie cleared', async () => {
    const cookie = cookieOf(await signIn('alice@example.com', 'correct-horse'));
    const token = cookie.slice('sb_session='.length);
    const out = await app.inject({ method: 'DELETE', url: '/api/session', headers: { cookie, origin: ORIGIN } });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');
    expect(out.headers['set-cookie']).toMatch(/^sb_session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/);
    expect(await platform.db.selectFrom('sessions').select('token_hash').where('token_hash', '=', hashSecret(token)).executeTakeFirst()).toBeUndefined();
    expect((await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })).statusCode).toBe(401);
    // Without a session there is nothing to sign out of: still 204.
    expect((await app.inject({ method: 'DELETE', url: '/api/session' })).statusCode).toBe(204);
  });

  it("signs out only from this service's own pages: 403 without an Origin or with a foreign one", async () => {
    const cookie = cookieOf(await signIn('alice@example.com', 'correct-horse'));
    const bare = await app.inject({ method: 'DELETE', url: '/api/session', headers: { cookie } });
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toEqual({
      error: {
        code: 'forbidden',
        message: 'Origin did not match: a signed-in request that changes something must carry an Origin (or Referer) header of this service',
      },
    });
    const foreign = await app.inject({ method: 'DELETE', url: '/api/session', headers: { cookie, origin: 'https://evil.example' } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({
      error: { code: 'forbidden', message: 'Origin did not match: Origin "https://evil.example" is not this service\'s origin' },
    });
    expect((await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })).statusCode).toBe(200);
    const viaReferer = await app.inject({ method: 'DELETE', url: '/api/session', headers: { cookie, referer: `${ORIGIN}/orgs/acme` } });
    expect(viaReferer.statusCode).toBe(204);
  });

  it('refuses a sign-in posted from a foreign page (login CSRF) and allows one without Origin or from its own', async () => {
    const foreign = await signIn('alice@example.com', 'correct-horse', { headers: { origin: 'https://evil.example' } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({
      error: { code: 'forbidden', message: 'Origin did not match: Origin "https://evil.example" is not this service\'s origin' },
    });
    expect(foreign.headers['set-cookie']).toBeUndefined();
    expect((await signIn('alice@example.com', 'correct-horse', { headers: { origin: ORIGIN } })).statusCode).toBe(200);
    expect((await signIn('alice@example.com', 'correct-horse')).statusCode).toBe(200);
  });

  it('ends a session after 14 days without use, and slides it while used (last_used_at written at most once a minute)', async () => {
    const cookie = cookieOf(await signIn('alice@example.com', 'correct-horse'));
    const hash = hashSecret(cookie.slice('sb_session='.length));
    const stored = () => platform.db.selectFrom('sessions').select(['last_used_at', 'expires_at']).where('token_hash', '=', hash).executeTakeFirstOrThrow();
    const signedInAt = clock.now().toISOString();
    const get = () => app.inject({ method: 'GET', url: '/api/session', headers: { cookie } });

    clock.advance(30_000);
    expect((await get()).statusCode).toBe(200);
    expect((await stored()).last_used_at).toBe(signedInAt);
    clock.advance(31_000);
    expect((await get()).statusCode).toBe(200);
    expect(await stored()).toEqual({ last_used_at: clock.now().toISOString(), expires_at: new Date(clock.ms + SESSION_IDLE_MS).toISOString() });

    clock.advance(SESSION_IDLE_MS - 1000);
    expect((await get()).statusCode).toBe(200);
    clock.advance(SESSION_IDLE_MS);
    const expired = await get();
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ error: { code: 'not_signed_in', message: 'Not signed in' } });
  });

  it('after 10 failures for one email, refuses even the right password with 429 and Retry-After until 60 s after the first', async () => {
    const users = new UserStore(platform.db);
    await users.create({ email: 'bob@example.com', password: 'bob-password' });
    const first = clock.ms;
    for (let i = 0; i < 10; i += 1) {
      // Each from another address: only the email's counter fills up.
      expect((await signIn('bob@example.com', `wrong-${i}`)).statusCode).toBe(401);
      clock.advance(1000);
    }
    const locked = await signIn('BOB@example.com', 'bob-password');
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBe('50');
    expect(locked.json()).toEqual({ error: { code: 'rate_limited', message: 'Too many failed sign-ins: try again in 50 s' } });
    expect(locked.headers['set-cookie']).toBeUndefined();
    // Other accounts are not affected.
    expect((await signIn('alice@example.com', 'correct-horse')).statusCode).toBe(200);
    clock.ms = first + 59_999;
    const stillLocked = await signIn('bob@example.com', 'bob-password');
    expect(stillLocked.statusCode).toBe(429);
    expect(stillLocked.headers['retry-after']).toBe('1');
    clock.ms = first + 60_000;
    expect((await signIn('bob@example.com', 'bob-password')).statusCode).toBe(200);
    // A new failure opens a new window: one failure is far from the limit.
    expect((await signIn('bob@example.com', 'wrong')).statusCode).toBe(401);
    expect((await signIn('bob@example.com', 'bob-password')).statusCode).toBe(200);
  });

  it('after 10 failures from one address, refuses every email from it with 429, not from other addresses', async () => {
    clock.advance(120_000);
    const attacker = '192.0.2.7';
    for (let i = 0; i < 10; i += 1) {
      expect((await signIn(`guess-${i}@example.com`, 'password', { remoteAddress: attacker })).statusCode).toBe(401);
    }
    clock.advance(15_000);
    const locked = await signIn('alice@example.com', 'correct-horse', { remoteAddress: attacker });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBe('45');
    expect((await signIn('alice@example.com', 'correct-horse', { remoteAddress: '192.0.2.8' })).statusCode).toBe(200);
    clock.advance(45_000);
    expect((await signIn('alice@example.com', 'correct-horse', { remoteAddress: attacker })).statusCode).toBe(200);
  });

  it('shares sessions and failure counts with a second instance on the same database', async () => {
    clock.advance(120_000);
    const secondPlatform = await openPlatformDatabase(test.env);
    const second = await sessionApp(secondPlatform, { clock });
    try {
      const cookie = cookieOf(await signIn('alice@example.com', 'correct-horse'));
      const there = await second.inject({ method: 'GET', url: '/api/session', headers: { cookie } });
      expect(there.statusCode).toBe(200);
      expect(there.json().user.email).toBe('alice@example.com');
      expect((await second.inject({ method: 'DELETE', url: '/api/session', headers: { cookie, origin: ORIGIN } })).statusCode).toBe(204);
      expect((await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })).statusCode).toBe(401);

      const address = '198.51.100.9';
      for (let i = 0; i < 10; i += 1) {
        const target = i % 2 === 0 ? app : second;
        const response = await target.inject({
          method: 'POST',
          url: '/api/session',
          payload: { email: `x${i}@example.com`, password: 'p' },
          remoteAddress: address,
        });
        expect(response.statusCode).toBe(401);
      }
      const locked = await app.inject({
        method: 'POST',
        url: '/api/session',
        payload: { email: 'alice@example.com', password: 'correct-horse' },
        remoteAddress: address,
      });
      expect(locked.statusCode).toBe(429);
    } finally {
      await second.close();
      await secondPlatform.close();
    }
  });

  it('marks the cookie Secure when PUBLIC_BASE_URL is https, and accepts that origin for writes', async () => {
    clock.advance(120_000);
    const behindProxy = await sessionApp(platform, { clock, publicBaseUrl: 'https://switchboard.example.com' });
    try {
      const response = await behindProxy.inject({
        method: 'POST',
        url: '/api/session',
        payload: { email: 'alice@example.com', password: 'correct-horse' },
        headers: { origin: 'https://switchboard.example.com' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['set-cookie']).toMatch(/^sb_session=[A-Za-z0-9_-]{43}; Max-Age=1209600; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
      const out = await behindProxy.inject({
        method: 'DELETE',
        url: '/api/session',
        headers: { cookie: cookieOf(response), origin: 'https://switchboard.example.com' },
      });
      expect(out.statusCode).toBe(204);
      expect(out.headers['set-cookie']).toContain('; Secure;');
    } finally {
      await behindProxy.close();
    }
  });

  it('keeps the password, the cookie and the session token out of the logs', async () => {
    clock.advance(120_000);
    const logs: string[] = [];
    const logged = await sessionApp(platform, { clock, logs });
    try {
      const response = await logged.inject({ method: 'POST', url: '/api/session', payload: { email: 'alice@example.com', password: 'correct-horse' } });
      const token = cookieOf(response).slice('sb_session='.length);
      await logged.inject({ method: 'GET', url: '/api/session', headers: { cookie: cookieOf(response) } });
      await logged.inject({ method: 'POST', url: '/api/session', payload: { email: 'alice@example.com', password: 'wrong-horse' } });
      const text = logs.join('');
      expect(text).toContain('"url":"/api/session"');
      expect(text).not.toContain('correct-horse');
      expect(text).not.toContain('wrong-horse');
      expect(text).not.toContain(token);
    } finally {
      await logged.close();
    }
  });

  it('keeps memberships per service and scope; admins may access every scope', async () => {
    const memberships = new MembershipStore(platform.db);
    const users = new UserStore(platform.db);
    const root = (await users.findByEmail('root@example.com'))!;
    expect(await memberships.add('flows', 'zeta', alice.id)).toBe(true);
    expect(await memberships.add('flows', 'acme', alice.id)).toBe(true);
    expect(await memberships.add('flows', 'acme', alice.id)).toBe(false);
    expect(await memberships.add('tickets', 'DEMO', alice.id)).toBe(true);
    expect(await memberships.scopesOf('flows', alice.id)).toEqual(['acme', 'zeta']);
    expect(await memberships.scopesOf('tickets', alice.id)).toEqual(['DEMO']);
    expect(await memberships.isMember('flows', 'acme', alice.id)).toBe(true);
    expect(await memberships.isMember('tickets', 'acme', alice.id)).toBe(false);
    expect(await memberships.canAccess('flows', 'other', alice)).toBe(false);
    expect(await memberships.canAccess('flows', 'other', root)).toBe(true);
    expect(await memberships.members('flows', 'acme')).toEqual([
      { user_id: alice.id, email: 'alice@example.com', name: 'Alice', role: 'member', added_at: expect.any(String) },
    ]);
    expect(await memberships.remove('flows', 'zeta', alice.id)).toBe(true);
    expect(await memberships.remove('flows', 'zeta', alice.id)).toBe(false);
    expect(await memberships.scopesOf('flows', alice.id)).toEqual(['acme']);
    await expect(users.requireByEmail('ghost@example.com')).rejects.toThrow('No user with email ghost@example.com; create one with `switchboard user create`');
  });
});

describe('the Origin check', () => {
  const request = (headers: Record<string, string>, host = '127.0.0.1:8102', protocol = 'http') => ({ headers, host, protocol }) as unknown as FastifyRequest;
  const check = (headers: Record<string, string>, publicBaseUrl?: string) => {
    try {
      requireSameOrigin(request(headers), publicBaseUrl);
      return 'ok';
    } catch (error) {
      return (error as AppError).status;
    }
  };

  it("accepts the service's own origin and PUBLIC_BASE_URL's, by Origin or else Referer", () => {
    expect(check({ origin: 'http://127.0.0.1:8102' })).toBe('ok');
    expect(check({ referer: 'http://127.0.0.1:8102/orgs/acme/flows?x=1' })).toBe('ok');
    expect(check({ origin: 'https://flows.example.com' }, 'https://flows.example.com/base')).toBe('ok');
    expect(check({ origin: 'https://flows.example.com:443' }, 'https://flows.example.com')).toBe('ok');
  });

  it('refuses a missing, foreign, opaque or malformed origin with 403', () => {
    expect(check({})).toBe(403);
    expect(check({ origin: 'http://127.0.0.1:8103' })).toBe(403);
    expect(check({ origin: 'https://127.0.0.1:8102' })).toBe(403);
    expect(check({ origin: 'null' })).toBe(403);
    expect(check({ origin: 'not a url' })).toBe(403);
    // Origin wins over Referer: a foreign Origin is not rescued by a matching Referer.
    expect(check({ origin: 'https://evil.example', referer: 'http://127.0.0.1:8102/' })).toBe(403);
    expect(check({ referer: 'https://evil.example/' }, 'https://flows.example.com')).toBe(403);
  });
});
