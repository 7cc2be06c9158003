// When a run left `running` counts as abandoned by an instance that died (crash, kill -9). A live instance
// ends and records every run at FLOWS_RUN_TIMEOUT_MS, so a run older than that plus a short grace has no
// live instance. Every instance sweeps at start and then every FLOWS_RUN_SWEEP_MS, so a dead instance's
// run is marked failed at most timeout + grace + one sweep interval after it started.

/**
 * How long past the run timeout a `running` run waits before it counts as abandoned: time for a live
 * instance to write the end of a run it aborted at its timeout (a batched write, retried when the database
 * hiccups), with clocks of instances a little apart. A live run's end written later still wins.
 */
export const ABANDON_GRACE_MS = 5_000;

/** Runs still `running` that started before this instant (at `now`) are abandoned. */
export function abandonedBefore(now: Date, runTimeoutMs: number): Date {
  return new Date(now.getTime() - runTimeoutMs - ABANDON_GRACE_MS);
}

/** The longest a run of an instance that died stays `running` while another instance (or a restart) sweeps. */
export function abandonmentBoundMs(runTimeoutMs: number, sweepMs: number): number {
  return runTimeoutMs + ABANDON_GRACE_MS + sweepMs;
}
