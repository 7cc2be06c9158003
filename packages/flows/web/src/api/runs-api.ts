import { api } from '@switchboard/web-kit';
import type { Run } from './types.ts';

/** A run's states, as the runs list filters them. */
export const RUN_STATUSES = ['running', 'succeeded', 'failed'] as const;
/** One of RUN_STATUSES. */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** What starts runs, as the runs list filters them. */
export const RUN_TRIGGERS = ['api', 'ui', 'schedule', 'mcp'] as const;
/** One of RUN_TRIGGERS. */
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/** Filters and position of a page of runs. */
export interface RunsQuery {
  flow?: string;
  status?: RunStatus;
  trigger?: RunTrigger;
  /** The `next_before` of the previous page. */
  before?: string;
  limit?: number;
}

/** A page of runs, newest first; `next_before` is null on the last page. */
export interface RunsPage {
  runs: Run[];
  next_before: string | null;
}

// These are the answer's shapes as src/http/presenters.ts writes the domain's RunStats (snake_case,
// `by_hour` for `byHour`): alike by design, not a copy of the domain's types.

/** Figures of a set of runs (`GET …/stats`). */
export interface RunFigures {
  runs: number;
  failed: number;
  /** Failed among finished runs, 0..1; null when none finished. */
  failure_rate: number | null;
  p50_ms: number | null;
  p95_ms: number | null;
  prompt_tokens: number;
  completion_tokens: number;
  /** US dollars of the runs' priced model calls. */
  cost_usd: number;
}

/** Figures of one hour. */
export interface HourFigures extends RunFigures {
  /** The hour's start, ISO 8601. */
  hour: string;
  tokens: number;
}

/** Figures of a window and of each of its hours. */
export interface WindowFigures extends RunFigures {
  by_hour: HourFigures[];
}

/** `GET /api/llm/{org}/stats?hours=N`: the organization's total and each flow with runs in the window. */
export interface RunStats {
  from: string;
  to: string;
  hours: string[];
  total: WindowFigures;
  flows: Array<WindowFigures & { flow: string }>;
}

/** Runs and statistics of the organization whose API is at `base` (`/api/llm/{org}`). */
export function runsApi(base: string) {
  return {
    list(query: RunsQuery, signal?: AbortSignal) {
      const params = new URLSearchParams();
      if (query.flow) params.set('flow', query.flow);
      if (query.status) params.set('status', query.status);
      if (query.trigger) params.set('trigger', query.trigger);
      if (query.before) params.set('before', query.before);
      if (query.limit) params.set('limit', String(query.limit));
      const search = params.toString();
      return api<RunsPage>(`${base}/runs${search ? `?${search}` : ''}`, { signal });
    },
    get: (runId: string, signal?: AbortSignal) => api<Run>(`${base}/runs/${encodeURIComponent(runId)}`, { signal }),
    stats: (hours: number, signal?: AbortSignal) => api<RunStats>(`${base}/stats?hours=${hours}`, { signal }),
  };
}
