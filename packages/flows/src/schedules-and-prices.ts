import type { App, Logger } from '@switchboard/core';
import type { FlowsConfig } from './config.ts';
import { FlowSchedules } from './flow-schedules.ts';
import type { RunService } from './engine/run-service.ts';
import { scheduledRunStarter } from './engine/scheduled-runs.ts';
import { registerPriceRoutes } from './http/price-routes.ts';
import { registerScheduleRoutes } from './http/schedule-routes.ts';
import type { FlowsStores } from './stores.ts';
import { ScheduleWorker } from './worker/schedule-worker.ts';

/**
 * Mounts schedules (routes and the worker that runs them) and model prices on the app. The worker starts
 * when the app is ready (its first poll is the catch-up of what no instance ran); `stop()` ends it and waits
 * for the scheduled runs in progress, before the stores close.
 */
export function installSchedulesAndPrices(
  app: App,
  deps: { stores: FlowsStores; runs: RunService; config: FlowsConfig; logger: Logger },
): { stop(): Promise<void> } {
  const { stores, runs, config } = deps;
  registerPriceRoutes(app, { providers: stores.providers, prices: stores.prices });
  registerScheduleRoutes(app, { schedules: new FlowSchedules({ flows: stores.flows, schedules: stores.schedules }) });
  const worker = new ScheduleWorker(stores.schedules, scheduledRunStarter(runs), {
    tickMs: config.scheduleTickMs,
    catchupMs: config.scheduleCatchupMs,
    concurrency: config.scheduleConcurrency,
    logger: deps.logger,
    newRunId: () => runs.newIds().runId,
  });
  app.addHook('onReady', async () => worker.start());
  return { stop: () => worker.stop() };
}
