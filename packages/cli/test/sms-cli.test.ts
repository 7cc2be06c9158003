import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { buildApp, loadConfig, openSmsAdmin } from '@switchboard/sms';
import { runCliAsync } from './helpers.ts';

// Each test spawns the real bin several times; a start costs seconds on a busy machine, hence the long timeouts.

/** Runs the real `switchboard sms …` bin; resolves with the exit code and both streams. */
function cli(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCliAsync(env, 'sms', ...args);
}

/** Runs a command with --json and returns the one object it printed. */
async function json(env: Record<string, string>, ...args: string[]): Promise<Record<string, unknown>> {
  const result = await cli(env, ...args, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const lines = result.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

describe.each(dialectsUnderTest())('switchboard sms CLI on %s', (dialect) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    env = { ...database.env, LOG_LEVEL: 'silent' };
  });
  afterAll(() => database.cleanup());

  it('creates organizations and keys, lists and revokes keys, sets gateways and SIMs, with the documented --json output', async () => {
    const created = await json(env, 'org', 'create', 'acme', '--name', 'Acme Inc');
    expect(Object.keys(created)).toEqual(['org_id', 'secret_key']);
    expect(created.org_id).toBe('acme');
    expect(created.secret_key).toMatch(/^sms_[A-Za-z0-9_-]{43}$/);

    const key = await json(env, 'key', 'create', 'acme');
    expect(Object.keys(key)).toEqual(['key_id', 'secret_key']);
    expect(key.secret_key).toMatch(/^sms_/);

    const listed = await json(env, 'key', 'list', 'acme');
    expect(Object.keys(listed)).toEqual(['keys']);
    const keys = listed.keys as Array<Record<string, unknown>>;
    expect(keys.map((k) => k.key_id)).toEqual([expect.any(Number), key.key_id]);
    expect(Object.keys(keys[0])).toEqual(['key_id', 'name', 'hint', 'created_at', 'last_used_at', 'revoked_at']);
    expect(JSON.stringify(listed)).not.toContain(created.secret_key as string);
    expect(JSON.stringify(listed)).not.toContain(key.secret_key as string);

    expect(await json(env, 'key', 'revoke', 'acme', String(key.key_id))).toEqual({ revoked: true });

    const gateway = await json(
      env,
      'gateway',
      'set',
      'acme',
      '--driver',
      'android',
      '--url',
      'http://192.168.1.20:8080',
      '--username',
      'sms',
      '--password',
      'hunter22',
      '--signing-key',
      'sig',
    );
    expect(gateway).toEqual({ org_id: 'acme', driver: 'android' });

    expect(await json(env, 'sim', 'set', 'acme', 'sim1', '--label', 'Office', '--phone-number', '+15550001111')).toEqual({
      sim: 'sim1',
      label: 'Office',
      phone_number: '+15550001111',
    });

    // The service on the same database sees all of it.
    const app = await buildApp(loadConfig({ ...env, SMS_WORKER_INTERVAL_MS: '0' }));
    try {
      expect((await app.inject({ method: 'GET', url: `/messages/acme/${created.secret_key}` })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: `/messages/acme/${key.secret_key}` })).statusCode).toBe(401);
      const sims = (await app.inject({ method: 'GET', url: `/sims/acme/${created.secret_key}` })).json().sims;
      expect(sims).toMatchObject([{ sim: 'sim1', label: 'Office', phone_number: '+15550001111' }]);
    } finally {
      await app.close();
    }
    const admin = await openSmsAdmin(env);
    try {
      expect(await admin.orgs.activeGateway('acme')).toEqual({
        driver: 'android',
        settings: { url: 'http://192.168.1.20:8080', username: 'sms', password: 'hunter22', signing_key: 'sig' },
      });
    } finally {
      await admin.close();
    }
  }, 180_000);

  it('fails with one line on stderr and a non-zero exit', async () => {
    const duplicate = await cli(env, 'org', 'create', 'acme', '--json');
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.stdout).toBe('');
    expect(duplicate.stderr).toBe('error: organization acme already exists\n');

    const badDriver = await cli(env, 'gateway', 'set', 'acme', '--driver', 'carrier-pigeon', '--json');
    expect(badDriver.code).not.toBe(0);
    expect(badDriver.stderr.trim().split('\n')).toHaveLength(1);
    expect(badDriver.stderr).toContain('--driver must be one of android, httpsms, twilio, webhook, none');
  }, 120_000);
});
