/** Statistics of an organization's runs per hour and per flow (the dashboard's Overview). */
import { roundUsd } from './cost.ts';

/** Longest window the statistics cover, in hours (a week). */
export const MAX_STATS_HOURS = 168;

const HOUR_MS = 3_600_000;

/** What statistics read of one run. */
export interface RunStatsRow {
  flow: string;
  status: string;
  /** Null while running. */
  latencyMs: number | null;
  startedAt: string;
  promptTokens: number;
  completionTokens: number;
  /** US dollars of the run's priced model calls (0 for runs from before costs were kept). */
  costUsd: number;
}

/** Figures of a set of runs. */
export interface RunFigures {
  runs: number;
  failed: number;
  /** Failed runs among finished ones (0..1, 4 decimals); null when none finished. */
  failureRate: number | null;
  /** Latency percentiles of finished runs (nearest rank); null when none finished. */
  p50Ms: number | null;
  p95Ms: number | null;
  promptTokens: number;
  completionTokens: number;
  /** US dollars, to 8 decimals. */
  costUsd: number;
}

/** Figures of one hour. */
export interface HourFigures extends RunFigures {
  /** The hour's start, ISO 8601. */
  hour: string;
}

/** Figures of a whole window and of each of its hours. */
export interface WindowFigures extends RunFigures {
  byHour: HourFigures[];
}

/** The statistics of a window: every hour present, flows with runs in the window, busiest first. */
export interface RunStats {
  from: string;
  to: string;
  hours: string[];
  total: WindowFigures;
  flows: Array<WindowFigures & { flow: string }>;
}

/**
 * The window of `hours` whole hours ending with the current one: its first
 * hour's start (where the runs to read start) and each hour's start.
 */
export function statsWindow(now: Date, hours: number): { from: Date; hourStarts: string[] } {
  const current = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const first = current - (hours - 1) * HOUR_MS;
  return { from: new Date(first), hourStarts: Array.from({ length: hours }, (_, i) => new Date(first + i * HOUR_MS).toISOString()) };
}

class Accumulator {
  runs = 0;
  failed = 0;
  finished = 0;
  promptTokens = 0;
  completionTokens = 0;
  costUsd = 0;
  readonly latencies: number[] = [];

  add(row: RunStatsRow): void {
    this.runs++;
    if (row.status === 'failed') this.failed++;
    if (row.status !== 'running') this.finished++;
    if (row.latencyMs !== null && row.status !== 'running') this.latencies.push(row.latencyMs);
    this.promptTokens += row.promptTokens;
    this.completionTokens += row.completionTokens;
    this.costUsd += row.costUsd;
  }

  figures(): RunFigures {
    const sorted = this.latencies.sort((a, b) => a - b);
    return {
      runs: this.runs,
      failed: this.failed,
      failureRate: this.finished === 0 ? null : Math.round((this.failed / this.finished) * 10000) / 10000,
      p50Ms: percentile(sorted, 50),
      p95Ms: percentile(sorted, 95),
      promptTokens: this.promptTokens,
      completionTokens: this.completionTokens,
      costUsd: roundUsd(this.costUsd),
    };
  }
}

/** The nearest-rank percentile of sorted values; null for none. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One accumulator for the whole window and one per hour. */
class Series {
  readonly all = new Accumulator();
  readonly hours: Accumulator[];

  constructor(count: number) {
    this.hours = Array.from({ length: count }, () => new Accumulator());
  }

  figures(hourStarts: string[]): WindowFigures {
    return { ...this.all.figures(), byHour: this.hours.map((h, i) => ({ hour: hourStarts[i], ...h.figures() })) };
  }
}

/**
 * Computes the statistics of the runs that started in a window (`rows`, as
 * read from its first hour's start). A run stamped after the last hour's
 * start by an instance whose clock runs ahead counts in the last hour.
 */
export function runStats(rows: RunStatsRow[], window: { from: Date; to: Date; hourStarts: string[] }): RunStats {
  const count = window.hourStarts.length;
  const start = window.from.getTime();
  const total = new Series(count);
  const flows = new Map<string, Series>();
  for (const row of rows) {
    const index = Math.min(count - 1, Math.max(0, Math.floor((Date.parse(row.startedAt) - start) / HOUR_MS)));
    let series = flows.get(row.flow);
    if (!series) {
      series = new Series(count);
      flows.set(row.flow, series);
    }
    for (const s of [total, series]) {
      s.all.add(row);
      s.hours[index].add(row);
    }
  }
  const perFlow = [...flows.entries()]
    .map(([flow, series]) => ({ flow, ...series.figures(window.hourStarts) }))
    .sort((a, b) => b.runs - a.runs || (a.flow < b.flow ? -1 : a.flow > b.flow ? 1 : 0));
  return { from: window.from.toISOString(), to: window.to.toISOString(), hours: window.hourStarts, total: total.figures(window.hourStarts), flows: perFlow };
}
