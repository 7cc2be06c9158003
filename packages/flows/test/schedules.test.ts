import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { listen, type App } from '@switchboard/core';
import { buildApp, loadConfig } from '../src/index.ts';
import { startHarness, simpleFlow, type Harness } from './helpers/harness.ts';

const TICK = { FLOWS_SCHEDULE_TICK_MS: '50' };
const HOUR = 3_600_000;

/** Polls `check` until it returns a value (or fails after 10 s). */
async function eventually<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out waiting');
}

describe.each(dialectsUnderTest())('flow schedules on %s', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(dialect, TICK);
    await h.save(simpleFlow({ slug: 'digest', model: 'reply:done', format: 'raw', extraVariables: [{ name: 'limit', type: 'integer', minimum: 1 }] }));
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Makes a schedule due now, as if its time had come (or come and gone `agoMs` ago). */
  const makeDue = (name: string, at: string) => h.stores.database.db.updateTable('flow_schedules').set({ next_run_at: at }).where('name', '=', name).execute();
  const schedule = async (name: string) => (await h.get(`/api/llm/acme/flows/digest/schedules/${name}`)).json();

  it('refuses an unknown token before anything else', async () => {
    const response = await h.put('/api/llm/acme/flows/digest/schedules/nightly', { cron: '0 3 * * *' }, 'sbf_nope');
    expect(response.status).toBe(401);
  });

  it('refuses a bad cron, an unknown zone and an input the flow refuses with 422, naming each problem', async () => {
    const response = await h.put('/api/llm/acme/flows/digest/schedules/nightly', {
      cron: '* * * * * *',
      timezone: 'Europe/Atlantis',
      input: { limit: '5', extra: true },
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: {
        message: 'Unknown time zone "Europe/Atlantis": give an IANA name such as "Europe/Paris" or "UTC" (and 4 more problems)',
        type: 'invalid_request_error',
        param: 'timezone',
        code: 'invalid_schedule',
        details: [
          { param: 'timezone', message: 'Unknown time zone "Europe/Atlantis": give an IANA name such as "Europe/Paris" or "UTC"' },
          {
            param: 'cron',
            message:
              '"* * * * * *" has 6 fields: a schedule fires at most once a minute, so give five (minute hour day-of-month month day-of-week), no seconds',
          },
          { param: 'input.extra', message: 'Unknown input variable "extra"' },
          { param: 'input.question', message: 'Missing required variable "question"' },
          { param: 'input.limit', message: '"limit" must be an integer' },
        ],
      },
    });
    const never = await h.put('/api/llm/acme/flows/digest/schedules/nightly', { cron: '0 0 31 2 *', input: { question: 'q' } });
    expect([never.status, (await never.json()).error.details]).toEqual([422, [{ param: 'cron', message: '"0 0 31 2 *" never fires (no date matches it)' }]]);
    const badName = await h.put('/api/llm/acme/flows/digest/schedules/no%20spaces', { cron: '0 3 * * *', input: { question: 'q' } });
    expect([badName.status, (await badName.json()).error.param]).toEqual([422, 'name']);
    expect((await h.put('/api/llm/acme/flows/ghost/schedules/nightly', { cron: '0 3 * * *' })).status).toBe(404);
  });

  it('saves a schedule and answers its next five times in its zone', async () => {
    const response = await h.put('/api/llm/acme/flows/digest/schedules/nightly', {
      cron: '30 2 * * *',
      timezone: 'Europe/Paris',
      input: { question: 'What happened?' },
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      name: 'nightly',
      flow: 'digest',
      cron: '30 2 * * *',
      timezone: 'Europe/Paris',
      input: { question: 'What happened?' },
      enabled: true,
      last_run_at: null,
      last_status: null,
      last_run_id: null,
      recent: [],
    });
    expect(body.next_runs).toHaveLength(5);
    expect(body.next_runs[0]).toBe(body.next_run_at);
    // Each is 02:30 in Paris, whatever the offset that day.
    for (const time of body.next_runs)
      expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }).format(new Date(time))).toBe('02:30');
    const list = await (await h.get('/api/llm/acme/flows/digest/schedules')).json();
    expect(list.schedules.map((s: { name: string }) => s.name)).toEqual(['nightly']);
  });

  it('runs a due time once, recorded with trigger "schedule" and the schedule name, and shows it as the last run', async () => {
    await makeDue('nightly', new Date(Date.now() - 1000).toISOString());
    const ran = await eventually(async () => {
      const s = await schedule('nightly');
      return s.last_status === 'succeeded' ? s : undefined;
    });
    const run = await (await h.get(`/api/llm/acme/runs/${ran.last_run_id}`)).json();
    expect(run).toMatchObject({
      flow: 'digest',
      status: 'succeeded',
      trigger: 'schedule',
      schedule: 'nightly',
      input: { question: 'What happened?' },
      output: 'done',
    });
    expect(ran.recent).toEqual([{ due_at: expect.any(String), status: 'succeeded', reason: null, run_id: ran.last_run_id }]);
    expect(Date.parse(ran.next_run_at)).toBeGreaterThan(Date.now());
    const scheduled = await (await h.get('/api/llm/acme/runs?trigger=schedule')).json();
    expect(scheduled.runs.map((r: { id: string }) => r.id)).toEqual([ran.last_run_id]);
  });

  it('runs a missed time once when it is recent and records older ones as skipped', async () => {
    await h.put('/api/llm/acme/flows/digest/schedules/hourly', { cron: '0 * * * *', input: { question: 'q' } });
    const hour = Math.floor(Date.now() / HOUR) * HOUR;
    await makeDue('hourly', new Date(hour - 3 * HOUR).toISOString());
    const ran = await eventually(async () => {
      const s = await schedule('hourly');
      return s.last_status === 'succeeded' ? s : undefined;
    });
    expect(ran.recent.map((f: { due_at: string; status: string; reason: string | null }) => [f.due_at, f.status, f.reason])).toEqual([
      [new Date(hour).toISOString(), 'succeeded', null],
      [new Date(hour - HOUR).toISOString(), 'skipped', 'missed'],
      [new Date(hour - 2 * HOUR).toISOString(), 'skipped', 'missed'],
      [new Date(hour - 3 * HOUR).toISOString(), 'skipped', 'missed'],
    ]);
  });

  it('records a run that fails when the flow no longer accepts the schedule input', async () => {
    await h.put('/api/llm/acme/flows/digest/schedules/stale', { cron: '0 4 * * *', input: { question: 'q' } });
    await h.save(simpleFlow({ slug: 'digest', model: 'reply:done', format: 'raw', extraVariables: [{ name: 'team', type: 'string', required: true }] }));
    await makeDue('stale', new Date(Date.now() - 1000).toISOString());
    const failed = await eventually(async () => {
      const s = await schedule('stale');
      return s.last_status === 'failed' ? s : undefined;
    });
    const run = await (await h.get(`/api/llm/acme/runs/${failed.last_run_id}`)).json();
    expect(run).toMatchObject({
      status: 'failed',
      trigger: 'schedule',
      version: 2,
      error: { code: 'invalid_input', message: 'Missing required variable "team"' },
    });
  });

  it("forgets a deleted flow's schedules", async () => {
    await h.save(simpleFlow({ slug: 'doomed', model: 'reply:done', format: 'raw' }));
    expect((await h.put('/api/llm/acme/flows/doomed/schedules/soon', { cron: '0 * * * *', input: { question: 'q' } })).status).toBe(200);
    expect((await h.del('/api/llm/acme/flows/doomed')).status).toBe(200);
    expect(await h.stores.database.db.selectFrom('flow_schedules').select('id').where('name', '=', 'soon').execute()).toEqual([]);
  });

  it('pauses a schedule (no next time, never due) and deletes it', async () => {
    const paused = await (
      await h.put('/api/llm/acme/flows/digest/schedules/hourly', { cron: '0 * * * *', input: { question: 'q', team: 'ops' }, enabled: false })
    ).json();
    expect([paused.enabled, paused.next_run_at, paused.next_runs]).toEqual([false, null, []]);
    expect((await h.del('/api/llm/acme/flows/digest/schedules/hourly')).status).toBe(204);
    const gone = await h.del('/api/llm/acme/flows/digest/schedules/hourly');
    expect([gone.status, (await gone.json()).error.code]).toEqual([404, 'schedule_not_found']);
  });
});

