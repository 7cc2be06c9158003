import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { MembershipStore, UserStore, openPlatformDatabase } from '@switchboard/core';
import { loadConfig, openFlowsStores } from '@switchboard/flows';
import { createProject, withTicketsStore } from '@switchboard/tickets';
import { registerFlowsCommands } from '../src/commands/flows.ts';
import { registerTicketsCommands } from '../src/commands/tickets.ts';
import { runCliAsync, runInProcess } from './helpers.ts';

function register(program: Command): void {
  registerFlowsCommands(program);
  registerTicketsCommands(program);
}

describe.each(dialectsUnderTest())('switchboard flows/tickets member add on %s', (dialect) => {
  let db: TestDatabase;
  let userId: string;
  const cli = (...args: string[]) => runInProcess(register, db.env, args);
  const memberships = async (service: 'flows' | 'tickets') => {
    const platform = await openPlatformDatabase(db.env);
    try {
      return await new MembershipStore(platform.db).scopesOf(service, userId);
    } finally {
      await platform.close();
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    const stores = await openFlowsStores(loadConfig(db.env));
    try {
      await stores.orgs.createOrg('acme', 'Acme');
    } finally {
      await stores.close();
    }
    await withTicketsStore(db.env, (tickets) => createProject(tickets, { key: 'DEMO', name: 'Demo' }));
    const platform = await openPlatformDatabase(db.env);
    try {
      userId = (await new UserStore(platform.db).create({ email: 'mia@example.com', password: 'mia-password' })).user.id;
    } finally {
      await platform.close();
    }
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('adds a user to a flows organization, printing {"email", "added": true}, and again without a duplicate', async () => {
    const added = await cli('flows', 'member', 'add', 'acme', 'Mia@Example.com', '--json');
    expect(added).toEqual({ code: 0, stdout: '{"email":"mia@example.com","added":true}\n', stderr: '' });
    expect(await cli('flows', 'member', 'add', 'acme', 'mia@example.com', '--json')).toEqual(added);
    expect(await memberships('flows')).toEqual(['acme']);
    expect(await memberships('tickets')).toEqual([]);
  });

  it('fails with one stderr line for an unknown organization or user', async () => {
    expect(await cli('flows', 'member', 'add', 'nope', 'mia@example.com', '--json')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: Organization "nope" not found\n',
    });
    expect(await cli('flows', 'member', 'add', 'acme', 'ghost@example.com', '--json')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: No user with email ghost@example.com; create one with `switchboard user create`\n',
    });
  });

  it('adds a user to a ticket project by key, and fails for an unknown project or user', async () => {
    expect(await cli('tickets', 'member', 'add', 'demo', 'mia@example.com', '--json')).toEqual({
      code: 0,
      stdout: '{"email":"mia@example.com","added":true}\n',
      stderr: '',
    });
    expect(await memberships('tickets')).toEqual(['DEMO']);
    expect(await cli('tickets', 'member', 'add', 'NOPE', 'mia@example.com', '--json')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: No project with key NOPE.\n',
    });
    expect((await cli('tickets', 'member', 'add', 'DEMO', 'ghost@example.com', '--json')).code).toBe(1);
  });

  it('works through the real bin', async () => {
    const result = await runCliAsync(db.env, 'flows', 'member', 'add', 'acme', 'mia@example.com', '--json');
    expect(result).toEqual({ code: 0, stdout: '{"email":"mia@example.com","added":true}\n', stderr: '' });
  }, 60_000);
});
