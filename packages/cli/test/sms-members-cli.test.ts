import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { MembershipStore, UserStore, openPlatformDatabase } from '@switchboard/core';
import { openSmsAdmin } from '@switchboard/sms';
import { registerSmsCommands } from '../src/commands/sms.ts';
import { runInProcess } from './helpers.ts';

describe.each(dialectsUnderTest())('switchboard sms member add on %s', (dialect) => {
  let db: TestDatabase;
  let userId: string;
  const cli = (...args: string[]) => runInProcess(registerSmsCommands, db.env, args);

  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    const admin = await openSmsAdmin(db.env);
    try {
      await admin.orgs.createOrganization('acme', 'Acme', new Date());
    } finally {
      await admin.close();
    }
    const platform = await openPlatformDatabase(db.env);
    try {
      userId = (await new UserStore(platform.db).create({ email: 'ana@example.com', password: 'ana-password-1' })).user.id;
    } finally {
      await platform.close();
    }
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('adds a user to an SMS organization, printing {"email", "added": true}, and again without a duplicate', async () => {
    const added = await cli('sms', 'member', 'add', 'acme', 'Ana@Example.com', '--json');
    expect(added).toEqual({ code: 0, stdout: '{"email":"ana@example.com","added":true}\n', stderr: '' });
    expect(await cli('sms', 'member', 'add', 'acme', 'ana@example.com', '--json')).toEqual(added);
    const platform = await openPlatformDatabase(db.env);
    try {
      const memberships = new MembershipStore(platform.db);
      expect(await memberships.scopesOf('sms', userId)).toEqual(['acme']);
      expect(await memberships.scopesOf('flows', userId)).toEqual([]);
    } finally {
      await platform.close();
    }
  });

  it('fails with one stderr line for an unknown organization or user', async () => {
    expect(await cli('sms', 'member', 'add', 'nope', 'ana@example.com', '--json')).toEqual({ code: 1, stdout: '', stderr: 'error: No organization nope.\n' });
    expect(await cli('sms', 'member', 'add', 'acme', 'ghost@example.com', '--json')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: No user with email ghost@example.com; create one with `switchboard user create`\n',
    });
  });
});
