import { FlowsError, invalidWith } from './domain/errors.ts';
import { compileFlow } from './domain/compiled-flow.ts';
import { nextTime, nextTimes, parseScheduleBody, SCHEDULE_NAME } from './domain/schedule.ts';
import type { FlowStore } from './store/flow-store.ts';
import type { ScheduleFire, ScheduleRecord, ScheduleStore } from './store/schedule-store.ts';

/** How many upcoming times and handled due times a schedule is shown with. */
const UPCOMING = 5;
const RECENT = 10;

/** A schedule as the API shows it: with its next times and its recent due times. */
export interface ScheduleView {
  flow: string;
  schedule: ScheduleRecord;
  upcoming: string[];
  recent: ScheduleFire[];
}

function scheduleNotFound(slug: string, name: string): FlowsError {
  return new FlowsError('not_found', `Flow "${slug}" has no schedule "${name}"`, 'schedule_not_found', { param: 'name' });
}

/** A flow's schedules (design/flows.md, "Schedules"): set, list, delete; the schedule worker runs them. */
export class FlowSchedules {
  constructor(
    private readonly deps: { flows: FlowStore; schedules: ScheduleStore },
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Creates or replaces schedule `name` of a flow: 422 invalid_schedule naming every problem (name, cron,
   * time zone, each input variable against the flow's current Input node). Its next due time counts from
   * now: times that passed while it was paused or before an edit do not run.
   */
  async put(orgId: number, slug: string, name: string, body: unknown): Promise<ScheduleView> {
    const flow = await this.deps.flows.require(orgId, slug);
    const current = await this.deps.flows.currentVersion(orgId, slug);
    const variables = compileFlow(await this.deps.flows.definition(flow.id, current!.version)).variables;
    const now = this.now();
    const parsed = parseScheduleBody(body, variables, now);
    const problems = parsed.ok ? [] : [...parsed.problems];
    if (!SCHEDULE_NAME.test(name))
      problems.unshift({ param: 'name', message: 'A schedule name has 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit' });
    if (!parsed.ok || problems.length > 0) throw invalidWith('invalid_schedule', problems);
    const { spec } = parsed;
    const next = spec.enabled ? nextTime(spec.cron, spec.timezone, now) : null;
    const record = await this.deps.schedules.put(orgId, flow.id, name, spec, next?.toISOString() ?? null, now);
    return this.view(flow.slug, record);
  }

  /** A flow's schedules, each with its next times and recent due times. */
  async list(orgId: number, slug: string): Promise<ScheduleView[]> {
    const flow = await this.deps.flows.require(orgId, slug);
    return Promise.all((await this.deps.schedules.list(flow.id)).map((record) => this.view(flow.slug, record)));
  }

  /** One schedule; 404 schedule_not_found. */
  async get(orgId: number, slug: string, name: string): Promise<ScheduleView> {
    const flow = await this.deps.flows.require(orgId, slug);
    const record = await this.deps.schedules.get(flow.id, name);
    if (!record) throw scheduleNotFound(flow.slug, name);
    return this.view(flow.slug, record);
  }

  /** Removes a schedule; 404 schedule_not_found. */
  async delete(orgId: number, slug: string, name: string): Promise<void> {
    const flow = await this.deps.flows.require(orgId, slug);
    if (!(await this.deps.schedules.delete(flow.id, name))) throw scheduleNotFound(flow.slug, name);
  }

  private async view(slug: string, schedule: ScheduleRecord): Promise<ScheduleView> {
    // The upcoming times start at the next due time not yet claimed (a time due this instant is still upcoming).
    const from = schedule.nextRunAt ? new Date(Date.parse(schedule.nextRunAt) - 1) : this.now();
    const upcoming = schedule.enabled ? nextTimes(schedule.cron, schedule.timezone, from, UPCOMING).map((t) => t.toISOString()) : [];
    return { flow: slug, schedule, upcoming, recent: await this.deps.schedules.fires(schedule.id, RECENT) };
  }
}
