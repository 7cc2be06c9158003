import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { loadConfig, openFlowsStores, type FlowsStores } from '../src/index.ts';
import { planDue } from '../src/domain/schedule.ts';
import { KEPT_FIRES, ScheduleStore, type DueSchedule } from '../src/store/schedule-store.ts';
import { simpleFlow } from './helpers/harness.ts';

const HOUR = 3_600_000;

describe.each(dialectsUnderTest())('schedule claims through the database on %s', (dialect) => {
  let db: TestDatabase;
  // Two processes' worth of stores on one database: each has its own connection (pool).
  let a: FlowsStores;
  let b: FlowsStores;
  let storeA: ScheduleStore;
  let storeB: ScheduleStore;
  let orgId: number;
  let flowId: number;

  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    const config = loadConfig({ ...db.env, LOG_LEVEL: 'silent' });
    a = await openFlowsStores(config);
    b = await openFlowsStores(config);
    storeA = new ScheduleStore(a.database.db);
    storeB = new ScheduleStore(b.database.db);
    const org = await a.orgs.createOrg('acme', 'Acme');
    await a.orgs.setProvider(org.id, { name: 'local', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' });
    orgId = org.id;
    const { flow } = await a.admin.save((await a.orgs.findOrg('acme'))!, simpleFlow({ slug: 'nightly' }));
    flowId = flow.id;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.cleanup();
  });

  const spec = { cron: '0 * * * *', timezone: 'UTC', input: { question: 'q' }, enabled: true };

  it('gives each due time to exactly one of two instances claiming at once, and moves the next due time on', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `s${i}`);
    for (const name of names) await storeA.put(orgId, flowId, name, spec, '2030-01-01T10:00:00.000Z');
    const now = new Date('2030-01-01T10:00:01.000Z');
    // Both read the due schedules before either claims: each then races for every one of them.
    const [dueA, dueB] = [await storeA.due(now, 100), await storeB.due(now, 100)];
    const claimAll = async (store: ScheduleStore, due: DueSchedule[], label: string) => {
      const won: string[] = [];
      for (const schedule of due) {
        const plan = planDue(schedule.cron, schedule.timezone, new Date(schedule.nextRunAt), now, HOUR);
        const run = { dueAt: plan.run!.toISOString(), runId: `run_${label}_${schedule.name}` };
        if (await store.claim({ schedule, next: plan.next!.toISOString(), run, skipped: [] }, now)) won.push(schedule.name);
      }
      return won;
    };
    // On PostgreSQL the two claim at once; SQLite's connections in one process would wait on each other's
    // write lock while blocking the event loop (two instances on SQLite are two processes), so they take turns there.
    const [wonA, wonB] =
      dialect === 'postgres'
        ? await Promise.all([claimAll(storeA, dueA, 'a'), claimAll(storeB, dueB, 'b')])
        : [await claimAll(storeA, dueA, 'a'), await claimAll(storeB, dueB, 'b')];
    // Taking turns, the first to claim wins them all; at once, either may win any.
    if (dialect === 'sqlite') expect([wonA.length, wonB.length]).toEqual([20, 0]);
    expect([...wonA, ...wonB].sort()).toEqual([...names].sort());
    expect(wonA.filter((name) => wonB.includes(name))).toEqual([]);
    expect(await storeA.due(now, 100)).toEqual([]);
    const one = (await storeA.get(flowId, 's0'))!;
    expect([one.nextRunAt, one.lastStatus, one.lastRunId?.startsWith('run_')]).toEqual(['2030-01-01T11:00:00.000Z', 'running', true]);
    expect(await storeA.fires(one.id, 5)).toEqual([
      { dueAt: '2030-01-01T10:00:00.000Z', status: 'running', reason: null, runId: one.lastRunId, recordedAt: now.toISOString() },
    ]);
  });

  it('never handles a due time twice, even when an edit sets the schedule back to it', async () => {
    const schedule = (await storeA.get(flowId, 's1'))!;
    // An edit that (wrongly or through clock skew) puts the next due time back on one already handled.
    await storeA.put(orgId, flowId, 's1', spec, '2030-01-01T10:00:00.000Z');
    const [due] = (await storeA.due(new Date('2030-01-01T10:00:02.000Z'), 100)).filter((s) => s.name === 's1');
    const claim = {
      schedule: due as DueSchedule,
      next: '2030-01-01T11:00:00.000Z',
      run: { dueAt: '2030-01-01T10:00:00.000Z', runId: 'run_again' },
      skipped: [],
    };
    expect(await storeB.claim(claim)).toBe(false);
    expect((await storeA.get(flowId, 's1'))!.lastRunId).toBe(schedule.lastRunId);
  });

  it('records how a run ended on its due time and on the schedule', async () => {
    const schedule = (await storeA.get(flowId, 's2'))!;
    await storeB.finish(schedule.id, '2030-01-01T10:00:00.000Z', schedule.lastRunId!, 'succeeded');
    expect((await storeA.get(flowId, 's2'))!.lastStatus).toBe('succeeded');
    expect((await storeA.fires(schedule.id, 1))[0].status).toBe('succeeded');
  });

  it('records skipped due times once each, without a run, and a paused schedule is never due', async () => {
    const s = await storeA.put(orgId, flowId, 'catchup', { ...spec, cron: '*/10 * * * *' }, '2030-01-02T00:00:00.000Z');
    const now = new Date('2030-01-02T03:05:00.000Z');
    const [due] = (await storeA.due(now, 100)).filter((d) => d.name === 'catchup');
    const plan = planDue(due.cron, due.timezone, new Date(due.nextRunAt), now, HOUR);
    const skipped = plan.skipped.map((x) => ({ dueAt: x.dueAt.toISOString(), reason: x.reason }));
    expect(
      await storeA.claim({ schedule: due, next: plan.next!.toISOString(), run: { dueAt: plan.run!.toISOString(), runId: 'run_catchup' }, skipped }, now),
    ).toBe(true);
    const fires = await storeA.fires(s.id, 100);
    expect(fires.length).toBe(19);
    expect(fires[0]).toMatchObject({ dueAt: '2030-01-02T03:00:00.000Z', status: 'running', runId: 'run_catchup' });
    expect(fires.filter((f) => f.reason === 'coalesced').map((f) => f.dueAt)).toEqual([
      '2030-01-02T02:50:00.000Z',
      '2030-01-02T02:40:00.000Z',
      '2030-01-02T02:30:00.000Z',
      '2030-01-02T02:20:00.000Z',
      '2030-01-02T02:10:00.000Z',
    ]);
    expect(fires.filter((f) => f.reason === 'missed').length).toBe(13);

    await storeA.put(orgId, flowId, 'paused', { ...spec, enabled: false }, '2030-01-01T00:00:00.000Z');
    expect((await storeA.due(new Date('2031-01-01T00:00:00.000Z'), 100)).map((d) => d.name)).not.toContain('paused');
  });

  it(`keeps the newest ${KEPT_FIRES} handled due times of a schedule as its runs end`, async () => {
    const s = await storeA.put(orgId, flowId, 'busy', spec, null);
    const minute = (n: number) => new Date(Date.UTC(2031, 0, 1, 0, n)).toISOString();
    const fires = Array.from({ length: KEPT_FIRES + 5 }, (_, n) => ({
      schedule_id: s.id,
      due_at: minute(n),
      status: 'succeeded',
      reason: null,
      run_id: `run_${n}`,
      recorded_at: minute(n),
    }));
    for (let i = 0; i < fires.length; i += 50)
      await a.database.db
        .insertInto('schedule_fires')
        .values(fires.slice(i, i + 50))
        .execute();
    await storeA.finish(s.id, minute(KEPT_FIRES + 4), `run_${KEPT_FIRES + 4}`, 'succeeded');
    const kept = await storeA.fires(s.id, 1000);
    expect([kept.length, kept[0].dueAt, kept.at(-1)!.dueAt]).toEqual([KEPT_FIRES, minute(KEPT_FIRES + 4), minute(5)]);
  });
});
