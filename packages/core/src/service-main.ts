import { ConfigError } from './config.ts';

/** Something started that can be stopped. */
export interface Closable {
  close(): Promise<void>;
  /** How long close() may take before the process gives up and exits 1 (default 10 s; a grace period plus a margin). */
  closeTimeoutMs?: number;
}

/**
 * Runs a service's `main`: configuration problems print one line naming the
 * variable and exit 1; SIGINT/SIGTERM close the service gracefully.
 */
export async function runMain(start: () => Promise<Closable>): Promise<void> {
  let running: Closable;
  try {
    running = await start();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
    } else {
      process.stderr.write(`failed to start: ${(error as Error).message ?? String(error)}\n`);
    }
    process.exit(1);
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => process.exit(1), running.closeTimeoutMs ?? 10_000);
    timer.unref();
    try {
      await running.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
