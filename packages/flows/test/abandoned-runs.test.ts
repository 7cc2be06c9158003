import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { createLogger } from '@switchboard/core';
import { loadConfig, openFlowsStores, type FlowsStores } from '../src/index.ts';
import { RunRecorder, type RunRecord } from '../src/store/run-store.ts';
import { ABANDONED_RUN_ERROR, AbandonedRunSweeper } from '../src/worker/abandoned-runs.ts';

describe.each(dialectsUnderTest())('runs left running by a stopped instance, on %s', (dialect) => {
  let db: TestDatabase;
  let stores: FlowsStores;
  let orgId = 0;
  const logger = createLogger({ service: 'flows', level: 'silent' });
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    stores = await openFlowsStores(loadConfig({ ...db.env, LOG_LEVEL: 'silent' }));
    orgId = (await stores.orgs.createOrg('acme')).id;
  });
  afterAll(async () => {
    await stores?.close();
    await db?.cleanup();
  });

  const run = (id: string, status: RunRecord['status'], startedAt: string): RunRecord => ({
    id,
    orgId,
    flow: 'bot',
    version: 1,
    status,
    input: {},
    metadata: {},
    output: null,
    error: null,
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    latencyMs: null,
    startedAt,
    finishedAt: status === 'running' ? null : startedAt,
    trace: [],
  });

  it('are marked failed once older than the run timeout plus a sweep interval; newer and finished runs stay as they are', async () => {
    const now = new Date('2026-03-01T12:00:00.000Z');
    // Timeout 120 s + sweep 60 s: anything started before 11:57:00 is abandoned.
    const recorder = new RunRecorder(stores.runs, logger);
    await recorder.writeNow(run('run_old', 'running', '2026-03-01T11:56:59.999Z'));
    await recorder.writeNow(run('run_young', 'running', '2026-03-01T11:57:00.000Z'));
    await recorder.writeNow(run('run_done', 'succeeded', '2026-03-01T11:00:00.000Z'));
    const sweeper = new AbandonedRunSweeper(stores.runs, { runTimeoutMs: 120_000, sweepMs: 60_000, logger });
    expect(await sweeper.sweep(now)).toEqual(['run_old']);
    const old = await stores.runs.get(orgId, 'run_old');
    expect({ status: old!.status, error: old!.error, finishedAt: old!.finishedAt }).toEqual({ status: 'failed', error: ABANDONED_RUN_ERROR, finishedAt: '2026-03-01T12:00:00.000Z' });
    expect((await stores.runs.get(orgId, 'run_young'))!.status).toBe('running');
    expect((await stores.runs.get(orgId, 'run_done'))!.status).toBe('succeeded');
    // A second sweep (another instance) finds nothing more.
    expect(await sweeper.sweep(now)).toEqual([]);
  });
});
