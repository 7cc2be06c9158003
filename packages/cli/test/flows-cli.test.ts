import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { decryptCredential, hashSecret } from '@switchboard/core';
import { loadConfig, openFlowsStores } from '@switchboard/flows';
import { registerFlowsCommands } from '../src/commands/flows.ts';
import { runCliAsync, runInProcess } from './helpers.ts';

/** Runs `switchboard …` in this process (fast): returns what it printed and the exit code it set. */
function cliInProcess(env: Record<string, string>, ...args: string[]) {
  return runInProcess(registerFlowsCommands, env, args);
}

const cli = runCliAsync;

describe.each(dialectsUnderTest())('switchboard flows CLI on %s', (dialect) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('creates an organization with a manage token, tokens, a provider and a flow, each as one JSON object', async () => {
    const org = await cli(db.env, 'flows', 'org', 'create', 'cli-org', '--name', 'CLI org', '--json');
    expect(org.code).toBe(0);
    const orgBody = JSON.parse(org.stdout);
    expect(Object.keys(orgBody).sort()).toEqual(['org_code', 'token']);
    expect(orgBody.org_code).toBe('cli-org');
    expect(orgBody.token).toMatch(/^sbf_[A-Za-z0-9_-]{43}$/);

    const created = await cliInProcess(db.env, 'flows', 'token', 'create', 'cli-org', '--name', 'ci', '--scope', 'run', '--json');
    const tokenBody = JSON.parse(created.stdout);
    expect(Object.keys(tokenBody).sort()).toEqual(['token', 'token_id']);

    const provider = await cliInProcess(
      db.env,
      'flows',
      'provider',
      'set',
      'cli-org',
      'local',
      '--kind',
      'openai-compatible',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--api-key',
      'sk-cli-secret',
      '--json',
    );
    expect(JSON.parse(provider.stdout)).toEqual({ name: 'local', kind: 'openai-compatible' });

    const file = join(db.env.DATA_DIR, 'flow.json');
    const definition = {
      name: 'CLI Flow',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
        { id: 'answer', type: 'llm', data: { provider: 'local', model: 'm', prompt: '{{input.question}}' } },
        { id: 'output', type: 'output', data: { format: 'raw' } },
      ],
      edges: [
        { from: 'input', to: 'answer' },
        { from: 'answer', to: 'output' },
      ],
    };
    writeFileSync(file, JSON.stringify(definition));
    expect(JSON.parse((await cliInProcess(db.env, 'flows', 'save', 'cli-org', file, '--json')).stdout)).toEqual({ slug: 'cli-flow', version: 1 });
    writeFileSync(file, JSON.stringify({ ...definition, slug: 'cli-flow' }));
    expect(JSON.parse((await cliInProcess(db.env, 'flows', 'save', 'cli-org', file, '--json')).stdout)).toEqual({ slug: 'cli-flow', version: 2 });

    const list = JSON.parse((await cliInProcess(db.env, 'flows', 'token', 'list', 'cli-org', '--json')).stdout);
    expect(list.tokens).toHaveLength(2);
    expect(JSON.stringify(list)).not.toContain(tokenBody.token);
    expect(list.tokens.map((t: { scope: string }) => t.scope).sort()).toEqual(['manage', 'run']);

    expect(JSON.parse((await cliInProcess(db.env, 'flows', 'token', 'revoke', 'cli-org', tokenBody.token_id, '--json')).stdout)).toEqual({ revoked: true });

    const stores = await openFlowsStores(loadConfig(db.env));
    try {
      const found = await stores.orgs.findOrg('cli-org');
      expect(await stores.orgs.authenticate(tokenBody.token)).toBeUndefined();
      expect((await stores.orgs.authenticate(orgBody.token))?.principal.scope).toBe('manage');
      const raw = await stores.database.db.selectFrom('provider_connections').selectAll().executeTakeFirstOrThrow();
      expect(raw.api_key).not.toContain('sk-cli-secret');
      expect(decryptCredential(loadConfig(db.env).secret, raw.api_key!)).toBe('sk-cli-secret');
      const tokenRows = await stores.database.db.selectFrom('tokens').select('token_hash').where('org_id', '=', found!.id).execute();
      expect(tokenRows.map((r) => r.token_hash)).toContain(hashSecret(orgBody.token));
    } finally {
      await stores.close();
    }
  }, 180_000);

  it('fails with one stderr line and a non-zero exit on bad input', async () => {
    const bad = await cli(db.env, 'flows', 'org', 'create', 'X!', '--json');
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe('error: org_code must be 2 to 40 characters of a-z, 0-9 and -\n');
    const file = join(db.env.DATA_DIR, 'bad-flow.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'x',
        nodes: [
          { id: 'input', type: 'input' },
          { id: 'o', type: 'output', data: { format: 'raw' } },
        ],
        edges: [{ from: 'input', to: 'ghost' }],
      }),
    );
    const invalid = await cliInProcess(db.env, 'flows', 'save', 'cli-org', file, '--json');
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toBe('error: Edge 0 from "input" to "ghost": unknown node "ghost"\n');
  }, 120_000);
});
