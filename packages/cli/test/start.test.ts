import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserStore, openPlatformDatabase } from '@switchboard/core';
import { createTestDatabase, type TestDatabase } from '@switchboard/core/testing';
import { presentServices, serviceNodeOptions } from '../src/services.ts';
import { ROOT, childCommands, runCli, runCliJson, startLauncher } from './helpers.ts';

const ports = { SMS_PORT: '0', FLOWS_PORT: '0', TICKETS_PORT: '0' };

describe('npm start', () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of databases) await database.cleanup();
  });

  it('prints every service URL, the first-start credentials once, and never again', async () => {
    const database = await createTestDatabase('sqlite');
    databases.push(database);
    const services = presentServices();
    const first = startLauncher({ ...database.env, ...ports, SWITCHBOARD_ADMIN_PASSWORD: 'first-start-pw' });
    const output = await first.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+/, services.length);
    // Every service runs from its esbuild bundle with plain node (no tsx) and its node options. The launcher itself runs under tsx,
    // whose own esbuild transform service may be a child too (on a cold tsx cache): only node children count.
    const byCommand = (a: string[], b: string[]) => a.join(' ').localeCompare(b.join(' '));
    const bundles = services.map((name) => [process.execPath, ...serviceNodeOptions(name), join(ROOT, 'packages', name, 'dist', 'main.mjs')]);
    expect(bundles.find((command) => command.at(-1)!.includes('flows'))!.slice(1, -1)).toEqual(['--max-semi-space-size=8', '--heap-growing-percent=35']);
    const nodeChildren = childCommands(first.pid).filter((command) => command[0] === process.execPath);
    expect(nodeChildren.sort(byCommand)).toEqual(bundles.sort(byCommand));
    expect(await first.stop()).toBe(0);
    expect(output).toContain('Switchboard: first start');
    expect(output).toContain('admin@switchboard.local');
    expect(output).not.toContain('first-start-pw');

    const second = startLauncher({ ...database.env, ...ports });
    const again = await second.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+/, services.length);
    expect(await second.stop()).toBe(0);
    expect(again).not.toContain('first start');
  }, 180_000);

  it('refuses a bad configuration with one line naming the variable', async () => {
    const database = await createTestDatabase('sqlite');
    databases.push(database);
    const launcher = startLauncher({ ...database.env, SMS_PORT: 'eighty' });
    expect(await launcher.exited).toBe(1);
    expect(launcher.output().trim()).toBe('configuration error: SMS_PORT: must be an integer, got "eighty"');
  }, 120_000);

  it('refuses a first admin password shorter than any other password may be, before making anything', async () => {
    const database = await createTestDatabase('sqlite');
    databases.push(database);
    const launcher = startLauncher({ ...database.env, ...ports, SWITCHBOARD_ADMIN_PASSWORD: 'eleven-char' });
    expect(await launcher.exited).toBe(1);
    expect(launcher.output().trim().split('\n').at(-1)).toBe(
      "configuration error: SWITCHBOARD_ADMIN_PASSWORD: must be at least 12 characters (the first admin's password)",
    );
    // No user: the next start is a first start again, with the password fixed.
    const platform = await openPlatformDatabase(database.env);
    try {
      expect(await new UserStore(platform.db).count()).toBe(0);
    } finally {
      await platform.close();
    }
  }, 120_000);
});

/** What `switchboard user create --json` prints. */
interface CreatedUser {
  user_id: string;
  email: string;
  password: string;
}

describe('switchboard user create', () => {
  it('creates a user with a generated password and refuses a duplicate', async () => {
    const database = await createTestDatabase('sqlite');
    try {
      const created = runCliJson<CreatedUser>(['user', 'create', 'Ada@Example.com', '--admin'], database.env);
      expect(Object.keys(created).sort()).toEqual(['email', 'password', 'user_id']);
      expect(created.email).toBe('ada@example.com');
      expect(created.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
      const chosen = runCliJson<CreatedUser>(['user', 'create', 'bob@example.com', '--password', 'correct horse'], database.env);
      expect(chosen.password).toBe('correct horse');
      const duplicate = runCli(['user', 'create', 'ada@example.com', '--json'], database.env);
      expect(duplicate).toEqual({ status: 1, stdout: '', stderr: 'error: a user with email ada@example.com already exists\n' });
      const bad = runCli(['user', 'create', 'not-an-email', '--json'], database.env);
      expect(bad).toEqual({ status: 1, stdout: '', stderr: 'error: "not-an-email" is not an email address\n' });
      const short = runCli(['user', 'create', 'cy@example.com', '--password', 'hunter2-pw', '--json'], database.env);
      expect(short).toEqual({ status: 1, stdout: '', stderr: 'error: password must be at least 12 characters\n' });
    } finally {
      await database.cleanup();
    }
  }, 180_000);
});
