import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { loadConfig, openFlowsStores, type FlowsStores } from '@switchboard/flows';
import { registerFlowsCommands } from '../src/commands/flows.ts';
import { runInProcess } from './helpers.ts';

describe.each(dialectsUnderTest())('switchboard flows save: versions on %s', (dialect) => {
  let db: TestDatabase;
  let stores: FlowsStores;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    stores = await openFlowsStores(loadConfig(db.env));
    const org = await stores.orgs.createOrg('cli-versions');
    await stores.orgs.setProvider(org.id, { name: 'local', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' });
  });
  afterAll(async () => {
    await stores?.close();
    await db?.cleanup();
  });

  it('records "cli" as the author of its saves, and a top-level note as the note, never in the definition', async () => {
    const file = join(db.env.DATA_DIR, 'versioned.json');
    const definition = {
      name: 'Versioned',
      slug: 'versioned',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
        { id: 'output', type: 'output', data: { format: 'raw' } },
      ],
      edges: [{ from: 'input', to: 'output' }],
    };
    writeFileSync(file, JSON.stringify({ ...definition, note: 'From CI' }));
    const saved = await runInProcess(registerFlowsCommands, db.env, ['flows', 'save', 'cli-versions', file, '--json']);
    expect([saved.code, JSON.parse(saved.stdout)]).toEqual([0, { slug: 'versioned', version: 1 }]);
    const org = await stores.orgs.requireOrg('cli-versions');
    const current = await stores.admin.current(org.id, 'versioned');
    expect([current.author, current.note, current.definition]).toEqual(['cli', 'From CI', definition]);
  });
});
