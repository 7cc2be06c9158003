import type { Kysely } from 'kysely';
import { isoNow } from '@switchboard/core';
import type { ScheduleSpec, SkipReason } from '../domain/schedule.ts';
import type { FlowsDatabase } from './database.ts';

/** A schedule as stored. */
export interface ScheduleRecord {
  id: number;
  orgId: number;
  flowId: number;
  name: string;
  cron: string;
  timezone: string;
  input: Record<string, unknown>;
  enabled: boolean;
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastStatus: string | null;
  lastRunId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One handled due time of a schedule. */
export interface ScheduleFire {
  dueAt: string;
  status: string;
  reason: SkipReason | null;
  runId: string | null;
  recordedAt: string;
}

/** A due schedule with what running it needs: its flow's slug and its organization. */
export interface DueSchedule extends ScheduleRecord {
  nextRunAt: string;
  flowSlug: string;
  /** The flow's latest version when the schedule was read (a run loads it without another query). */
  flowVersion: number;
  orgCode: string;
  providersVersion: number;
}

/** What one claim writes: the due time that runs (with its run's id) and those skipped. */
export interface Claim {
  schedule: DueSchedule;
  /** The next due time after this claim (null: the rule never fires again). */
  next: string | null;
  run: { dueAt: string; runId: string } | null;
  skipped: Array<{ dueAt: string; reason: SkipReason }>;
}

type Row = FlowsDatabase['flow_schedules'];

/** Handled due times kept per schedule (its history in the Schedules tab and the API's `recent`). */
export const KEPT_FIRES = 200;

function fromRow(row: Omit<Row, 'id'> & { id: number }): ScheduleRecord {
  return {
    id: Number(row.id),
    orgId: row.org_id,
    flowId: row.flow_id,
    name: row.name,
    cron: row.cron,
    timezone: row.timezone,
    input: JSON.parse(row.input),
    enabled: Number(row.enabled) === 1,
    nextRunAt: row.next_run_at,
    lastRunAt: row.last_run_at,
    lastStatus: row.last_status,
    lastRunId: row.last_run_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Schedules and their due times; a due time is claimed by one instance through the database (see claim()). */
export class ScheduleStore {
  constructor(private readonly db: Kysely<FlowsDatabase>) {}

  /** Creates or replaces the schedule `name` of a flow; `nextRunAt` is its first due time (null when paused). */
  async put(orgId: number, flowId: number, name: string, spec: ScheduleSpec, nextRunAt: string | null, now = new Date()): Promise<ScheduleRecord> {
    const stamp = isoNow(now);
    const values = {
      cron: spec.cron,
      timezone: spec.timezone,
      input: JSON.stringify(spec.input),
      enabled: spec.enabled ? 1 : 0,
      next_run_at: nextRunAt,
      updated_at: stamp,
    };
    await this.db
      .insertInto('flow_schedules')
      .values({ org_id: orgId, flow_id: flowId, name, created_at: stamp, last_run_at: null, last_status: null, last_run_id: null, ...values })
      .onConflict((oc) => oc.columns(['flow_id', 'name']).doUpdateSet(values))
      .execute();
    return (await this.get(flowId, name))!;
  }

  /** A flow's schedules by name. */
  async list(flowId: number): Promise<ScheduleRecord[]> {
    const rows = await this.db.selectFrom('flow_schedules').selectAll().where('flow_id', '=', flowId).orderBy('name').execute();
    return rows.map(fromRow);
  }

  /** One schedule of a flow. */
  async get(flowId: number, name: string): Promise<ScheduleRecord | undefined> {
    const row = await this.db.selectFrom('flow_schedules').selectAll().where('flow_id', '=', flowId).where('name', '=', name).executeTakeFirst();
    return row && fromRow(row);
  }

  /** Removes a schedule (and its history); false when there was none. */
  async delete(flowId: number, name: string): Promise<boolean> {
    const result = await this.db.deleteFrom('flow_schedules').where('flow_id', '=', flowId).where('name', '=', name).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The newest `limit` handled due times of a schedule, newest first. */
  async fires(scheduleId: number, limit: number): Promise<ScheduleFire[]> {
    const rows = await this.db.selectFrom('schedule_fires').selectAll().where('schedule_id', '=', scheduleId).orderBy('due_at', 'desc').limit(limit).execute();
    return rows.map((r) => ({ dueAt: r.due_at, status: r.status, reason: r.reason as SkipReason | null, runId: r.run_id, recordedAt: r.recorded_at }));
  }

  /** Active schedules whose next due time is at or before `now`, the most overdue first. */
  async due(now: Date, limit: number): Promise<DueSchedule[]> {
    const rows = await this.db
      .selectFrom('flow_schedules as s')
      .innerJoin('flows as f', 'f.id', 's.flow_id')
      .innerJoin('orgs as o', 'o.id', 's.org_id')
      .selectAll('s')
      .select(['f.slug as flow_slug', 'f.version as flow_version', 'o.code as org_code', 'o.providers_version as providers_version'])
      .where('s.enabled', '=', 1)
      .where('s.next_run_at', '<=', now.toISOString())
      .orderBy('s.next_run_at')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      ...fromRow(r),
      nextRunAt: r.next_run_at!,
      flowSlug: r.flow_slug,
      flowVersion: r.flow_version,
      orgCode: r.org_code,
      providersVersion: r.providers_version,
    }));
  }

  /**
   * Claims a schedule's due time for this instance, in one transaction: moves its next due time on, but
   * only from the value this instance read (another instance that moved it first wins: false), and inserts
   * the handled due times, keyed by (schedule, due time), so that no due time is ever handled twice, even
   * after an edit. True when this instance owns the claim and must start `claim.run`.
   */
  async claim(claim: Claim, now = new Date()): Promise<boolean> {
    const stamp = isoNow(now);
    return this.db.transaction().execute(async (trx) => {
      // The compare-and-set is the transaction's first statement: on SQLite it takes the write lock before anything is read.
      // The run's claim also names it the schedule's last run; a due time already handled (below) puts the old one back.
      const run = claim.run;
      const moved = await trx
        .updateTable('flow_schedules')
        .set(run ? { next_run_at: claim.next, last_run_at: stamp, last_status: 'running', last_run_id: run.runId } : { next_run_at: claim.next })
        .where('id', '=', claim.schedule.id)
        .where('enabled', '=', 1)
        .where('next_run_at', '=', claim.schedule.nextRunAt)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return false;
      const fires = claim.skipped.map((s) => ({
        schedule_id: claim.schedule.id,
        due_at: s.dueAt,
        status: 'skipped',
        reason: s.reason,
        run_id: null,
        recorded_at: stamp,
      }));
      if (fires.length > 0)
        await trx
          .insertInto('schedule_fires')
          .values(fires)
          .onConflict((oc) => oc.columns(['schedule_id', 'due_at']).doNothing())
          .execute();
      if (!run) return false;
      const inserted = await trx
        .insertInto('schedule_fires')
        .values({ schedule_id: claim.schedule.id, due_at: run.dueAt, status: 'running', reason: null, run_id: run.runId, recorded_at: stamp })
        .onConflict((oc) => oc.columns(['schedule_id', 'due_at']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return true;
      const { lastRunAt, lastStatus, lastRunId } = claim.schedule;
      await trx
        .updateTable('flow_schedules')
        .set({ last_run_at: lastRunAt, last_status: lastStatus, last_run_id: lastRunId })
        .where('id', '=', claim.schedule.id)
        .execute();
      return false;
    });
  }

  /**
   * Records how a scheduled run ended, on its due time and, while it is still the schedule's last run, on the
   * schedule; and forgets the schedule's handled due times beyond the newest KEPT_FIRES (an every-minute rule
   * would otherwise add half a million rows a year). A forgotten time is never due again: a schedule's next due
   * time only moves forward from now.
   */
  async finish(scheduleId: number, dueAt: string, runId: string, status: 'succeeded' | 'failed'): Promise<void> {
    // Independent writes (each right on its own), sent at once: no transaction's extra round trips.
    await Promise.all([
      this.db.updateTable('schedule_fires').set({ status }).where('schedule_id', '=', scheduleId).where('due_at', '=', dueAt).execute(),
      this.db.updateTable('flow_schedules').set({ last_status: status }).where('id', '=', scheduleId).where('last_run_id', '=', runId).execute(),
      this.db
        .deleteFrom('schedule_fires')
        .where('schedule_id', '=', scheduleId)
        .where('due_at', '<', (eb) =>
          eb
            .selectFrom('schedule_fires')
            .select('due_at')
            .where('schedule_id', '=', scheduleId)
            .orderBy('due_at', 'desc')
            .limit(1)
            .offset(KEPT_FIRES - 1),
        )
        .execute(),
    ]);
  }
}
