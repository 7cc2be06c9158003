/** What the Schedules tab shows of a rule before and after saving: its next times in its zone, or what is wrong. Pure. */
import { cronProblems, isKnownTimeZone, nextTimes } from '../../../src/domain/schedule.ts';

/** The zones the browser knows, the reader's own first; UTC always offered. */
export function timeZones(): string[] {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([own, 'UTC', ...all])];
}

/** "Mon 30 Mar, 02:30" in `zone` (the zone's own wall clock, as the schedule reads it). */
export function inZone(iso: string, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(
    new Date(iso),
  );
}

/** The next `count` times a rule fires in its zone, or the problem with the rule or the zone (the server's own rules). */
export function previewOf(cron: string, zone: string, now: Date, count = 5): { times: string[] } | { problem: string } {
  if (!isKnownTimeZone(zone)) return { problem: `Unknown time zone "${zone}"` };
  const problems = cronProblems(cron, zone, now);
  if (problems.length > 0) return { problem: problems[0] };
  return { times: nextTimes(cron.trim(), zone, now, count).map((t) => inZone(t.toISOString(), zone)) };
}

/** A skipped due time, said in words. */
export function skipReason(reason: 'missed' | 'coalesced' | null): string {
  if (reason === 'coalesced') return 'Skipped: one catch-up run stood for it';
  if (reason === 'missed') return 'Skipped: missed while no instance ran';
  return 'Skipped';
}
