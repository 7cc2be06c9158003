import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { UserStore, openPlatformDatabase, type Database, type PlatformTables } from '@switchboard/core';
import { startHarness, type Harness } from './helpers/harness.ts';

// New organization and Members (web.md, "Administration"): POST /api/orgs and /api/llm/{org_code}/members, admin sessions only.
describe.each(dialectsUnderTest())('organizations and members over the flows API (%s)', (dialect) => {
  let h: Harness;
  let platform: Database<PlatformTables>;
  const cookies: Record<string, string> = {};
  const ids: Record<string, string> = {};

  /** A request as the dashboard sends it: the session cookie, and its own Origin on writes. */
  async function call(who: string | undefined, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const method = init.method ?? 'GET';
    const response = await fetch(`${h.base}${path}`, {
      method,
      headers: {
        ...(who ? { cookie: cookies[who] } : {}),
        ...(method !== 'GET' ? { origin: new URL(h.base).origin } : {}),
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, body: await response.json() };
  }

  async function addUser(name: string, admin = false) {
    const { user } = await new UserStore(platform.db).create({ email: `${name}@example.com`, password: `${name}-password`, admin });
    ids[name] = user.id;
    const response = await fetch(`${h.base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${name}@example.com`, password: `${name}-password` }),
    });
    expect(response.status).toBe(200);
    cookies[name] = response.headers.get('set-cookie')!.split(';')[0];
  }

  beforeAll(async () => {
    h = await startHarness(dialect);
    platform = await openPlatformDatabase(h.db.env);
    await addUser('root', true);
    await addUser('mia');
    await addUser('nia');
  });
  afterAll(async () => {
    await platform?.close();
    await h?.close();
  });

  it('creates an organization: 401 without a session, the 404 of a missing route for a token or a member, 422 naming every problem, 409 when taken, 201', async () => {
    const body = { org_code: 'north', name: 'North office' };
    expect(await call(undefined, '/api/orgs', { method: 'POST', body })).toEqual({
      status: 401,
      body: { error: { message: 'Not signed in', type: 'authentication_error', param: null, code: 'not_signed_in' } },
    });
    expect(await call(undefined, '/api/orgs', { method: 'POST', body, headers: { authorization: `Bearer ${h.manageToken}` } })).toEqual({
      status: 404,
      body: { error: { message: 'Unknown route POST /api/orgs', type: 'not_found_error', param: null, code: 'not_found' } },
    });
    expect(await call('mia', '/api/orgs', { method: 'POST', body })).toEqual({
      status: 404,
      body: { error: { message: 'Unknown route POST /api/orgs', type: 'not_found_error', param: null, code: 'not_found' } },
    });
    expect(await call('root', '/api/orgs', { method: 'POST', body: { org_code: 'North!', name: 'x'.repeat(201) } })).toEqual({
      status: 422,
      body: {
        error: {
          message: 'org_code must be 2 to 40 characters of a-z, 0-9 and - (and 1 more problem)',
          type: 'invalid_request_error',
          param: 'org_code',
          code: 'invalid_input',
          details: [
            { param: 'org_code', message: 'org_code must be 2 to 40 characters of a-z, 0-9 and -' },
            { param: 'name', message: 'name must be at most 200 characters (got 201)' },
          ],
        },
      },
    });
    expect(await call('root', '/api/orgs', { method: 'POST', body: { org_code: h.orgCode } })).toEqual({
      status: 409,
      body: { error: { message: `Organization "${h.orgCode}" already exists`, type: 'invalid_request_error', param: null, code: 'conflict' } },
    });
    expect(await call('root', '/api/orgs', { method: 'POST', body })).toEqual({ status: 201, body: { org_code: 'north', name: 'North office' } });
    expect((await call('root', '/api/session')).body.organizations).toContainEqual({ org_code: 'north', name: 'North office' });
    expect(await call('root', '/api/llm/north/flows')).toMatchObject({ status: 200 });
  });

  it('lists, adds and removes members: a new member sees the organization, a removed one gets 404', async () => {
    const members = `/api/llm/${h.orgCode}/members`;
    expect((await call(undefined, members)).status).toBe(401);
    expect(await call('mia', members)).toEqual({
      status: 404,
      body: { error: { message: `Unknown route GET ${members}`, type: 'not_found_error', param: null, code: 'not_found' } },
    });
    expect(await call('root', '/api/llm/nowhere/members')).toEqual({
      status: 404,
      body: { error: { message: 'Organization "nowhere" not found', type: 'not_found_error', param: 'org_code', code: 'org_not_found' } },
    });
    expect(await call('root', members, { method: 'POST', body: {} })).toMatchObject({
      status: 422,
      body: { error: { message: 'email is required: the email of a user of this deployment', param: 'email', code: 'invalid_input' } },
    });
    expect(await call('root', members, { method: 'POST', body: { email: 'ghost@example.com' } })).toMatchObject({
      status: 422,
      body: {
        error: {
          message: 'No user has the email ghost@example.com: invite them first (or create them with switchboard user create)',
          param: 'email',
          code: 'invalid_input',
        },
      },
    });
    expect((await call('nia', `/api/llm/${h.orgCode}/flows`)).status).toBe(404);
    for (let i = 0; i < 2; i++) {
      // The second time changes nothing and answers the same (as `switchboard flows member add`).
      expect(await call('root', members, { method: 'POST', body: { email: 'nia@example.com' } })).toEqual({
        status: 200,
        body: { email: 'nia@example.com', added: true },
      });
    }
    expect(await call('root', members)).toEqual({
      status: 200,
      body: {
        members: [
          { id: ids.nia, name: 'nia', email: 'nia@example.com', role: 'member' },
          { id: ids.root, name: 'root', email: 'root@example.com', role: 'admin' },
        ],
      },
    });
    expect((await call('nia', '/api/session')).body.organizations).toEqual([{ org_code: h.orgCode, name: expect.any(String) }]);
    expect((await call('nia', `/api/llm/${h.orgCode}/flows`)).status).toBe(200);
    expect(await call('root', `${members}/${ids.nia}`, { method: 'DELETE' })).toEqual({ status: 200, body: { removed: true } });
    expect((await call('nia', `/api/llm/${h.orgCode}/flows`)).status).toBe(404);
    expect(await call('root', `${members}/${ids.nia}`, { method: 'DELETE' })).toEqual({
      status: 404,
      body: { error: { message: `User "${ids.nia}" is not a member of ${h.orgCode}`, type: 'not_found_error', param: null, code: 'not_found' } },
    });
  });
});
