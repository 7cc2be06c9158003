import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { createLogger } from '@switchboard/core';
import { loadConfig, openFlowsStores, type FlowsStores } from '../src/index.ts';
import { RunRecorder, type RunRecord } from '../src/store/run-store.ts';

describe.each(dialectsUnderTest())('recording runs on %s', (dialect) => {
  let db: TestDatabase;
  let stores: FlowsStores;
  let orgId = 0;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    stores = await openFlowsStores(loadConfig({ ...db.env, LOG_LEVEL: 'silent' }));
    orgId = (await stores.orgs.createOrg('acme')).id;
  });
  afterAll(async () => {
    await stores?.close();
    await db?.cleanup();
  });

  const record = (id: string, output: unknown): RunRecord => ({
    id,
    orgId,
    flow: 'bot',
    version: 1,
    status: 'succeeded',
    input: {},
    metadata: {},
    output,
    error: null,
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    latencyMs: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:00.001Z',
    trace: [],
  });

  it('writes the rest of a batch when one record nests too deep to serialize (as a tool answer can)', async () => {
    const recorder = new RunRecorder(stores.runs, createLogger({ service: 'flows', level: 'silent' }));
    recorder.record(record('run_before', 'a'));
    recorder.record(record('run_deep', JSON.parse('['.repeat(100_000) + ']'.repeat(100_000))));
    recorder.record(record('run_after', 'b'));
    await recorder.flush();
    const stored = (await stores.runs.list(orgId, { limit: 10 })).runs;
    expect(stored.map((run) => [run.id, run.output])).toEqual([
      ['run_before', 'a'],
      ['run_after', 'b'],
    ]);
  });
});
