// Administering people (web.md, "Administration"): the admin API, invitation links, a person's own account.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  AuthorizationServer,
  UserStore,
  createHttpServer,
  createLogger,
  fromFrameworkError,
  hashSecret,
  issueSecret,
  openPlatformDatabase,
  registerPeopleRoutes,
  registerSessionRoutes,
  type App,
  type Database,
  type PlatformTables,
} from '../src/index.ts';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '../src/testing.ts';

const ORIGIN = 'http://localhost';
const START = Date.parse('2030-01-01T00:00:00.000Z');
const DAY = 86_400_000;
const INVALID_LINK = { error: { code: 'not_found', message: 'This invitation link is invalid or has expired' } };

/** A service with the session and people routes, the ticket board's error shape and its 404 for a missing route. */
async function peopleApp(platform: Database<PlatformTables>, clock: { now: () => Date }, logs: string[]): Promise<App> {
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(String(chunk));
      callback();
    },
  });
  const app = createHttpServer({ logger: createLogger({ service: 'test', level: 'trace', destination }), bodyLimit: 4096 });
  app.setErrorHandler((error, _request, reply) => {
    const known = fromFrameworkError(error) ?? new AppError('internal', 'Internal error');
    if (known.retryAfter !== undefined) reply.header('retry-after', String(known.retryAfter));
    reply.code(known.status).send({ error: { code: known.code, message: known.message, ...(known.details ? { details: known.details } : {}) } });
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ error: { code: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}.` } });
  });
  const web = await registerSessionRoutes(app, { platform, publicBaseUrl: undefined, now: clock.now });
  registerPeopleRoutes(app, { platform: platform.db, web });
  return app;
}

const cookieOf = (response: { headers: Record<string, unknown> }) => String(response.headers['set-cookie']).split(';')[0];

describe.each(dialectsUnderTest())('people administration on %s', (dialect) => {
  let test: TestDatabase;
  let platform: Database<PlatformTables>;
  let app: App;
  let address = 0;
  let ms = START;
  const clock = { now: () => new Date(ms) };
  const logs: string[] = [];
  const ids = { root: '', member: '' };
  const cookies = { root: '', member: '' };
  const call = (method: string, url: string, cookie: string | undefined, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method: method as 'GET',
      url,
      payload: payload as object,
      remoteAddress: `10.1.${Math.floor(++address / 250)}.${(address % 250) + 1}`,
      headers: { ...(cookie ? { cookie } : {}), ...(method === 'GET' ? {} : { origin: ORIGIN }), ...headers },
    });
  const signIn = async (email: string, password: string) => {
    const response = await call('POST', '/api/session', undefined, { email, password });
    expect(response.statusCode, response.body).toBe(200);
    return cookieOf(response);
  };
  const invite = async (email: string, name: string, admin = false) => {
    const response = await call('POST', '/api/admin/users', cookies.root, { email, name, admin });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { user: { id: string }; invitation: { url: string; expires_at: string } };
  };
  const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

  beforeAll(async () => {
    test = await createTestDatabase(dialect);
    platform = await openPlatformDatabase(test.env);
    const users = new UserStore(platform.db);
    ids.root = (await users.create({ email: 'root@example.com', password: 'root-password', admin: true, name: 'Root' })).user.id;
    ids.member = (await users.create({ email: 'mia@example.com', password: 'mia-password', name: 'Mia' })).user.id;
    app = await peopleApp(platform, clock, logs);
    cookies.root = await signIn('root@example.com', 'root-password');
    cookies.member = await signIn('mia@example.com', 'mia-password');
  });
  afterAll(async () => {
    await app?.close();
    await platform?.close();
    await test?.cleanup();
  });

  it("answers 401 without a session, and a missing route's 404 to a member and to a bearer token", async () => {
    expect((await call('GET', '/api/admin/users', undefined)).json()).toEqual({ error: { code: 'not_signed_in', message: 'Not signed in' } });
    expect((await call('GET', '/api/admin/users', undefined)).statusCode).toBe(401);
    const routes: Array<[string, string]> = [
      ['GET', '/api/admin/users'],
      ['POST', '/api/admin/users'],
      ['PATCH', `/api/admin/users/${ids.root}`],
      ['POST', `/api/admin/users/${ids.root}/invitation`],
    ];
    for (const [method, url] of routes) {
      const member = await call(method, url, cookies.member, method === 'GET' ? undefined : { name: 'x' });
      expect(member.statusCode).toBe(404);
      expect(member.json()).toEqual({ error: { code: 'not_found', message: `No route ${method} ${url}.` } });
      const bearer = await call(method, url, cookies.root, undefined, { authorization: 'Bearer sbt_whatever' });
      expect(bearer.statusCode).toBe(404);
      expect(bearer.json()).toEqual(member.json());
    }
    // The same body as a route that does not exist at all.
    expect((await call('GET', '/api/admin/nothing', cookies.root)).json()).toEqual({
      error: { code: 'not_found', message: 'No route GET /api/admin/nothing.' },
    });
  });

  it('invites a person: 403 without Origin, 422 naming every problem, 409 for a taken email, 201 with a link', async () => {
    const noOrigin = await app.inject({ method: 'POST', url: '/api/admin/users', headers: { cookie: cookies.root }, payload: { email: 'a@b.c', name: 'A' } });
    expect(noOrigin.statusCode).toBe(403);
    const bad = await call('POST', '/api/admin/users', cookies.root, { email: 'not-an-email', admin: 'yes' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({
      error: {
        code: 'validation_failed',
        message: 'email: must be an email address; name: is required; admin: must be a boolean',
        details: {
          problems: [
            { field: 'email', message: 'must be an email address' },
            { field: 'name', message: 'is required' },
            { field: 'admin', message: 'must be a boolean' },
          ],
        },
      },
    });
    const taken = await call('POST', '/api/admin/users', cookies.root, { email: 'MIA@Example.com', name: 'Mia again' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: { code: 'conflict', message: 'A user with the email mia@example.com already exists' } });
    const created = await call('POST', '/api/admin/users', cookies.root, { email: ' Zoe@Example.com ', name: ' Zoe ' });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body.user).toEqual({
      id: expect.any(String),
      email: 'zoe@example.com',
      name: 'Zoe',
      role: 'member',
      disabled: false,
      pending: true,
      created_at: new Date(ms).toISOString(),
    });
    expect(body.invitation).toEqual({
      url: expect.stringMatching(/^http:\/\/localhost(:80)?\/invite\/sbi_[A-Za-z0-9_-]{43}$/),
      expires_at: new Date(ms + 7 * DAY).toISOString(),
    });
    const token = tokenOf(body.invitation.url);
    const stored = await platform.db.selectFrom('invitations').selectAll().where('user_id', '=', body.user.id).execute();
    expect(stored).toEqual([
      {
        token_hash: hashSecret(token),
        user_id: body.user.id,
        created_by: ids.root,
        created_at: new Date(ms).toISOString(),
        expires_at: body.invitation.expires_at,
        used_at: null,
      },
    ]);
    // An invited person has no password: no sign-in works for them until the link is used.
    expect((await call('POST', '/api/session', undefined, { email: 'zoe@example.com', password: '' })).statusCode).toBe(400);
  });

  it('lists every user by email with role, disabled and pending', async () => {
    const response = await call('GET', '/api/admin/users', cookies.root);
    expect(response.statusCode).toBe(200);
    const users = response.json().users as Array<{ email: string; role: string; disabled: boolean; pending: boolean }>;
    expect(users.map((u) => [u.email, u.role, u.disabled, u.pending])).toEqual([
      ['mia@example.com', 'member', false, false],
      ['root@example.com', 'admin', false, false],
      ['zoe@example.com', 'member', false, true],
    ]);
  });

  it('accepts a link once: whom it is for, 422 for a short password, then signed in; used, forged and expired links get the same 404', async () => {
    const { user, invitation } = await invite('lea@example.com', 'Léa');
    const token = tokenOf(invitation.url);
    const shown = await call('GET', `/api/invitations/${token}`, undefined);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({ email: 'lea@example.com', name: 'Léa' });
    const short = await call('POST', `/api/invitations/${token}`, undefined, { password: 'short-pass' });
    expect(short.statusCode).toBe(422);
    expect(short.json().error.message).toBe('password: must be at least 12 characters');
    const foreign = await call('POST', `/api/invitations/${token}`, undefined, { password: 'a-long-password' }, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    const accepted = await call('POST', `/api/invitations/${token}`, undefined, { password: 'a-long-password' });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ user: { id: user.id, email: 'lea@example.com', name: 'Léa', role: 'member' } });
    expect(String(accepted.headers['set-cookie'])).toMatch(/^sb_session=[A-Za-z0-9_-]{43}; Max-Age=1209600; Path=\/; HttpOnly; SameSite=Lax$/);
    const session = await call('GET', '/api/session', cookieOf(accepted));
    expect(session.json().user.email).toBe('lea@example.com');
    expect(await signIn('lea@example.com', 'a-long-password')).toMatch(/^sb_session=/);
    for (const [method, used] of [
      ['GET', token],
      ['POST', token],
      ['GET', `sbi_${'A'.repeat(43)}`],
      ['POST', 'forged'],
    ]) {
      const again = await call(method, `/api/invitations/${used}`, undefined, method === 'POST' ? { password: 'another-long-password' } : undefined);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual(INVALID_LINK);
    }
    const list = (await call('GET', '/api/admin/users', cookies.root)).json().users as Array<{ email: string; pending: boolean }>;
    expect(list.find((u) => u.email === 'lea@example.com')?.pending).toBe(false);
  });

  it('refuses a link 7 days after it was made (the clock moves; nothing sleeps)', async () => {
    const { invitation } = await invite('old@example.com', 'Old');
    const token = tokenOf(invitation.url);
    ms += 7 * DAY - 1;
    expect((await call('GET', `/api/invitations/${token}`, undefined)).statusCode).toBe(200);
    ms += 1;
    const expired = await call('POST', `/api/invitations/${token}`, undefined, { password: 'a-long-password' });
    expect(expired.statusCode).toBe(404);
    expect(expired.json()).toEqual(INVALID_LINK);
  });

  it('makes a new link as a password reset: the earlier link stops working, and using it ends the other sessions', async () => {
    const { user, invitation: first } = await invite('ben@example.com', 'Ben');
    const again = await call('POST', `/api/admin/users/${user.id}/invitation`, cookies.root);
    expect(again.statusCode).toBe(201);
    const second = again.json().invitation;
    expect(second.expires_at).toBe(new Date(ms + 7 * DAY).toISOString());
    expect((await call('GET', `/api/invitations/${tokenOf(first.url)}`, undefined)).json()).toEqual(INVALID_LINK);
    expect((await call('POST', `/api/invitations/${tokenOf(second.url)}`, undefined, { password: 'bens-first-password' })).statusCode).toBe(200);
    const elsewhere = await signIn('ben@example.com', 'bens-first-password');
    const reset = (await call('POST', `/api/admin/users/${user.id}/invitation`, cookies.root)).json().invitation;
    const accepted = await call('POST', `/api/invitations/${tokenOf(reset.url)}`, undefined, { password: 'bens-second-password' });
    expect(accepted.statusCode).toBe(200);
    expect((await call('GET', '/api/session', elsewhere)).statusCode).toBe(401);
    expect((await call('GET', '/api/session', cookieOf(accepted))).statusCode).toBe(200);
    expect((await call('POST', '/api/session', undefined, { email: 'ben@example.com', password: 'bens-first-password' })).statusCode).toBe(401);
    expect((await call('POST', '/api/admin/users/nobody/invitation', cookies.root)).json()).toEqual({
      error: { code: 'not_found', message: 'No user with id nobody' },
    });
  });

  it('changes a person: 404, 422, an admin cannot disable or demote themselves (409), make admin, rename', async () => {
    expect((await call('PATCH', '/api/admin/users/nobody', cookies.root, { admin: true })).statusCode).toBe(404);
    const empty = await call('PATCH', `/api/admin/users/${ids.member}`, cookies.root, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error.message).toBe('give at least one of name, admin, disabled');
    const wrong = await call('PATCH', `/api/admin/users/${ids.member}`, cookies.root, { disabled: 'no', name: '' });
    expect(wrong.json().error.message).toBe('name: must not be empty; disabled: must be a boolean');
    const selfDisable = await call('PATCH', `/api/admin/users/${ids.root}`, cookies.root, { disabled: true });
    expect(selfDisable.statusCode).toBe(409);
    expect(selfDisable.json()).toEqual({ error: { code: 'conflict', message: 'You cannot disable yourself: ask another admin to do it' } });
    const selfDemote = await call('PATCH', `/api/admin/users/${ids.root}`, cookies.root, { admin: false });
    expect(selfDemote.json()).toEqual({ error: { code: 'conflict', message: 'You cannot remove your own admin role: ask another admin to do it' } });
    const rename = await call('PATCH', `/api/admin/users/${ids.root}`, cookies.root, { name: 'Root Admin' });
    expect(rename.json().user).toMatchObject({ name: 'Root Admin', role: 'admin' });
    const promoted = await call('PATCH', `/api/admin/users/${ids.member}`, cookies.root, { admin: true });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json().user).toMatchObject({ id: ids.member, role: 'admin', disabled: false, pending: false });
    expect((await call('GET', '/api/admin/users', cookies.member)).statusCode).toBe(200);
    expect((await call('PATCH', `/api/admin/users/${ids.member}`, cookies.root, { admin: false })).json().user.role).toBe('member');
    expect((await call('GET', '/api/admin/users', cookies.member)).statusCode).toBe(404);
  });

  it('disables a person: their old cookie is refused at once, sign-in and their link fail; enabling lets them sign in again', async () => {
    const { user, invitation } = await invite('dan@example.com', 'Dan');
    const pendingLink = tokenOf(invitation.url);
    const reset = (await call('POST', `/api/admin/users/${ids.member}/invitation`, cookies.root)).json().invitation;
    const second = await signIn('mia@example.com', 'mia-password');
    const disabled = await call('PATCH', `/api/admin/users/${ids.member}`, cookies.root, { disabled: true });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().user).toMatchObject({ disabled: true });
    for (const cookie of [cookies.member, second]) {
      expect((await call('GET', '/api/session', cookie)).json()).toEqual({ error: { code: 'not_signed_in', message: 'Not signed in' } });
    }
    expect((await call('POST', '/api/session', undefined, { email: 'mia@example.com', password: 'mia-password' })).statusCode).toBe(401);
    expect((await call('GET', `/api/invitations/${tokenOf(reset.url)}`, undefined)).json()).toEqual(INVALID_LINK);
    const noLink = await call('POST', `/api/admin/users/${ids.member}/invitation`, cookies.root);
    expect(noLink.statusCode).toBe(409);
    expect(noLink.json().error.message).toBe('mia@example.com is disabled: enable them before making a new invitation link');
    // A pending person disabled: their link stops working too.
    await call('PATCH', `/api/admin/users/${user.id}`, cookies.root, { disabled: true });
    expect((await call('GET', `/api/invitations/${pendingLink}`, undefined)).json()).toEqual(INVALID_LINK);
    const enabled = await call('PATCH', `/api/admin/users/${ids.member}`, cookies.root, { disabled: false });
    expect(enabled.json().user).toMatchObject({ disabled: false });
    cookies.member = await signIn('mia@example.com', 'mia-password');
  });

  it("disabling revokes the person's OAuth grants: their access and refresh tokens are refused on the next use", async () => {
    const server = new AuthorizationServer({
      platform: platform.db,
      spec: {
        service: 'tickets',
        realm: 'test',
        title: 'the test',
        endpoints: [{ path: '/mcp' }],
        levels: [],
        scopeNoun: 'project',
        grantsPlace: '',
        choices: async () => [],
      },
      documents: { policy: { allowAll: true } } as never,
      now: clock.now,
    });
    const stamp = new Date(ms).toISOString();
    const later = new Date(ms + DAY).toISOString();
    const access = issueSecret('sbo_');
    const refresh = issueSecret('sbr_');
    await platform.db
      .insertInto('oauth_grants')
      .values({
        id: 'grant-1',
        user_id: ids.member,
        client_id: 'client',
        client_name: 'Agent',
        service: 'tickets',
        scope_key: 'DEMO',
        resource: 'http://localhost/mcp',
        scope: 'tickets:read',
        created_at: stamp,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    await platform.db
      .insertInto('oauth_tokens')
      .values([
        { token_hash: access.hash, grant_id: 'grant-1', kind: 'access', created_at: stamp, expires_at: later, used_at: null },
        { token_hash: refresh.hash, grant_id: 'grant-1', kind: 'refresh', created_at: stamp, expires_at: later, used_at: null },
      ])
      .execute();
    expect((await server.verifyAccessToken(access.value))?.user.email).toBe('mia@example.com');
    expect((await call('PATCH', `/api/admin/users/${ids.member}`, cookies.root, { disabled: true })).statusCode).toBe(200);
    expect(await server.verifyAccessToken(access.value)).toBeUndefined();
    await expect(server.tokens.refresh({ grant_type: 'refresh_token', client_id: 'client', refresh_token: refresh.value })).rejects.toMatchObject({
      code: 'invalid_grant',
    });
    await call('PATCH', `/api/admin/users/${ids.member}`, cookies.root, { disabled: false });
    // Enabling does not bring a revoked grant back: the person signs the client in again.
    expect(await server.verifyAccessToken(access.value)).toBeUndefined();
    cookies.member = await signIn('mia@example.com', 'mia-password');
  });

  it('Account: a person renames themselves and changes their password; the other sessions end, this one stays', async () => {
    expect((await call('PATCH', '/api/account', undefined, { name: 'X' })).statusCode).toBe(401);
    const renamed = await call('PATCH', '/api/account', cookies.member, { name: '  Mia Rossi ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ user: { id: ids.member, email: 'mia@example.com', name: 'Mia Rossi', role: 'member' } });
    expect((await call('PATCH', '/api/account', cookies.member, { name: 'X' }, { origin: 'https://evil.example' })).statusCode).toBe(403);
    const other = await signIn('mia@example.com', 'mia-password');
    const wrong = await call('POST', '/api/account/password', cookies.member, { current_password: 'not-it', new_password: 'mias-new-password' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({
      error: {
        code: 'validation_failed',
        message: 'current_password: is not your current password',
        details: { problems: [{ field: 'current_password', message: 'is not your current password' }] },
      },
    });
    const short = await call('POST', '/api/account/password', cookies.member, { current_password: 'mia-password', new_password: 'too-short' });
    expect(short.statusCode).toBe(422);
    expect(short.json().error.message).toBe('new_password: must be at least 12 characters');
    const changed = await call('POST', '/api/account/password', cookies.member, { current_password: 'mia-password', new_password: 'mias-new-password' });
    expect(changed.statusCode).toBe(204);
    expect((await call('GET', '/api/session', other)).statusCode).toBe(401);
    expect((await call('GET', '/api/session', cookies.member)).json().user.name).toBe('Mia Rossi');
    expect((await call('POST', '/api/session', undefined, { email: 'mia@example.com', password: 'mia-password' })).statusCode).toBe(401);
    expect(await signIn('mia@example.com', 'mias-new-password')).toMatch(/^sb_session=/);
  });

  it('logs every change with the acting user, the action and the target, and never a token or a password', async () => {
    const { user, invitation } = await invite('log@example.com', 'Logged');
    const token = tokenOf(invitation.url);
    await call('GET', `/invite/${token}`, undefined);
    await call('POST', `/api/invitations/${token}`, undefined, { password: 'a-secret-password-1' });
    const audit = logs.map((line) => JSON.parse(line)).filter((line) => line.audit);
    expect(audit.find((line) => line.audit.action === 'user.invite' && line.audit.target.id === user.id)).toMatchObject({
      level: 30,
      audit: { action: 'user.invite', actor: { id: ids.root, email: 'root@example.com' }, target: { id: user.id, email: 'log@example.com' } },
    });
    const actions = new Set(audit.map((line) => line.audit.action));
    for (const action of [
      'user.disable',
      'user.enable',
      'user.make_admin',
      'user.remove_admin',
      'user.rename',
      'user.new_invitation',
      'invitation.accept',
      'account.rename',
      'account.change_password',
    ])
      expect(actions, action).toContain(action);
    const all = logs.join('\n');
    expect(all).not.toContain(token);
    expect(all).not.toContain(token.slice(4));
    for (const secret of ['a-secret-password-1', 'mias-new-password', 'a-long-password', 'bens-second-password']) expect(all).not.toContain(secret);
  });

  it('rate-limits link guesses from one address like sign-ins: 429 with Retry-After, then a minute later it works again', async () => {
    const { invitation } = await invite('guess@example.com', 'Guess');
    const guess = (token: string) => app.inject({ method: 'GET', url: `/api/invitations/${token}`, remoteAddress: '10.9.9.9' });
    for (let i = 0; i < 10; i++) expect((await guess(`sbi_${'x'.repeat(43)}${i}`)).statusCode).toBe(404);
    const limited = await guess(tokenOf(invitation.url));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    ms += 60_000;
    expect((await guess(tokenOf(invitation.url))).statusCode).toBe(200);
  });
});
