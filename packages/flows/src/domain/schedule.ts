/** Schedules of a flow (design/flows.md, "Schedules"): cron rules in a time zone, their due times, catch-up. Pure: time is passed in. */
import { Cron } from 'croner';
import type { ProblemDetail } from './errors.ts';
import type { InputVariable } from './flow-definition.ts';
import { validateInput } from './input-variables.ts';

/** What a schedule says: when, in which zone, with which input, and whether it is paused. */
export interface ScheduleSpec {
  cron: string;
  timezone: string;
  input: Record<string, unknown>;
  enabled: boolean;
}

/** How a due time ended up: it ran, or it was skipped (missed by too much, or folded into the one run of a catch-up). */
export type SkipReason = 'missed' | 'coalesced';

/** Names a schedule may have: they appear in URLs. */
export const SCHEDULE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Longest cron expression accepted. */
const MAX_CRON_LENGTH = 200;
/** Due times of one catch-up that are enumerated and recorded; older ones are counted only. */
export const MAX_RECORDED_MISSES = 100;

const NICKNAMES = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** True when `zone` is a time zone the platform (Intl) knows. */
export function isKnownTimeZone(zone: string): boolean {
  if (zone === '' || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function cronOf(cron: string, timezone: string): Cron {
  // Five fields only: a schedule fires at most once a minute; day-of-month and day-of-week combine with OR, as in Vixie cron.
  return new Cron(cron, { timezone, paused: true, mode: '5-part', legacyMode: true });
}

/** Problems of a cron expression in a zone (the zone assumed known): one that cannot be parsed, fires more than once a minute, or never fires. */
export function cronProblems(cron: string, timezone: string, now: Date): string[] {
  const text = cron.trim();
  if (text === '') return ['cron is empty: give five fields, minute hour day-of-month month day-of-week, e.g. "*/15 * * * *"'];
  if (text.length > MAX_CRON_LENGTH) return [`cron has more than ${MAX_CRON_LENGTH} characters`];
  if (text.startsWith('@')) {
    if (!NICKNAMES.has(text.toLowerCase())) return [`"${text}" is not a schedule nickname (${[...NICKNAMES].join(', ')})`];
  } else {
    const fields = text.split(/\s+/).length;
    if (fields === 6 || fields === 7)
      return [`"${text}" has ${fields} fields: a schedule fires at most once a minute, so give five (minute hour day-of-month month day-of-week), no seconds`];
    if (fields !== 5) return [`"${text}" has ${fields} field${fields === 1 ? '' : 's'}: give five, minute hour day-of-month month day-of-week`];
  }
  let parsed: Cron;
  try {
    parsed = cronOf(text, timezone);
  } catch (error) {
    return [`"${text}" is not a valid cron expression: ${error instanceof Error ? error.message : String(error)}`];
  }
  if (parsed.nextRun(now) === null) return [`"${text}" never fires (no date matches it)`];
  return [];
}

/**
 * Checks the body of `PUT …/schedules/{name}` against the flow's Input node:
 * every problem named (`cron`, `timezone`, `input.NAME`, `enabled`). The
 * stored input is the one given (defaults are applied at each run, so they
 * follow the flow's later versions).
 */
export function parseScheduleBody(
  body: unknown,
  variables: InputVariable[],
  now: Date,
): { ok: true; spec: ScheduleSpec } | { ok: false; problems: ProblemDetail[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, problems: [{ param: 'body', message: 'Send {"cron", "timezone", "input"?, "enabled"?}' }] };
  }
  const b = body as Record<string, unknown>;
  const problems: ProblemDetail[] = [];
  for (const key of Object.keys(b)) {
    if (!['cron', 'timezone', 'input', 'enabled'].includes(key))
      problems.push({ param: key, message: `Unknown field "${key}" (a schedule has cron, timezone, input and enabled)` });
  }
  const cron = b.cron;
  const timezone = b.timezone === undefined ? 'UTC' : b.timezone;
  let zoneOk = false;
  if (typeof timezone !== 'string') problems.push({ param: 'timezone', message: 'timezone must be an IANA time zone name such as "Europe/Paris"' });
  else if (!isKnownTimeZone(timezone))
    problems.push({ param: 'timezone', message: `Unknown time zone "${timezone}": give an IANA name such as "Europe/Paris" or "UTC"` });
  else zoneOk = true;
  if (typeof cron !== 'string') problems.push({ param: 'cron', message: 'cron must be a string of five fields, e.g. "*/15 * * * *"' });
  else for (const message of cronProblems(cron, zoneOk ? (timezone as string) : 'UTC', now)) problems.push({ param: 'cron', message });
  const input = b.input === undefined ? {} : b.input;
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    problems.push({ param: 'input', message: "input must be an object whose keys are the Input node's variables" });
  else {
    const checked = validateInput(variables, input as Record<string, unknown>);
    if (!checked.ok) problems.push(...checked.problems);
  }
  if (b.enabled !== undefined && typeof b.enabled !== 'boolean') problems.push({ param: 'enabled', message: 'enabled must be true or false' });
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    spec: { cron: (cron as string).trim(), timezone: timezone as string, input: input as Record<string, unknown>, enabled: b.enabled !== false },
  };
}

/** The next `count` times the rule fires strictly after `after`. */
export function nextTimes(cron: string, timezone: string, after: Date, count: number): Date[] {
  return cronOf(cron, timezone).nextRuns(count, after);
}

/** The first time the rule fires strictly after `after` (null: never again). */
export function nextTime(cron: string, timezone: string, after: Date): Date | null {
  return cronOf(cron, timezone).nextRun(after);
}

/** What to do with a schedule whose next due time has come. */
export interface DuePlan {
  /** The due time that runs now; null when every one was missed by more than the catch-up window. */
  run: Date | null;
  /** Due times recorded as skipped, oldest first: at most MAX_RECORDED_MISSES, the newest. */
  skipped: Array<{ dueAt: Date; reason: SkipReason }>;
  /** True when older due times were skipped too than `skipped` lists (a long outage). */
  olderSkipped: boolean;
  /** The next due time after now (null: the rule never fires again). */
  next: Date | null;
}

/**
 * The due times from `due` (the schedule's next due time, ≤ now) up to `now`:
 * the newest runs, once, when it is less than `catchupMs` old; every other one
 * is skipped, as `coalesced` when it was within the window too (one run stands
 * for them), else as `missed`. Read backwards from now, so a year-long outage
 * of an every-minute rule costs no more than a short one.
 */
export function planDue(cron: string, timezone: string, due: Date, now: Date, catchupMs: number): DuePlan {
  const rule = cronOf(cron, timezone);
  // previousRuns lists times before its reference, newest first.
  const recent = rule.previousRuns(MAX_RECORDED_MISSES + 1, new Date(now.getTime() + 1)).filter((t) => t.getTime() >= due.getTime());
  if (recent.length === 0 || recent[recent.length - 1].getTime() !== due.getTime()) {
    if (recent.length < MAX_RECORDED_MISSES + 1) recent.push(due);
  }
  const times = recent.reverse();
  const olderSkipped = times[0].getTime() > due.getTime();
  const newest = times[times.length - 1];
  const run = now.getTime() - newest.getTime() < catchupMs ? newest : null;
  const skipped = times
    .filter((t) => t !== run)
    .map((dueAt) => ({ dueAt, reason: (now.getTime() - dueAt.getTime() < catchupMs ? 'coalesced' : 'missed') as SkipReason }));
  return { run, skipped, olderSkipped, next: rule.nextRun(now) };
}
