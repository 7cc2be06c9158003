import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { Histogram, type Registry } from 'prom-client';

/** Work that runs inside a transaction it does not own: it must not commit or roll back itself. */
export type TransactionWork<DB, T> = (trx: Transaction<DB>) => Promise<T>;

/**
 * Work that several callers ask for in the same turn and that costs less done
 * once for all of them (one statement for all their rows): see GroupCommit.join.
 */
export interface Batch<DB, I, R> {
  /** The results of `items`, in their order, from one piece of work. */
  all(trx: Transaction<DB>, items: I[]): Promise<R[]>;
  /** One item alone: when `all` fails, each item runs by itself so that it fails alone. */
  one(trx: Transaction<DB>, item: I): Promise<R>;
}

interface Pending<DB> {
  work: TransactionWork<DB, unknown>;
  /** Set for an item of a batch: `work` is then its `one`, run when the batch's `all` fails. */
  batch?: { of: Batch<DB, unknown, unknown>; item: unknown };
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const SAVEPOINT = CompiledQuery.raw('savepoint group_commit_item');
const RELEASE = CompiledQuery.raw('release group_commit_item');
const ROLLBACK_TO = CompiledQuery.raw('rollback to group_commit_item');

/**
 * Group commit for SQLite's single writer: the transactions asked for while
 * the event loop handles one round of ready sockets run as savepoints of one
 * transaction, committed once. A commit in WAL mode writes every page the
 * transaction changed to the log, and ten webhook requests touch the same
 * few pages (the organization, the SIM, the last leaf of each index): one
 * commit writes them once instead of ten times (`npm run bench`, webhook
 * ingest). Each piece of work still succeeds or fails alone (a failure rolls
 * back to its savepoint and rejects only its own promise), and every promise
 * settles only after the commit, so nothing is answered as stored before it
 * is. A failed commit rejects every piece of that transaction.
 *
 * Not for PostgreSQL: there each transaction holds its organization's row
 * lock, and a transaction spanning several organizations would take locks in
 * an order another instance may reverse; the server groups commits itself.
 */
export class GroupCommit<DB> {
  private queue: Pending<DB>[] = [];
  private scheduled = false;
  private sizes?: Histogram;

  constructor(private readonly db: Kysely<DB>) {}

  /** Reports how many transactions each commit held, as a histogram `name` of `registry` (/metrics). */
  registerMetrics(registry: Registry, name: string): void {
    this.sizes = new Histogram({
      name,
      help: 'Transactions committed together in one SQLite commit (group commit)',
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers: [registry],
    });
  }

  /** Runs `work` in a transaction, perhaps shared with others asked for in the same turn of the event loop. */
  run<T>(work: TransactionWork<DB, T>): Promise<T> {
    return this.enqueue<T>(work);
  }

  /**
   * Runs `item` as part of `batch`: the items of one batch asked for in the
   * same turn run together as one `batch.all`, in the commit shared with the
   * rest of the turn's work. If `all` fails, its savepoint is rolled back and
   * each item runs alone (`batch.one`), so an item still succeeds or fails by
   * itself.
   */
  join<I, R>(batch: Batch<DB, I, R>, item: I): Promise<R> {
    return this.enqueue<R>((trx) => batch.one(trx, item), { of: batch as Batch<DB, unknown, unknown>, item });
  }

  private enqueue<T>(work: TransactionWork<DB, T>, batch?: Pending<DB>['batch']): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, batch, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the sockets ready in this turn have been read: their requests join the same commit.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const queue = this.queue;
    this.queue = [];
    this.sizes?.observe(queue.length);
    if (queue.length === 1) {
      const [only] = queue;
      this.db.transaction().execute(only.work).then(only.resolve, only.reject);
      return;
    }
    const outcomes = new Map<Pending<DB>, Outcome>();
    try {
      await this.db.transaction().execute(async (trx) => {
        const batches = new Map<Batch<DB, unknown, unknown>, Pending<DB>[]>();
        for (const pending of queue) {
          if (!pending.batch) {
            outcomes.set(pending, await runInSavepoint(trx, pending.work));
            continue;
          }
          const items = batches.get(pending.batch.of);
          if (items) items.push(pending);
          else batches.set(pending.batch.of, [pending]);
        }
        for (const [batch, items] of batches) {
          // The batch's items run together, in a savepoint of their own; a lone item (or a batch that failed) runs by itself.
          const runTogether = (t: Transaction<DB>) =>
            batch.all(
              t,
              items.map((pending) => pending.batch!.item),
            );
          const together = items.length === 1 ? undefined : await runInSavepoint(trx, runTogether);
          if (together?.ok) {
            for (const [i, pending] of items.entries()) outcomes.set(pending, { ok: true, value: (together.value as unknown[])[i] });
            continue;
          }
          for (const pending of items) outcomes.set(pending, await runInSavepoint(trx, pending.work));
        }
      });
    } catch (error) {
      for (const pending of queue) pending.reject(error);
      return;
    }
    for (const pending of queue) {
      const outcome = outcomes.get(pending)!;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    }
  }
}

async function runInSavepoint<DB>(trx: Transaction<DB>, work: TransactionWork<DB, unknown>): Promise<Outcome> {
  await trx.executeQuery(SAVEPOINT);
  let value: unknown;
  try {
    value = await work(trx);
  } catch (error) {
    // Undoes this piece only; the others' savepoints were released into the transaction already.
    await trx.executeQuery(ROLLBACK_TO);
    await trx.executeQuery(RELEASE);
    return { ok: false, error };
  }
  await trx.executeQuery(RELEASE);
  return { ok: true, value };
}
