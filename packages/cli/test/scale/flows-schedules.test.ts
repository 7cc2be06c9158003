import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@switchboard/core/testing';
import { loadConfig, openFlowsStores, type FlowsStores } from '@switchboard/flows';
import { startGatedUpstream, type GatedUpstream } from './gated-upstream.ts';
import { prepareFlows } from './flows-fixture.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

const postgres = process.env.TEST_DATABASE_URL;
const HOUR = 3_600_000;
const SCHEDULES = 100;

/** Polls `check` until it returns a value (20 s at most). */
async function eventually<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out waiting');
}

describe.skipIf(!postgres)('flows schedules across two service processes on one PostgreSQL', () => {
  let database: TestDatabase;
  let upstream: GatedUpstream;
  let stores: FlowsStores;
  let flowId: number;
  let orgId: number;
  const processes: ServiceProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    upstream = await startGatedUpstream();
    upstream.open();
    orgId = (await prepareFlows(database.env, upstream.url)).orgId;
    stores = await openFlowsStores(loadConfig({ ...database.env, LOG_LEVEL: 'silent' }));
    flowId = (await stores.flows.require(orgId, 'bot')).id;
  });
  afterAll(async () => {
    for (const process of processes) await process.kill();
    await stores?.close();
    await upstream?.close();
    await database?.cleanup();
  });

  const firesOf = (name: string) =>
    stores.database.db
      .selectFrom('schedule_fires as f')
      .innerJoin('flow_schedules as s', 's.id', 'f.schedule_id')
      .select(['f.due_at', 'f.status', 'f.reason'])
      .where('s.name', '=', name)
      .orderBy('f.due_at')
      .execute();

  it(`runs each due time of ${SCHEDULES} schedules exactly once between two processes polling at once`, async () => {
    const spec = { cron: '*/5 * * * *', timezone: 'UTC', input: { question: 'scheduled' }, enabled: true };
    for (let i = 0; i < SCHEDULES; i++) await stores.schedules.put(orgId, flowId, `s${i}`, spec, '2099-01-01T00:00:00.000Z');
    const env = { ...database.env, FLOWS_SCHEDULE_TICK_MS: '50' };
    processes.push(await startServiceProcess('flows', env), await startServiceProcess('flows', env));
    // Both are up and polling: every schedule falls due at the same moment.
    const due = new Date(Date.now() - 1000).toISOString();
    await stores.database.db.updateTable('flow_schedules').set({ next_run_at: due }).execute();
    const runs = await eventually(async () => {
      const rows = await stores.database.db.selectFrom('runs').select(['schedule', 'status']).where('trigger', '=', 'schedule').execute();
      return rows.length >= SCHEDULES && rows.every((r) => r.status !== 'running') ? rows : undefined;
    });
    // A moment more: a second run of any due time would be there by now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const again = await stores.database.db.selectFrom('runs').select('schedule').where('trigger', '=', 'schedule').execute();
    expect(again.length).toBe(SCHEDULES);
    expect(new Set(runs.map((r) => r.schedule)).size).toBe(SCHEDULES);
    expect(runs.every((r) => r.status === 'succeeded')).toBe(true);
    const fires = await stores.database.db.selectFrom('schedule_fires').select(['due_at', 'status']).execute();
    expect(fires.map((f) => [f.due_at, f.status])).toEqual(Array.from({ length: SCHEDULES }, () => [due, 'succeeded']));
  });

  it('catches up at start: the newest missed time runs once, older ones are recorded as skipped', async () => {
    for (const process of processes.splice(0)) await process.kill();
    const hour = Math.floor(Date.now() / HOUR) * HOUR;
    await stores.schedules.put(
      orgId,
      flowId,
      'hourly',
      { cron: '0 * * * *', timezone: 'UTC', input: { question: 'catch up' }, enabled: true },
      new Date(hour - 3 * HOUR).toISOString(),
    );
    processes.push(await startServiceProcess('flows', { ...database.env, FLOWS_SCHEDULE_TICK_MS: '50' }));
    const fires = await eventually(async () => {
      const rows = await firesOf('hourly');
      return rows.some((f) => f.status === 'succeeded') ? rows : undefined;
    });
    expect(fires.map((f) => [f.due_at, f.status, f.reason])).toEqual([
      [new Date(hour - 3 * HOUR).toISOString(), 'skipped', 'missed'],
      [new Date(hour - 2 * HOUR).toISOString(), 'skipped', 'missed'],
      [new Date(hour - HOUR).toISOString(), 'skipped', 'missed'],
      [new Date(hour).toISOString(), 'succeeded', null],
    ]);
    expect(processes[0].output()).toContain('scheduled times missed by more than FLOWS_SCHEDULE_CATCHUP_MS');
  });
});
