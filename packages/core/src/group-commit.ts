import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { Histogram, type Registry } from 'prom-client';

/** Work that runs inside a transaction it does not own: it must not commit or roll back itself. */
export type TransactionWork<DB, T> = (trx: Transaction<DB>) => Promise<T>;

interface Pending<DB> {
  work: TransactionWork<DB, unknown>;
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
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the sockets ready in this turn have been read: their requests join the same commit.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    this.sizes?.observe(batch.length);
    if (batch.length === 1) {
      const [only] = batch;
      this.db.transaction().execute(only.work).then(only.resolve, only.reject);
      return;
    }
    let outcomes: Outcome[];
    try {
      outcomes = await this.db.transaction().execute(async (trx) => {
        const done: Outcome[] = [];
        for (const pending of batch) done.push(await runInSavepoint(trx, pending.work));
        return done;
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.ok) batch[i].resolve(outcome.value);
      else batch[i].reject(outcome.error);
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
