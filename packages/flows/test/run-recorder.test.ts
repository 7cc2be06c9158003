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
    trigger: 'api',
    schedule: null,
    cost: null,
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
    // Not awaited: queued in one tick, the three go in one batch; flush() waits for it (record() never rejects).
    void recorder.record(record('run_before', 'a'));
    void recorder.record(record('run_deep', JSON.parse('['.repeat(100_000) + ']'.repeat(100_000))));
    void recorder.record(record('run_after', 'b'));
    await recorder.flush();
    const stored = (await stores.runs.list(orgId, { limit: 10 })).runs;
    expect(stored.map((run) => [run.id, run.output])).toEqual([
      ['run_before', 'a'],
      ['run_after', 'b'],
    ]);
  });

  const failed = (id: string): RunRecord => ({
    ...record(id, null),
    status: 'failed',
    error: { message: 'The run took longer than 1000 ms', type: 'api_error', param: null, code: 'timeout' },
  });
  const running = (id: string): RunRecord => ({ ...record(id, null), status: 'running', latencyMs: null, finishedAt: null });
  /** A recorder whose store counts the upsert statements it runs. */
  const countingRecorder = () => {
    let statements = 0;
    const counted = Object.create(stores.runs) as typeof stores.runs;
    counted.upsert = (rows) => {
      statements += 1;
      return stores.runs.upsert(rows);
    };
    return { recorder: new RunRecorder(counted, createLogger({ service: 'flows', level: 'silent' })), statements: () => statements };
  };
  const stored = async (id: string) => {
    const run = (await stores.runs.get(orgId, id))!;
    return { status: run.status, error: run.error, finishedAt: run.finishedAt };
  };
  const timedOut = {
    status: 'failed',
    error: { message: 'The run took longer than 1000 ms', type: 'api_error', param: null, code: 'timeout' },
    finishedAt: '2026-01-01T00:00:00.001Z',
  };

  it("keeps a run's end when its `running` record is queued after it in the same batch", async () => {
    const recorder = new RunRecorder(stores.runs, createLogger({ service: 'flows', level: 'silent' }));
    void recorder.record(failed('run_same_batch'));
    await recorder.record(running('run_same_batch'));
    expect(await stored('run_same_batch')).toEqual(timedOut);
  });

  it("keeps a run's end when its `running` record is written after it (a later batch, or another instance)", async () => {
    const recorder = new RunRecorder(stores.runs, createLogger({ service: 'flows', level: 'silent' }));
    await recorder.record(failed('run_later_batch'));
    await recorder.record(running('run_later_batch'));
    await recorder.writeNow(running('run_later_batch'));
    expect(await stored('run_later_batch')).toEqual(timedOut);
    // The end still replaces a `running` row.
    await recorder.writeNow(running('run_ends'));
    await recorder.record(failed('run_ends'));
    expect(await stored('run_ends')).toEqual(timedOut);
  });

  it('writes the records asked for at once in one statement, and each caller waits until it is stored', async () => {
    const { recorder, statements } = countingRecorder();
    const ids = Array.from({ length: 5 }, (_, i) => `run_now_${i}`);
    const written = ids.map((id) => recorder.writeNow(running(id)).then(async () => (await stores.runs.get(orgId, id))?.status));
    expect(await Promise.all(written)).toEqual(['running', 'running', 'running', 'running', 'running']);
    expect(statements()).toBe(1);
    // The same run twice in one statement: its end wins whichever came first, and PostgreSQL sees one row.
    await Promise.all([recorder.writeNow(failed('run_now_twice')), recorder.writeNow(running('run_now_twice'))]);
    expect(await stored('run_now_twice')).toEqual(timedOut);
    expect(statements()).toBe(2);
  });

  it('writes records asked for in consecutive turns of the event loop in one statement, and one alone a turn later', async () => {
    const { recorder, statements } = countingRecorder();
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    // One record a turn, as streams opened one by one by a busy loop: they share a commit.
    const written: Array<Promise<void>> = [];
    for (let i = 0; i < 3; i++) {
      written.push(recorder.writeNow(running(`run_turn_${i}`)));
      await nextTurn();
    }
    await Promise.all(written);
    expect(statements()).toBe(1);
    expect((await stores.runs.get(orgId, 'run_turn_2'))?.status).toBe('running');
    // Alone: its statement starts at the first turn that adds nothing.
    const alone = recorder.writeNow(running('run_turn_alone'));
    await nextTurn();
    expect(statements()).toBe(1);
    await nextTurn();
    expect(statements()).toBe(2);
    await alone;
    expect((await stores.runs.get(orgId, 'run_turn_alone'))?.status).toBe('running');
  });

  it('rejects every caller of a statement that failed, and the next statement is written', async () => {
    const recorder = new RunRecorder(stores.runs, createLogger({ service: 'flows', level: 'silent' }));
    // A record nesting too deep to serialize fails its own caller only, before any statement.
    await expect(recorder.writeNow({ ...running('run_deep_now'), input: JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) })).rejects.toThrow(
      'Maximum call stack size exceeded',
    );
    // An organization that does not exist breaks the foreign key: the whole statement fails, for both callers.
    const results = await Promise.allSettled([recorder.writeNow(running('run_ok_now')), recorder.writeNow({ ...running('run_orphan'), orgId: 999_999 })]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await stores.runs.get(orgId, 'run_ok_now')).toBeUndefined();
    await recorder.writeNow(running('run_ok_now'));
    expect((await stores.runs.get(orgId, 'run_ok_now'))?.status).toBe('running');
  });
});
