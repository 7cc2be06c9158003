import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { buildApp, createLabel, loadConfig, withTicketsStore } from '@switchboard/tickets';
import { registerTicketsCommands } from '../src/commands/tickets.ts';
import { runInProcess } from './helpers.ts';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '..', 'bin', 'switchboard.mjs');

/**
 * Runs `switchboard tickets ARGS…` in this process (a CLI start costs seconds
 * on a busy machine); one test below goes through the real bin.
 */
function runTickets(env: Record<string, string>, args: string[]) {
  return runInProcess(registerTicketsCommands, env, ['tickets', ...args]);
}

describe.each(dialectsUnderTest())('switchboard tickets CLI on %s', (dialect) => {
  let database: TestDatabase;
  const json = async (...args: string[]) => {
    const { code, stdout, stderr } = await runTickets(database.env, [...args, '--json']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.endsWith('\n') && stdout.trim().split('\n').length === 1).toBe(true);
    return JSON.parse(stdout);
  };
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it('works through the real bin: project create prints exactly one JSON object', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'tickets', 'project', 'create', 'BIN', '--name', 'Bin project', '--json'], {
      env: { ...process.env, ...database.env },
    });
    expect(JSON.parse(stdout)).toEqual({ project_id: expect.stringMatching(/^[0-9a-f-]{36}$/), key: 'BIN' });
    expect(stdout.trim().split('\n')).toHaveLength(1);
  }, 120_000);

  it('creates a project, tokens and labels, changes settings and revokes tokens', async () => {
    expect(await json('project', 'create', 'CLI', '--name', 'CLI project', '--description', 'From the CLI')).toEqual({
      project_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      key: 'CLI',
    });
    const token = await json('token', 'create', 'CLI', '--name', 'ci');
    expect(token).toEqual({ token_id: expect.any(String), token: expect.stringMatching(/^sbt_[A-Za-z0-9_-]{43}$/) });
    expect(await json('project', 'set', 'CLI', '--auto-summary', 'off', '--name', 'Renamed')).toEqual({
      key: 'CLI',
      name: 'Renamed',
      settings: { auto_summary: false },
    });
    expect(await json('label', 'create', 'CLI', 'frontend', '--color', '#22C55E')).toEqual({ id: expect.any(String), name: 'frontend', color: '#22c55e' });
    const listed = await json('token', 'list', 'CLI');
    expect(listed.tokens).toEqual([
      {
        token_id: token.token_id,
        name: 'ci',
        hint: `${token.token.slice(0, 8)}…`,
        access: 'write',
        created_at: expect.any(String),
        last_used_at: null,
        revoked_at: null,
      },
    ]);

    const app = await buildApp(loadConfig({ ...database.env, LOG_LEVEL: 'silent', TICKETS_SUMMARY_WORKER: 'off' }));
    try {
      const status = await app.inject({ method: 'GET', url: '/api/mcp/v1/status', headers: { authorization: `Bearer ${token.token}` } });
      expect(status.statusCode).toBe(200);
      expect(status.json().project).toEqual({ key: 'CLI', name: 'Renamed', description: 'From the CLI', settings: { auto_summary: false } });
      expect(status.json().labels).toEqual([{ id: expect.any(String), name: 'frontend', color: '#22c55e' }]);
      expect(await json('token', 'revoke', 'CLI', token.token_id)).toEqual({ revoked: true });
      const revoked = await app.inject({ method: 'GET', url: '/api/mcp/v1/status', headers: { authorization: `Bearer ${token.token}` } });
      expect(revoked.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('creates a read-only token with --read-only: it reads, its REST writes answer 403 insufficient_scope, and token list says read', async () => {
    await json('project', 'create', 'RO', '--name', 'Read only');
    const token = await json('token', 'create', 'RO', '--name', 'reader', '--read-only');
    expect(token).toEqual({ token_id: expect.any(String), token: expect.stringMatching(/^sbt_[A-Za-z0-9_-]{43}$/) });
    expect((await json('token', 'list', 'RO')).tokens.map((t: { name: string; access: string }) => [t.name, t.access])).toEqual([['reader', 'read']]);
    const app = await buildApp(loadConfig({ ...database.env, LOG_LEVEL: 'silent', TICKETS_SUMMARY_WORKER: 'off' }));
    try {
      const headers = { authorization: `Bearer ${token.token}` };
      expect((await app.inject({ method: 'GET', url: '/api/mcp/v1/status', headers })).statusCode).toBe(200);
      const write = await app.inject({ method: 'POST', url: '/api/mcp/v1/tickets', headers, payload: { title: 'Not allowed' } });
      expect([write.statusCode, write.json().error.code]).toEqual([403, 'insufficient_scope']);
    } finally {
      await app.close();
    }
  });

  it("refuses a label past the project's limit, as the API does", async () => {
    await json('project', 'create', 'FULL', '--name', 'Full of labels');
    await withTicketsStore(database.env, async (db) => {
      for (let i = 1; i <= 50; i++) await createLabel(db, 'FULL', `label-${i}`);
    });
    expect(await runTickets(database.env, ['label', 'create', 'FULL', 'one-more', '--json'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: A project has at most 50 labels and this one has 50: delete one it no longer uses first.\n',
    });
  });

  it('fails with one line on stderr, nothing on stdout and exit code 1', async () => {
    const cases: Array<[string[], string]> = [
      [
        ['project', 'create', 'bad-key', '--name', 'x'],
        'error: Project key "bad-key" is invalid: use 2 to 10 upper-case letters or digits, starting with a letter (e.g. DEMO).\n',
      ],
      [['project', 'create', 'CLI', '--name', 'again'], 'error: A project with key CLI already exists.\n'],
      [['token', 'create', 'NOPE'], 'error: No project with key NOPE.\n'],
      [['token', 'revoke', 'CLI', 'no-such-token'], 'error: No live token no-such-token in project CLI.\n'],
      [['project', 'set', 'CLI', '--auto-summary', 'maybe'], 'error: --auto-summary must be on or off, got "maybe"\n'],
      [['label', 'create', 'CLI', 'red', '--color', 'crimson'], 'error: Color "crimson" is invalid: use #rgb or #rrggbb, e.g. #e11d48.\n'],
      [['label', 'create', 'CLI', 'say "hi"'], 'error: A label name must not contain double quotes (") or backslashes (\\).\n'],
      [['label', 'create', 'CLI', 'x'.repeat(51)], 'error: A label name must be at most 50 characters.\n'],
      [['project', 'create', 'LONG', '--name', 'x'.repeat(201)], 'error: A project name must be at most 200 characters.\n'],
      [
        ['project', 'create', 'LONG', '--name', 'Long', '--description', 'x'.repeat(10_001)],
        'error: A project description must be at most 10000 characters.\n',
      ],
    ];
    for (const [args, message] of cases) {
      expect(await runTickets(database.env, [...args, '--json'])).toEqual({ code: 1, stdout: '', stderr: message });
    }
  });
});
