import { ConfigError, isAppError } from '@switchboard/core';

/** Options every command accepts. */
export interface CommonOptions {
  json?: boolean;
}

/**
 * Prints a command's result: with `--json` exactly one JSON object on stdout,
 * else the human text (or the object, indented).
 */
export function printResult(options: CommonOptions, result: object, human?: string): void {
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    process.stdout.write(`${human ?? JSON.stringify(result, null, 2)}\n`);
  }
}

/** Prints one line on stderr and sets a non-zero exit code. */
export function printFailure(error: unknown): void {
  const message = error instanceof ConfigError || isAppError(error) ? error.message : ((error as Error)?.message ?? String(error));
  process.stderr.write(`error: ${message.split('\n')[0]}\n`);
  process.exitCode = 1;
}

/** Wraps a command action so that any failure is one stderr line and a non-zero exit. */
export function action<A extends unknown[]>(run: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await run(...args);
    } catch (error) {
      printFailure(error);
    }
  };
}