describe.each(dialectsUnderTest().filter((d) => d === 'postgres'))('schedules across two instances on %s', (dialect) => {
  let h: Harness;
  let second: App;
  beforeAll(async () => {
    h = await startHarness(dialect, TICK);
    second = await buildApp(loadConfig({ ...h.db.env, FLOWS_PORT: '0', LOG_LEVEL: 'silent', ...TICK }));
    await listen(second, '127.0.0.1', 0);
    await h.save(simpleFlow({ slug: 'report', model: 'reply:done', format: 'raw' }));
  });
  afterAll(async () => {
    await second?.close();
    await h?.close();
  });

  it('runs each due time of 60 schedules exactly once between the two', async () => {
    const names = Array.from({ length: 60 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    for (const name of names) await h.put(`/api/llm/acme/flows/report/schedules/${name}`, { cron: '*/5 * * * *', input: { question: name } });
    await h.stores.database.db
      .updateTable('flow_schedules')
      .set({ next_run_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const runs = await eventually(async () => {
      const body = await (await h.get('/api/llm/acme/runs?trigger=schedule&limit=200')).json();
      const settled = body.runs.filter((r: { status: string }) => r.status !== 'running');
      return settled.length >= names.length ? body.runs : undefined;
    });
    // A little longer: a second run of any due time would show up now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const all = (await (await h.get('/api/llm/acme/runs?trigger=schedule&limit=200')).json()).runs as Array<{ schedule: string; status: string }>;
    expect(all.length).toBe(names.length);
    expect(all.map((r) => r.schedule).sort()).toEqual(names);
    expect(runs.every((r: { status: string }) => r.status === 'succeeded')).toBe(true);
    const fires = await h.stores.database.db.selectFrom('schedule_fires').select(['schedule_id', 'due_at']).execute();
    expect(fires.length).toBe(names.length);
  });
});
