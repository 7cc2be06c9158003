import type { Logger } from '@switchboard/core';
import { planDue } from '../domain/schedule.ts';
import type { DueSchedule, ScheduleStore } from '../store/schedule-store.ts';

/** Starts the run of a claimed due time and resolves with how it ended (never rejects for a failed run). */
export type ScheduledRunStarter = (schedule: DueSchedule, dueAt: string, runId: string) => Promise<'succeeded' | 'failed'>;

/** How the schedule worker paces itself. */
export interface ScheduleWorkerOptions {
  /** How often due schedules are looked for (FLOWS_SCHEDULE_TICK_MS). */
  tickMs: number;
  /** How old a missed due time may be and still run once (FLOWS_SCHEDULE_CATCHUP_MS). */
  catchupMs: number;
  /** Scheduled runs this instance runs at once (FLOWS_SCHEDULE_CONCURRENCY); past it, it claims nothing and leaves the rest to other instances. */
  concurrency: number;
  logger: Logger;
  /** A new run id. */
  newRunId: () => string;
  /** The clock (tests move it). */
  now?: () => Date;
}

/** Due schedules read per poll. */
const BATCH = 100;

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/**
 * Runs every instance's share of the schedules: each poll reads the due ones
 * and claims each due time in the database (ScheduleStore.claim), so that
 * across any number of instances a due time runs once. Missed due times (no
 * instance was running) are handled by the first poll, as the instance
 * starts: the newest runs once if it is less than the catch-up window old,
 * the others are recorded as skipped. Instances read the due schedules in
 * different orders, so two of them mostly claim different ones instead of
 * racing for the same.
 */
export class ScheduleWorker {
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private stopped = true;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly now: () => Date;
  // One warning per poll interval at most about skipped due times (a long outage skips many).
  private lastSkipWarning = 0;
  // True when the last poll left due schedules unclaimed for want of capacity: a run's end polls again at once.
  private starved = false;

  constructor(
    private readonly store: ScheduleStore,
    private readonly startRun: ScheduledRunStarter,
    private readonly options: ScheduleWorkerOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** Polls now (the catch-up of what was missed while no instance ran), then every tickMs. */
  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops polling and waits for the poll and the scheduled runs in progress (a stop aborts runs after its grace period). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.polling) return;
      this.polling = this.poll()
        .then((more) => this.schedule(more ? 0 : this.options.tickMs))
        .catch((error) => {
          this.options.logger.warn({ err: error }, 'looking for due schedules failed; the next poll tries again');
          this.schedule(this.options.tickMs);
        })
        .finally(() => (this.polling = undefined));
    }, ms);
    this.timer.unref();
  }

  /** One poll: claims and starts what is due, as capacity allows; true when more may be due at once. */
  async poll(): Promise<boolean> {
    this.starved = false;
    if (this.inFlight.size >= this.options.concurrency) {
      this.starved = true;
      return false;
    }
    const now = this.now();
    const due = shuffle(await this.store.due(now, BATCH));
    // As many claims at once as there is room for runs: each is a few round trips to the database, so one
    // after the other they, not the runs, would set the pace. A claim lost to another instance leaves room for the next poll.
    const room = this.options.concurrency - this.inFlight.size;
    if (due.length > room) this.starved = true;
    if (!this.stopped) await Promise.all(due.slice(0, room).map((schedule) => this.claimAndRun(schedule, now)));
    // A full page means more may be due; a page cut short by capacity waits for a run to end (runDone polls again).
    return due.length === BATCH && !this.starved;
  }

  private async claimAndRun(schedule: DueSchedule, now: Date): Promise<boolean> {
    const plan = planDue(schedule.cron, schedule.timezone, new Date(schedule.nextRunAt), now, this.options.catchupMs);
    const run = plan.run ? { dueAt: plan.run.toISOString(), runId: this.options.newRunId() } : null;
    const skipped = plan.skipped.map((s) => ({ dueAt: s.dueAt.toISOString(), reason: s.reason }));
    const owned = await this.store.claim({ schedule, next: plan.next?.toISOString() ?? null, run, skipped }, now);
    const missed = skipped.filter((s) => s.reason === 'missed');
    if (missed.length > 0 && now.getTime() - this.lastSkipWarning >= this.options.tickMs) {
      this.lastSkipWarning = now.getTime();
      this.options.logger.warn(
        { schedule: schedule.name, flow: schedule.flowSlug, org: schedule.orgCode, skipped: missed.length, more: plan.olderSkipped, oldest: missed[0].dueAt },
        'scheduled times missed by more than FLOWS_SCHEDULE_CATCHUP_MS while no instance ran were recorded as skipped',
      );
    }
    if (!owned || !run) return false;
    const done: Promise<void> = this.startRun(schedule, run.dueAt, run.runId)
      .then((status) => this.store.finish(schedule.id, run.dueAt, run.runId, status))
      .catch((error) => this.options.logger.error({ err: error, run_id: run.runId, schedule: schedule.name }, 'could not record the end of a scheduled run'))
      .finally(() => {
        this.inFlight.delete(done);
        // Capacity freed: what waited for it need not wait for the next tick, once half the room is free (one
        // poll then claims a batch, instead of one poll per run that ends).
        if (this.starved && !this.polling && this.inFlight.size <= this.options.concurrency / 2) this.schedule(0);
      });
    this.inFlight.add(done);
    return true;
  }
}
