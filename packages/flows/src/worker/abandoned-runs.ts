import type { Logger } from '@switchboard/core';
import { abandonedBefore } from '../domain/run-abandonment.ts';
import type { RunStore } from '../store/run-store.ts';

/** The error an abandoned run is recorded with (OpenAI's error shape, as every run error). */
export const ABANDONED_RUN_ERROR = {
  message: 'The instance running this flow stopped before the run finished (a crash or a kill); run it again.',
  type: 'api_error',
  param: null,
  code: 'run_abandoned',
} as const;

/**
 * Marks runs that an instance left `running` when it died as failed, so that
 * their X-Run-Id answers with an outcome instead of `running` forever. Every
 * instance sweeps at start and then every `sweepMs`; a run counts as
 * abandoned once it is older than the run timeout plus a short grace
 * (domain/run-abandonment.ts), since a live instance ends (and records) every
 * run at its timeout: a crash leaves a run `running` for at most timeout +
 * grace + one sweep interval. Sweeps on several instances at once are
 * harmless: a run is marked once.
 */
export class AbandonedRunSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly runs: RunStore,
    private readonly options: { runTimeoutMs: number; sweepMs: number; logger: Logger },
  ) {}

  /** Sweeps now (runs a dead instance left, found as this one starts), then every sweepMs. */
  start(): void {
    this.tick();
    this.timer = setInterval(() => this.tick(), this.options.sweepMs);
    this.timer.unref();
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.sweep()
      .catch((error) => this.options.logger.warn({ err: error }, 'sweeping abandoned runs failed; the next sweep tries again'))
      .finally(() => (this.running = undefined));
  }

  /** Marks the abandoned runs failed; returns their ids. */
  async sweep(now = new Date()): Promise<string[]> {
    const before = abandonedBefore(now, this.options.runTimeoutMs).toISOString();
    const ids = await this.runs.failAbandoned(before, ABANDONED_RUN_ERROR, now.toISOString());
    if (ids.length > 0) this.options.logger.warn({ run_ids: ids }, 'runs left running by a stopped instance marked failed');
    return ids;
  }

  /** Stops sweeping and waits for a sweep in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
