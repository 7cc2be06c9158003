import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { MembershipStore, UserStore, hashSecret, listen, openPlatformDatabase, type App, type Database, type PlatformTables } from '@switchboard/core';
import { buildApp, loadConfig } from '../src/index.ts';
import { startHarness, simpleFlow, type Harness } from './helpers/harness.ts';
import { GREETER_FLOW } from './helpers/greeter-flow.ts';

describe.each(dialectsUnderTest())('web sessions on the flows service (%s)', (dialect) => {
  let h: Harness;
  let platform: Database<PlatformTables>;
  let origin: string;
  const cookies: Record<'admin' | 'member' | 'outsider', string> = { admin: '', member: '', outsider: '' };
  const users: Record<string, { id: string; email: string }> = {};

  /** A request with a session cookie (and no Authorization header). */
  const withCookie = (cookie: string, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${h.base}${path}`, {
      method: init.method ?? 'GET',
      headers: { cookie, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  async function signIn(email: string, password: string): Promise<string> {
    const response = await fetch(`${h.base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(response.status).toBe(200);
    return response.headers.get('set-cookie')!.split(';')[0];
  }

  beforeAll(async () => {
    h = await startHarness(dialect);
    origin = new URL(h.base).origin;
    await h.stores.orgs.createOrg('zeta', 'Zeta Inc');
    await h.stores.orgs.createOrg('beta', 'Beta Ltd');
    platform = await openPlatformDatabase(h.db.env);
    const userStore = new UserStore(platform.db);
    users.admin = (await userStore.create({ email: 'root@example.com', password: 'root-password', admin: true })).user;
    users.member = (await userStore.create({ email: 'mia@example.com', password: 'mia-password' })).user;
    users.outsider = (await userStore.create({ email: 'otto@example.com', password: 'otto-password' })).user;
    const memberships = new MembershipStore(platform.db);
    await memberships.add('flows', 'zeta', users.member.id);
    await memberships.add('flows', 'acme', users.member.id);
    // A membership of another service opens nothing here.
    await memberships.add('tickets', 'beta', users.outsider.id);
    cookies.admin = await signIn('root@example.com', 'root-password');
    cookies.member = await signIn('mia@example.com', 'mia-password');
    cookies.outsider = await signIn('otto@example.com', 'otto-password');
    await h.save(GREETER_FLOW);
  });
  afterAll(async () => {
    await platform?.close();
    await h?.close();
  });

  it('signs in over the flows service with its error shape for wrong credentials', async () => {
    const wrong = await fetch(`${h.base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'mia@example.com', password: 'nope-nope' }),
    });
    const unknown = await fetch(`${h.base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ghost@example.com', password: 'mia-password' }),
    });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: { message: 'Invalid email or password', type: 'authentication_error', param: null, code: 'invalid_credentials' },
      });
    }
    const bad = await fetch(`${h.base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'mia@example.com' }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    const response = await fetch(`${h.base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'mia@example.com', password: 'mia-password' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ user: { id: users.member.id, email: 'mia@example.com', name: 'mia', role: 'member' } });
    expect(response.headers.get('set-cookie')).toMatch(/^sb_session=[A-Za-z0-9_-]{43}; Max-Age=1209600; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('GET /api/session lists the organizations the user may see, sorted by org_code', async () => {
    const admin = await withCookie(cookies.admin, '/api/session');
    expect(admin.status).toBe(200);
    expect(await admin.json()).toEqual({
      user: { id: users.admin.id, email: 'root@example.com', name: 'root', role: 'admin' },
      organizations: [
        { org_code: 'acme', name: 'Acme' },
        { org_code: 'beta', name: 'Beta Ltd' },
        { org_code: 'zeta', name: 'Zeta Inc' },
      ],
    });
    expect(await (await withCookie(cookies.member, '/api/session')).json()).toEqual({
      user: { id: users.member.id, email: 'mia@example.com', name: 'mia', role: 'member' },
      organizations: [
        { org_code: 'acme', name: 'Acme' },
        { org_code: 'zeta', name: 'Zeta Inc' },
      ],
    });
    expect(((await (await withCookie(cookies.outsider, '/api/session')).json()) as { organizations: unknown[] }).organizations).toEqual([]);
    const anonymous = await fetch(`${h.base}/api/session`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: { message: 'Not signed in', type: 'authentication_error', param: null, code: 'not_signed_in' } });
  });

  it('lets an admin use every organization and a member theirs; a non-member gets the 404 of an unknown organization', async () => {
    const adminAcme = await withCookie(cookies.admin, '/api/llm/acme/flows');
    expect(adminAcme.status).toBe(200);
    expect(((await adminAcme.json()) as { flows: Array<{ slug: string }> }).flows.map((f) => f.slug)).toEqual(['greeter']);
    expect((await withCookie(cookies.admin, '/api/llm/beta/flows')).status).toBe(200);
    expect((await withCookie(cookies.member, '/api/llm/acme/tokens')).status).toBe(200);
    expect((await withCookie(cookies.member, '/api/llm/zeta/flows')).status).toBe(200);

    const notFound = (code: string) => ({
      error: { message: `Organization "${code}" not found`, type: 'not_found_error', param: 'org_code', code: 'org_not_found' },
    });
    const hidden = await withCookie(cookies.member, '/api/llm/beta/flows');
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual(notFound('beta'));
    const unknown = await withCookie(cookies.member, '/api/llm/nowhere/flows');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(notFound('nowhere'));
    const adminUnknown = await withCookie(cookies.admin, '/api/llm/nowhere/flows');
    expect(adminUnknown.status).toBe(404);
    expect(await adminUnknown.json()).toEqual(notFound('nowhere'));
    // A membership in the ticket board opens no flows organization of the same name.
    const outsider = await withCookie(cookies.outsider, '/api/llm/beta/runs');
    expect(outsider.status).toBe(404);
    expect(await outsider.json()).toEqual(notFound('beta'));
    // Writes too, even from the right Origin.
    const write = await withCookie(cookies.outsider, '/api/llm/beta/flows', { method: 'POST', body: GREETER_FLOW, headers: { origin } });
    expect(write.status).toBe(404);
    expect(await write.json()).toEqual(notFound('beta'));
  });

  it('refuses a cookie write without Origin or with a foreign one (403), and accepts it from its own origin', async () => {
    const permission = (message: string) => ({ error: { message, type: 'permission_error', param: null, code: 'permission_denied' } });
    const bare = await withCookie(cookies.member, '/api/llm/acme/tokens', { method: 'POST', body: { name: 'ui', scope: 'run' } });
    expect(bare.status).toBe(403);
    expect(await bare.json()).toEqual(
      permission('Origin did not match: a signed-in request that changes something must carry an Origin (or Referer) header of this service'),
    );
    const foreign = await withCookie(cookies.member, '/api/llm/acme/tokens', {
      method: 'POST',
      body: { name: 'ui', scope: 'run' },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual(permission('Origin did not match: Origin "https://evil.example" is not this service\'s origin'));
    const foreignDelete = await withCookie(cookies.member, '/api/llm/acme/flows/greeter', {
      method: 'DELETE',
      headers: { referer: 'https://evil.example/page' },
    });
    expect(foreignDelete.status).toBe(403);
    expect((await h.get('/api/llm/acme/flows/greeter')).status).toBe(200);
    const tokensBefore = await h.stores.orgs.listTokens((await h.stores.orgs.findOrg('acme'))!.id);
    expect(tokensBefore.map((t) => t.name)).not.toContain('ui');

    const created = await withCookie(cookies.member, '/api/llm/acme/tokens', { method: 'POST', body: { name: 'ui', scope: 'run' }, headers: { origin } });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    // The token made in the UI works like any other.
    const run = await h.post('/api/llm/acme/flows/greeter/run', { input: { who: 'UI' } }, token);
    expect(await run.text()).toBe('Hello UI');
    const viaReferer = await withCookie(cookies.member, '/api/llm/acme/flows', {
      method: 'POST',
      body: { ...GREETER_FLOW, slug: 'greeter-2' },
      headers: { referer: `${origin}/orgs/acme/flows` },
    });
    expect(viaReferer.status).toBe(201);
  });

  it('counts a session as a manage token: it may run flows too', async () => {
    const run = await withCookie(cookies.member, '/api/llm/acme/flows/greeter/run', { method: 'POST', body: { input: { who: 'Mia' } }, headers: { origin } });
    expect(run.status).toBe(200);
    expect(await run.text()).toBe('Hello Mia');
    expect((await h.get(`/api/llm/acme/runs/${run.headers.get('x-run-id')}`)).status).toBe(200);
  });

  it('leaves Bearer requests as they were: no Origin needed, and never a fall-back to the cookie', async () => {
    const bearerWrite = await h.post('/api/llm/acme/tokens', { name: 'script', scope: 'run' });
    expect(bearerWrite.status).toBe(201);
    const badBearer = await fetch(`${h.base}/api/llm/acme/flows`, { headers: { authorization: 'Bearer sbf_not-a-real-token', cookie: cookies.admin } });
    expect(badBearer.status).toBe(401);
    expect(await badBearer.json()).toEqual({
      error: { message: 'Invalid or revoked token', type: 'authentication_error', param: null, code: 'invalid_api_key' },
    });
    const otherScheme = await fetch(`${h.base}/api/llm/acme/flows`, { headers: { authorization: 'Basic eDp5', cookie: cookies.admin } });
    expect(otherScheme.status).toBe(401);
    // A token of acme with the admin's cookie: still the token's rules (another organization is 403).
    const tokenElsewhere = await fetch(`${h.base}/api/llm/zeta/flows`, { headers: { authorization: `Bearer ${h.manageToken}`, cookie: cookies.admin } });
    expect(tokenElsewhere.status).toBe(403);
    const anonymous = await fetch(`${h.base}/api/llm/acme/flows`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
  });

  it('refuses an expired or signed-out session with 401 not_signed_in', async () => {
    const cookie = await signIn('mia@example.com', 'mia-password');
    expect((await withCookie(cookie, '/api/llm/acme/flows')).status).toBe(200);
    await platform.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashSecret(cookie.split('=')[1]))
      .execute();
    const expired = await withCookie(cookie, '/api/llm/acme/flows');
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({
      error: {
        message: 'Not signed in: the session expired or was signed out; sign in again',
        type: 'authentication_error',
        param: null,
        code: 'not_signed_in',
      },
    });
    const other = await signIn('mia@example.com', 'mia-password');
    const out = await withCookie(other, '/api/session', { method: 'DELETE', headers: { origin } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toBe('sb_session=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax');
    expect((await withCookie(other, '/api/llm/acme/flows')).status).toBe(401);
  });

  it('names the signed-in user as the actor, with no token id', async () => {
    const app = await buildApp(loadConfig({ ...h.db.env, LOG_LEVEL: 'silent' }));
    try {
      app.get('/test/principal/:org_code', { config: { scope: 'manage' } }, async (request) => request.principal);
      const response = await app.inject({ method: 'GET', url: '/test/principal/acme', headers: { cookie: cookies.member } });
      expect(response.statusCode).toBe(200);
      const org = (await h.stores.orgs.findOrg('acme'))!;
      expect(response.json()).toEqual({
        tokenId: null,
        actor: 'user:mia@example.com',
        scope: 'manage',
        orgId: org.id,
        orgCode: 'acme',
        providersVersion: org.providersVersion,
      });
    } finally {
      await app.close();
    }
  });

  it('works on a second instance on the same database, and counts the rate limit per user', async () => {
    // Fresh users and token: on PostgreSQL the counters are shared with the first instance's earlier requests.
    // A day's window: a minute's fixed window could turn between the second and third request (it did once, in CI).
    const userStore = new UserStore(platform.db);
    const memberships = new MembershipStore(platform.db);
    for (const email of ['rita@example.com', 'sam@example.com']) {
      const { user } = await userStore.create({ email, password: 'pass-word-one' });
      await memberships.add('flows', 'acme', user.id);
    }
    const rita = await signIn('rita@example.com', 'pass-word-one');
    const sam = await signIn('sam@example.com', 'pass-word-one');
    const { token } = await h.stores.orgs.createToken((await h.stores.orgs.findOrg('acme'))!.id, { scope: 'manage', name: 'fresh' });
    const app: App = await buildApp(loadConfig({ ...h.db.env, LOG_LEVEL: 'silent', FLOWS_RATE_LIMIT: '2/d' }));
    try {
      const base = await listen(app, '127.0.0.1', 0);
      const get = (cookie: string) => fetch(`${base}/api/llm/acme/flows`, { headers: { cookie } });
      expect((await get(rita)).status).toBe(200);
      expect((await get(rita)).status).toBe(200);
      const limited = await get(rita);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await limited.json()) as { error: { message: string } }).error.message).toBe('Rate limit of 2 requests per 86400 s exceeded for this user');
      // Another user, and the organization's tokens, have their own counts.
      expect((await get(sam)).status).toBe(200);
      expect((await fetch(`${base}/api/llm/acme/flows`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      app.server.closeAllConnections();
      await app.close();
    }
  });

  it('answers 429 with Retry-After in the flows shape after 10 failed sign-ins', async () => {
    const attempt = (password: string) =>
      fetch(`${h.base}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'otto@example.com', password }),
      });
    // Earlier tests' failures from this address (127.0.0.1) may lock it before the tenth: 401 until then, 429 after.
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await attempt(`wrong-${i}`)).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(401));
    expect(statuses.every((status, i) => status === 401 || (status === 429 && i >= 8))).toBe(true);
    const locked = await attempt('otto-password');
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(50);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await locked.json()).toEqual({
      error: { message: `Too many failed sign-ins: try again in ${retryAfter} s`, type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' },
    });
  });

  it('still serves simple flows to run tokens (unchanged)', async () => {
    const slug = await h.save(simpleFlow({ slug: 'plain', format: 'raw', model: 'reply:ok' }));
    expect(await (await h.post(`/api/llm/acme/flows/${slug}/run`, { input: { question: 'q' } }, h.runToken)).text()).toBe('ok');
  });
});
