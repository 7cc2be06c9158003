import type { App } from '@switchboard/core';
import { runStats, statsWindow } from '../domain/run-stats.ts';
import type { RunRecorder, RunStore } from '../store/run-store.ts';
import { presentStats } from './presenters.ts';
import { bearer, orgParams, statsQuery } from './schema.ts';

/** Dependencies of the statistics route. */
export interface StatsDeps {
  runs: RunStore;
  recorder: RunRecorder;
}

const DEFAULT_HOURS = 24;

/** `GET /api/llm/{org_code}/stats`: runs, failures, latency percentiles and tokens per hour and per flow (manage scope). */
export function registerStatsRoutes(app: App, deps: StatsDeps): void {
  app.get(
    '/api/llm/:org_code/stats',
    {
      config: { scope: 'manage' },
      schema: {
        tags: ['runs'],
        summary: 'Runs per hour and per flow: counts, failures, p50/p95 latency, tokens',
        description:
          'Covers the last `hours` whole hours, the current one included; every hour is listed (zeros when idle); latency and failure rate of finished runs (null when none).',
        params: orgParams,
        querystring: statsQuery,
        security: bearer,
      },
    },
    async (request) => {
      const principal = request.principal!;
      await deps.recorder.flush();
      const now = new Date();
      const window = statsWindow(now, request.query.hours ?? DEFAULT_HOURS);
      const rows = await deps.runs.statsRows(principal.orgId, window.from.toISOString());
      return presentStats(runStats(rows, { ...window, to: now }));
    },
  );
}
