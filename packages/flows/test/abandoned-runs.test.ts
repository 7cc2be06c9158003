import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { createLogger } from '@switchboard/core';
import { buildApp, loadConfig, openFlowsStores, type FlowsStores } from '../src/index.ts';
import { abandonmentBoundMs } from '../src/domain/run-abandonment.ts';
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
    trigger: 'api',
    schedule: null,
    cost: null,
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

  it('are marked failed once older than the run timeout plus 5 s of grace, whatever the sweep interval; newer and finished runs stay as they are', async () => {
    const now = new Date('2026-03-01T12:00:00.000Z');
    // Timeout 120 s + grace 5 s: anything started before 11:57:55 is abandoned (the 60 s sweep interval adds nothing).
    const recorder = new RunRecorder(stores.runs, logger);
    await recorder.writeNow(run('run_old', 'running', '2026-03-01T11:57:54.999Z'));
    await recorder.writeNow(run('run_young', 'running', '2026-03-01T11:57:55.000Z'));
    await recorder.writeNow(run('run_done', 'succeeded', '2026-03-01T11:00:00.000Z'));
    const sweeper = new AbandonedRunSweeper(stores.runs, { runTimeoutMs: 120_000, sweepMs: 60_000, logger });
    expect(await sweeper.sweep(now)).toEqual(['run_old']);
    const old = await stores.runs.get(orgId, 'run_old');
    expect({ status: old!.status, error: old!.error, finishedAt: old!.finishedAt }).toEqual({
      status: 'failed',
      error: ABANDONED_RUN_ERROR,
      finishedAt: '2026-03-01T12:00:00.000Z',
    });
    expect((await stores.runs.get(orgId, 'run_young'))!.status).toBe('running');
    expect((await stores.runs.get(orgId, 'run_done'))!.status).toBe('succeeded');
    // A second sweep (another instance) finds nothing more; the next one, a sweep interval later, finds the young run.
    expect(await sweeper.sweep(now)).toEqual([]);
    expect(await sweeper.sweep(new Date(now.getTime() + 60_000))).toEqual(['run_young']);
    // So a crash leaves a run `running` for at most timeout + grace + one sweep interval.
    expect(abandonmentBoundMs(120_000, 60_000)).toBe(185_000);
  });

  it('are marked failed by an instance as it starts, before its first sweep interval has passed', async () => {
    await new RunRecorder(stores.runs, logger).writeNow(run('run_left', 'running', new Date(Date.now() - 10 * 60_000).toISOString()));
    const app = await buildApp(loadConfig({ ...db.env, LOG_LEVEL: 'silent', FLOWS_RUN_SWEEP_MS: '600000' }));
    try {
      await app.ready();
      await expect.poll(async () => (await stores.runs.get(orgId, 'run_left'))!.status, { timeout: 5000 }).toBe('failed');
      expect((await stores.runs.get(orgId, 'run_left'))!.error).toEqual(ABANDONED_RUN_ERROR);
    } finally {
      await app.close();
    }
  });
});
