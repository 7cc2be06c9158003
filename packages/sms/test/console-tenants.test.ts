import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { consoleCall, signedInUser, type SignedIn } from './console-helpers.ts';
import { startService, type TestService } from './helpers.ts';

// New organization and Members (web.md, "Administration"): POST /api/orgs and /api/orgs/{org_id}/members, admin sessions only.
describe.each(dialectsUnderTest())('organizations and members in the console API on %s', (dialect) => {
  let service: TestService;
  let admin: SignedIn;
  let member: SignedIn;

  beforeAll(async () => {
    service = await startService(dialect);
    admin = await signedInUser(service, 'admin@example.com', { admin: true });
    member = await signedInUser(service, 'member@example.com', { memberOf: ['acme'] });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('creates an organization: 401 without a session, 404 for a key or a member, 422 naming every problem, 409 when taken, 201', async () => {
    const body = { org_id: 'north', name: 'North office' };
    expect(await consoleCall(service, undefined, '/api/orgs', { method: 'POST', body })).toEqual({ status: 401, body: { detail: 'Not signed in' } });
    expect(await consoleCall(service, undefined, '/api/orgs', { method: 'POST', body, headers: { authorization: `Bearer ${service.key}` } })).toEqual({
      status: 404,
      body: { detail: 'Not Found' },
    });
    expect(await consoleCall(service, member.cookie, '/api/orgs', { method: 'POST', body })).toEqual({ status: 404, body: { detail: 'Not Found' } });
    expect(await consoleCall(service, admin.cookie, '/api/orgs', { method: 'POST', body, origin: 'https://evil.example' })).toMatchObject({ status: 403 });
    expect(await consoleCall(service, admin.cookie, '/api/orgs', { method: 'POST', body: { org_id: 'North Office', name: 42, key: 'x' } })).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'org_id'],
            msg: 'org_id must be 1 to 64 characters of a-z, 0-9, _ and -, starting with a letter or digit',
            input: null,
          },
          { type: 'value_error', loc: ['body', 'name'], msg: 'name must be a string', input: null },
          { type: 'value_error', loc: ['body', 'key'], msg: 'Unknown field key: expected org_id, name', input: null },
        ],
      },
    });
    expect(await consoleCall(service, admin.cookie, '/api/orgs', { method: 'POST', body: { org_id: 'acme' } })).toEqual({
      status: 409,
      body: { detail: 'organization acme already exists' },
    });
    expect(await consoleCall(service, admin.cookie, '/api/orgs', { method: 'POST', body })).toEqual({
      status: 201,
      body: { org_id: 'north', name: 'North office' },
    });
    expect((await consoleCall(service, admin.cookie, '/api/session')).body.organizations).toEqual([
      { org_id: 'acme', name: 'Acme' },
      { org_id: 'north', name: 'North office' },
    ]);
    // Made without a key: the Keys page makes them, shown once.
    expect(await consoleCall(service, admin.cookie, '/api/orgs/north/keys')).toEqual({ status: 200, body: { keys: [] } });
    const logged = service.logs.map((line) => JSON.parse(line)).find((entry) => entry.event === 'organization_created');
    expect(logged).toMatchObject({ actor: 'user:admin@example.com', actor_id: admin.id, service: 'sms', tenant: 'north', msg: 'organization created' });
  });

  it('lists, adds and removes members: a new member sees the organization, a removed one gets 404', async () => {
    const newcomer = await signedInUser(service, 'nia@example.com');
    const members = '/api/orgs/acme/members';
    expect(await consoleCall(service, undefined, members)).toEqual({ status: 401, body: { detail: 'Not signed in' } });
    expect(await consoleCall(service, member.cookie, members)).toEqual({ status: 404, body: { detail: 'Not Found' } });
    expect(await consoleCall(service, admin.cookie, '/api/orgs/nowhere/members')).toEqual({ status: 404, body: { detail: 'Organization not found' } });
    expect(await consoleCall(service, admin.cookie, members, { method: 'POST', body: { email: 'ghost@example.com' } })).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'email'],
            msg: 'No user has the email ghost@example.com: invite them first (or create them with switchboard user create)',
            input: null,
          },
        ],
      },
    });
    expect(await consoleCall(service, newcomer.cookie, '/api/orgs/acme/conversations')).toEqual({ status: 404, body: { detail: 'Organization not found' } });
    expect(await consoleCall(service, admin.cookie, members, { method: 'POST', body: { email: 'NIA@example.com' } })).toEqual({
      status: 200,
      body: { email: 'nia@example.com', added: true },
    });
    // Again: nothing changes, the same answer (as `switchboard sms member add`).
    expect(await consoleCall(service, admin.cookie, members, { method: 'POST', body: { email: 'nia@example.com' } })).toEqual({
      status: 200,
      body: { email: 'nia@example.com', added: true },
    });
    expect(await consoleCall(service, admin.cookie, members)).toEqual({
      status: 200,
      body: {
        members: [
          { id: admin.id, name: 'admin', email: 'admin@example.com', role: 'admin' },
          { id: member.id, name: 'member', email: 'member@example.com', role: 'member' },
          { id: newcomer.id, name: 'nia', email: 'nia@example.com', role: 'member' },
        ],
      },
    });
    expect((await consoleCall(service, newcomer.cookie, '/api/orgs/acme/conversations')).status).toBe(200);
    expect(await consoleCall(service, admin.cookie, `${members}/${newcomer.id}`, { method: 'DELETE' })).toEqual({ status: 200, body: { removed: true } });
    expect(await consoleCall(service, newcomer.cookie, '/api/orgs/acme/conversations')).toEqual({ status: 404, body: { detail: 'Organization not found' } });
    expect(await consoleCall(service, admin.cookie, `${members}/${newcomer.id}`, { method: 'DELETE' })).toEqual({
      status: 404,
      body: { detail: `User "${newcomer.id}" is not a member of acme` },
    });
    const entries = service.logs.map((line) => JSON.parse(line));
    expect(entries.find((entry) => entry.event === 'member_added')).toMatchObject({
      actor: 'user:admin@example.com',
      tenant: 'acme',
      member: 'nia@example.com',
    });
    expect(entries.find((entry) => entry.event === 'member_removed')).toMatchObject({
      actor: 'user:admin@example.com',
      tenant: 'acme',
      member_id: newcomer.id,
    });
  });
});
