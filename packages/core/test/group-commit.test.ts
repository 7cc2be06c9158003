import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommit, openDatabase, type Batch, type Database } from '../src/index.ts';

interface Tables {
  parents: { id: number };
  items: { id: number; parent_id: number };
}

// SQLite only: the group commit serves SQLite's single writer, and no service uses it on PostgreSQL (see its comment).
describe('group commit (SQLite)', () => {
  let dir: string;
  let database: Database<Tables>;
  let registry: Registry;
  let commits: GroupCommit<Tables>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    database = await openDatabase<Tables>({
      url: undefined,
      urlVariable: 'DATABASE_URL',
      sqliteFile: join(dir, 'test.db'),
      schema: 'test',
      migrations: {
        '0001': {
          async up(db: Kysely<unknown>) {
            await sql`create table parents (id integer primary key)`.execute(db);
            await sql`create table items (id integer primary key, parent_id integer not null references parents (id) deferrable initially deferred)`.execute(
              db,
            );
            await sql`insert into parents (id) values (1)`.execute(db);
          },
        },
      },
    });
    registry = new Registry();
    commits = new GroupCommit(database.db);
    commits.registerMetrics(registry, 'test_group_commit_transactions');
  });

  afterEach(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insertItem = (id: number, parentId = 1) =>
    commits.run(async (trx) => {
      await sql`insert into items (id, parent_id) values (${id}, ${parentId})`.execute(trx);
      return id;
    });
  const storedIds = async () => (await database.db.selectFrom('items').select('id').orderBy('id').execute()).map((row) => row.id);
  const commitSizes = async () => {
    const metric = (await registry.getMetricsAsJSON())[0] as unknown as { values: Array<{ metricName: string; value: number }> };
    const value = (name: string) => metric.values.find((entry) => entry.metricName === name)?.value;
    return { commits: value('test_group_commit_transactions_count'), transactions: value('test_group_commit_transactions_sum') };
  };

  it('commits the transactions asked for in one turn of the event loop together, each answered with its own result', async () => {
    expect(await Promise.all(Array.from({ length: 10 }, (_, i) => insertItem(i + 1)))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await storedIds()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await commitSizes()).toEqual({ commits: 1, transactions: 10 });
  });

  it('commits transactions asked for in different turns separately', async () => {
    expect(await insertItem(1)).toBe(1);
    expect(await insertItem(2)).toBe(2);
    expect(await storedIds()).toEqual([1, 2]);
    expect(await commitSizes()).toEqual({ commits: 2, transactions: 2 });
  });

  it('rolls back and rejects only the piece that failed: the others of its commit are stored', async () => {
    const failing = commits.run(async (trx) => {
      await sql`insert into items (id, parent_id) values (20, 1)`.execute(trx);
      throw new Error('refused by the domain');
    });
    const results = await Promise.allSettled([insertItem(1), failing, insertItem(2), insertItem(1)]);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message))).toEqual([
      1,
      'refused by the domain',
      2,
      'UNIQUE constraint failed: items.id',
    ]);
    expect(await storedIds()).toEqual([1, 2]);
    expect(await commitSizes()).toEqual({ commits: 1, transactions: 4 });
  });

  it('rejects every piece when the commit itself fails, and stores none of them', async () => {
    // A deferred foreign key is checked at the commit: item 3 names a parent that does not exist.
    const results = await Promise.allSettled([insertItem(1), insertItem(3, 99), insertItem(2)]);
    expect(results.map((result) => (result.status === 'rejected' ? (result.reason as Error).message : result.value))).toEqual([
      'FOREIGN KEY constraint failed',
      'FOREIGN KEY constraint failed',
      'FOREIGN KEY constraint failed',
    ]);
    expect(await storedIds()).toEqual([]);
    expect(await insertItem(4)).toBe(4);
    expect(await storedIds()).toEqual([4]);
  });

  describe('batches (join)', () => {
    /** Inserts each item's ids in one statement for all the items of a turn; records how it was called. */
    const calls: string[] = [];
    const insertAll = async (trx: Kysely<Tables>, ids: number[]) => {
      await sql.raw(`insert into items (id, parent_id) values ${ids.map((id) => `(${id}, 1)`).join(', ')}`).execute(trx);
    };
    const batch: Batch<Tables, number[], number> = {
      async all(trx, items) {
        calls.push(`all ${JSON.stringify(items)}`);
        await insertAll(trx, items.flat());
        return items.map((ids) => ids.length);
      },
      async one(trx, ids) {
        calls.push(`one ${JSON.stringify(ids)}`);
        await insertAll(trx, ids);
        return ids.length;
      },
    };
    beforeEach(() => {
      calls.length = 0;
    });

    it('runs the items of one turn as one piece of work, in the commit shared with the other work of the turn', async () => {
      const results = await Promise.all([commits.join(batch, [1, 2]), insertItem(10), commits.join(batch, [3]), commits.join(batch, [4, 5, 6])]);
      expect(results).toEqual([2, 10, 1, 3]);
      expect(calls).toEqual(['all [[1,2],[3],[4,5,6]]']);
      expect(await storedIds()).toEqual([1, 2, 3, 4, 5, 6, 10]);
      expect(await commitSizes()).toEqual({ commits: 1, transactions: 4 });
    });

    it('runs a lone item by itself, and items of different turns in different commits', async () => {
      expect(await commits.join(batch, [1])).toBe(1);
      expect(await commits.join(batch, [2, 3])).toBe(2);
      expect(calls).toEqual(['one [1]', 'one [2,3]']);
      expect(await commitSizes()).toEqual({ commits: 2, transactions: 2 });
    });

    it('when the batch fails, undoes it and runs each item alone: only the item that fails is refused', async () => {
      // Item [2, 1] repeats id 1 of the first item: together the insert fails, and alone only that item does.
      const results = await Promise.allSettled([commits.join(batch, [1]), commits.join(batch, [2, 1]), commits.join(batch, [3])]);
      expect(results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message))).toEqual([
        1,
        'UNIQUE constraint failed: items.id',
        1,
      ]);
      expect(calls).toEqual(['all [[1],[2,1],[3]]', 'one [1]', 'one [2,1]', 'one [3]']);
      expect(await storedIds()).toEqual([1, 3]);
      expect(await commitSizes()).toEqual({ commits: 1, transactions: 3 });
    });
  });
});
