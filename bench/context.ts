import type { Row } from './lib/report.ts';

/** What every scenario module gets from the runner. */
export interface BenchContext {
  quick: boolean;
  /** Seconds of measured load per run. */
  durationSeconds: number;
  /** Seconds of unmeasured load before each measured run. */
  warmupSeconds: number;
  /** Concurrent connections of the load generator. */
  connections: number;
  /** Environment for the services and their stores: DATA_DIR, and DATABASE_URL (with schema_prefix) on PostgreSQL. */
  env: Record<string, string>;
  /** On PostgreSQL: the server URL without the prefix, and the prefix of this run's schemas. */
  postgres?: { url: string; prefix: string };
  /** Prints a progress line. */
  log(message: string): void;
}

/** A group of scenarios for one service. */
export type Suite = (context: BenchContext) => Promise<Row[]>;
