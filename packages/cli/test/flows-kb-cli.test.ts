import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { loadConfig, openFlowsStores } from '@switchboard/flows';
import { runCliAsync } from './helpers.ts';

const HANDBOOK = join(import.meta.dirname, '..', '..', 'flows', 'examples', 'handbook');

const cli = runCliAsync;

describe.each(dialectsUnderTest())('switchboard flows kb add on %s', (dialect) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    const stores = await openFlowsStores(loadConfig(db.env));
    await stores.orgs.createOrg('kbcorp', 'KB Corp');
    await stores.close();
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('creates the knowledge base on first use, adds files and prints the counts as one JSON object', async () => {
    const files = ['accounts.md', 'billing.md'].map((f) => join(HANDBOOK, f));
    const first = await cli(db.env, 'flows', 'kb', 'add', 'kbcorp', 'handbook', ...files, '--json');
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(first.stdout)).toEqual({ knowledge_base: 'handbook', documents: 2, chunks: 8 });
    const second = await cli(db.env, 'flows', 'kb', 'add', 'kbcorp', 'handbook', join(HANDBOOK, 'shipping.md'), '--json');
    expect(JSON.parse(second.stdout)).toEqual({ knowledge_base: 'handbook', documents: 1, chunks: 4 });
    const stores = await openFlowsStores(loadConfig(db.env));
    try {
      const org = (await stores.orgs.findOrg('kbcorp'))!;
      expect(await stores.knowledgeBases.find(org.id, 'handbook')).toMatchObject({ documents: 3, chunks: 12 });
    } finally {
      await stores.close();
    }
  });

  it('fails with one line on stderr for a missing file or an unknown organization', async () => {
    const missing = await cli(db.env, 'flows', 'kb', 'add', 'kbcorp', 'handbook', '/nonexistent/file.md', '--json');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('cannot read /nonexistent/file.md');
    const org = await cli(db.env, 'flows', 'kb', 'add', 'nope', 'handbook', join(HANDBOOK, 'billing.md'));
    expect(org.code).toBe(1);
    expect(org.stderr).toContain('Organization "nope" not found');
  });
});
