import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { decryptCredential } from '@switchboard/core';
import { loadConfig, openFlowsStores } from '@switchboard/flows';
import { registerFlowsCommands } from '../src/commands/flows.ts';
import { ROOT, runInProcess } from './helpers.ts';

/** Runs `switchboard ARGS…` through its bin with `stdin` written to its standard input. */
function cliWithStdin(env: Record<string, string>, stdin: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'packages/cli/bin/switchboard.mjs'), ...args], {
      env: { ...process.env, ...env, DATABASE_URL: env.DATABASE_URL ?? '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe.each(dialectsUnderTest())('switchboard flows secret on %s', (dialect) => {
  let db: TestDatabase;
  const cli = (...args: string[]) => runInProcess(registerFlowsCommands, db.env, args);
  /** The stored values of the organization's secrets, decrypted, by name. */
  const stored = async () => {
    const stores = await openFlowsStores(loadConfig(db.env));
    try {
      const org = await stores.orgs.requireOrg('cli-secrets');
      const rows = await stores.database.db.selectFrom('secrets').select(['name', 'value']).where('org_id', '=', org.id).orderBy('name').execute();
      return Object.fromEntries(rows.map((row) => [row.name, { sealed: row.value, plain: decryptCredential(loadConfig(db.env).secret, row.value) }]));
    } finally {
      await stores.close();
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    expect((await cli('flows', 'org', 'create', 'cli-secrets', '--json')).code).toBe(0);
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('sets a secret from --value: {"name", "set": true}, the value stored encrypted and never printed', async () => {
    const result = await cli('flows', 'secret', 'set', 'cli-secrets', 'GITHUB_TOKEN', '--value', 'ghp_from_the_flag_123', '--json');
    expect(result).toEqual({ code: 0, stdout: '{"name":"GITHUB_TOKEN","set":true}\n', stderr: '' });
    const secrets = await stored();
    expect(secrets.GITHUB_TOKEN.plain).toBe('ghp_from_the_flag_123');
    expect(secrets.GITHUB_TOKEN.sealed).not.toContain('ghp_from_the_flag_123');
  });

  it('reads the value from standard input without --value (one final newline dropped) and replaces the old one', async () => {
    const piped = await cliWithStdin(db.env, 'ghp_from_stdin_456\n', 'flows', 'secret', 'set', 'cli-secrets', 'GITHUB_TOKEN', '--json');
    expect(piped).toEqual({ code: 0, stdout: '{"name":"GITHUB_TOKEN","set":true}\n', stderr: '' });
    expect((await stored()).GITHUB_TOKEN.plain).toBe('ghp_from_stdin_456');
    const multiline = await cliWithStdin(db.env, '{\n  "key": "pem"\n}\n\n', 'flows', 'secret', 'set', 'cli-secrets', 'SERVICE_ACCOUNT', '--json');
    expect(multiline.code).toBe(0);
    expect((await stored()).SERVICE_ACCOUNT.plain).toBe('{\n  "key": "pem"\n}\n');
  });

  it('lists names and dates, never values, and deletes', async () => {
    const listed = await cli('flows', 'secret', 'list', 'cli-secrets', '--json');
    expect(listed.code).toBe(0);
    const body = JSON.parse(listed.stdout);
    expect(body.secrets.map((s: { name: string }) => s.name)).toEqual(['GITHUB_TOKEN', 'SERVICE_ACCOUNT']);
    expect(Object.keys(body.secrets[0]).sort()).toEqual(['created_at', 'last_used_at', 'name', 'updated_at']);
    expect(listed.stdout).not.toContain('ghp_');
    expect(await cli('flows', 'secret', 'delete', 'cli-secrets', 'SERVICE_ACCOUNT', '--json')).toEqual({ code: 0, stdout: '{"deleted":true}\n', stderr: '' });
    expect(Object.keys(await stored())).toEqual(['GITHUB_TOKEN']);
  });

  it('fails with one line on stderr for a bad name, an empty value, an unknown organization or secret', async () => {
    expect(await cli('flows', 'secret', 'set', 'cli-secrets', 'not-a-name', '--value', 'v', '--json')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: Secret name must be 1-64 letters, digits and "_", not starting with a digit (e.g. GITHUB_TOKEN)\n',
    });
    const empty = await cliWithStdin(db.env, '', 'flows', 'secret', 'set', 'cli-secrets', 'EMPTY', '--json');
    expect(empty).toEqual({ code: 1, stdout: '', stderr: 'error: "value" must be a non-empty string of at most 65536 characters\n' });
    expect((await cli('flows', 'secret', 'set', 'nope', 'A', '--value', 'v', '--json')).stderr).toBe('error: Organization "nope" not found\n');
    expect((await cli('flows', 'secret', 'delete', 'cli-secrets', 'MISSING', '--json')).stderr).toBe('error: Secret "MISSING" not found\n');
  });
});
