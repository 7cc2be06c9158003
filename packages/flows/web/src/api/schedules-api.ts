// The kit's API client alone (no components), as prices-api.ts, which the server-side type check reaches.
import { api, ApiError } from '@switchboard/web-kit/api';

/** One handled due time of a schedule: it ran (its run's status) or was skipped. */
export interface ScheduleFire {
  due_at: string;
  status: 'running' | 'succeeded' | 'failed' | 'skipped';
  /** Why a skipped time did not run: `missed` (no instance ran within the catch-up window) or `coalesced` (one catch-up run stood for it). */
  reason: 'missed' | 'coalesced' | null;
  run_id: string | null;
}

/** A schedule as `GET …/flows/{slug}/schedules` lists it (src/http/schedule-routes.ts). */
export interface Schedule {
  name: string;
  flow: string;
  cron: string;
  timezone: string;
  input: Record<string, unknown>;
  enabled: boolean;
  next_run_at: string | null;
  /** The next five due times (none while paused). */
  next_runs: string[];
  last_run_at: string | null;
  last_status: string | null;
  last_run_id: string | null;
  /** The newest handled due times, newest first. */
  recent: ScheduleFire[];
  created_at: string;
  updated_at: string;
}

/** What a schedule is saved with (`PUT …/schedules/{name}`). */
export interface ScheduleBody {
  cron: string;
  timezone: string;
  input: Record<string, unknown>;
  enabled: boolean;
}

/** A 422's problems as one message, each named (`cron: …; input.limit: …`). */
export function problemsOf(error: unknown): Error {
  const details = error instanceof ApiError ? (error.body as { error?: { details?: Array<{ param: string; message: string }> } })?.error?.details : undefined;
  if (!details || details.length === 0) return error as Error;
  return new Error(details.map((d) => d.message).join(' · '));
}

/** The schedules of flow `slug` of the organization whose API is at `base`. */
export function schedulesApi(base: string, slug: string) {
  const root = `${base}/flows/${encodeURIComponent(slug)}/schedules`;
  return {
    list: (signal?: AbortSignal) => api<{ schedules: Schedule[] }>(root, { signal }),
    save: (name: string, body: ScheduleBody) =>
      api<Schedule>(`${root}/${encodeURIComponent(name)}`, { method: 'PUT', body }).catch((error: unknown) => {
        throw problemsOf(error);
      }),
    remove: (name: string) => api<unknown>(`${root}/${encodeURIComponent(name)}`, { method: 'DELETE' }),
  };
}
