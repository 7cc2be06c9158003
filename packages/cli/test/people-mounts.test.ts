// Every service mounts core's people API (web.md, "Administration"): the same admin routes, each answering a
// member with its own missing-route 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserStore, openPlatformDatabase, type App } from '@switchboard/core';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import * as flows from '@switchboard/flows';
import * as sms from '@switchboard/sms';
import * as tickets from '@switchboard/tickets';

const services: Array<[string, (env: Record<string, string>) => Promise<App>]> = [
  ['flows', (env) => flows.buildApp(flows.loadConfig({ ...env, LOG_LEVEL: 'silent' }))],
  ['tickets', (env) => tickets.buildApp(tickets.loadConfig({ ...env, LOG_LEVEL: 'silent', TICKETS_SUMMARY_WORKER: 'off' }))],
  ['sms', (env) => sms.buildApp(sms.loadConfig({ ...env, LOG_LEVEL: 'silent', SMS_WORKER_INTERVAL_MS: '0' }))],
];

describe.each(dialectsUnderTest())('the people API on every service (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const platform = await openPlatformDatabase(database.env);
    try {
      const users = new UserStore(platform.db);
      await users.create({ email: 'admin@example.com', password: 'admin-password', admin: true, name: 'Admin' });
      await users.create({ email: 'member@example.com', password: 'member-password', name: 'Member' });
    } finally {
      await platform.close();
    }
  });
  afterAll(async () => {
    await database?.cleanup();
  });

  it.each(services)('%s: an admin lists the users and invites one; a member gets the same 404 as for a route that does not exist', async (name, build) => {
    const app = await build(database.env);
    try {
      const signIn = async (email: string, password: string) => {
        const response = await app.inject({ method: 'POST', url: '/api/session', payload: { email, password } });
        expect(response.statusCode).toBe(200);
        return String(response.headers['set-cookie']).split(';')[0];
      };
      const adminCookie = await signIn('admin@example.com', 'admin-password');
      const invited = await app.inject({
        method: 'POST',
        url: '/api/admin/users',
        headers: { cookie: adminCookie, origin: 'http://localhost' },
        payload: { email: `new-${name}@example.com`, name: 'New' },
      });
      expect(invited.statusCode).toBe(201);
      expect(invited.json().invitation.url).toMatch(/^http:\/\/localhost(:80)?\/invite\/sbi_[A-Za-z0-9_-]{43}$/);
      const admin = await app.inject({ method: 'GET', url: '/api/admin/users', headers: { cookie: adminCookie } });
      expect(admin.statusCode).toBe(200);
      const listed = admin.json().users.map((user: { email: string; role: string; pending: boolean }) => [user.email, user.role, user.pending]);
      // The three services share one platform database here: each one's invitee is listed by all that follow.
      expect(listed.slice(0, 2)).toEqual([
        ['admin@example.com', 'admin', false],
        ['member@example.com', 'member', false],
      ]);
      expect(listed).toContainEqual([`new-${name}@example.com`, 'member', true]);
      const cookie = await signIn('member@example.com', 'member-password');
      const member = await app.inject({ method: 'GET', url: '/api/admin/users', headers: { cookie } });
      const missing = await app.inject({ method: 'GET', url: '/api/admin/users-that-do-not-exist', headers: { cookie } });
      expect(member.statusCode).toBe(404);
      expect(missing.statusCode).toBe(404);
      expect(member.body).toBe(missing.body.replaceAll('/api/admin/users-that-do-not-exist', '/api/admin/users'));
    } finally {
      await app.close();
    }
  });
});
