import { sql, type Kysely } from 'kysely';
import type { Rate } from './config.ts';
import type { PlatformTables } from './users.ts';

/** Failed sign-ins allowed per email and per client address: 10 within 60 seconds of the first. */
export const SIGN_IN_FAILURE_RATE: Rate = { count: 10, windowMs: 60_000 };

/** The counters one sign-in attempt is checked against: its email (as typed, normalised) and its client address. */
export function signInKeys(email: string, address: string): string[] {
  return [`email:${email.trim().toLowerCase()}`, `address:${address}`];
}

/**
 * Counts failed sign-ins in the platform database, so every instance sees
 * the same counts. A window opens at a key's first failure and lasts
 * `windowMs`; once it holds `count` failures, every attempt for that key (the
 * right password included) is refused until the window has passed.
 */
export class SignInLimiter {
  constructor(
    private readonly db: Kysely<PlatformTables>,
    private readonly rate: Rate = SIGN_IN_FAILURE_RATE,
  ) {}

  /** Seconds until the first of these keys may try again (for `Retry-After`); 0 when none is locked. */
  async retryAfter(keys: string[], now: number): Promise<number> {
    const rows = await this.db
      .selectFrom('sign_in_failures')
      .select(['first_failure_at', 'failures'])
      .where('key', 'in', keys)
      .where('first_failure_at', '>', now - this.rate.windowMs)
      .where('failures', '>=', this.rate.count)
      .execute();
    if (rows.length === 0) return 0;
    const reopens = Math.max(...rows.map((row) => Number(row.first_failure_at) + this.rate.windowMs));
    return Math.max(1, Math.ceil((reopens - now) / 1000));
  }

  /** Counts one failure against each key: in its open window, or opening a new one when the last has passed. */
  async recordFailure(keys: string[], now: number): Promise<void> {
    const expired = now - this.rate.windowMs;
    // One statement per attempt; on a key whose window has passed, the update starts a new window at this failure.
    await this.db
      .insertInto('sign_in_failures')
      .values(keys.map((key) => ({ key, first_failure_at: now, failures: 1 })))
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          first_failure_at: sql<number>`case when sign_in_failures.first_failure_at <= ${expired} then excluded.first_failure_at else sign_in_failures.first_failure_at end`,
          failures: sql<number>`case when sign_in_failures.first_failure_at <= ${expired} then 1 else sign_in_failures.failures + 1 end`,
        }),
      )
      .execute();
  }

  /** Drops counters whose window has passed (run on successful sign-ins, so the table stays small without a timer). */
  async sweep(now: number): Promise<void> {
    await this.db
      .deleteFrom('sign_in_failures')
      .where('first_failure_at', '<=', now - this.rate.windowMs)
      .execute();
  }
}
