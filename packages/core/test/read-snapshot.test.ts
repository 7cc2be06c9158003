import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, readSnapshot, sqliteReaderOf, type Database } from '../src/index.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

interface ThingTables {
  things: { name: string };
}

const migrations = {
  '0001_things': {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('things').addColumn('name', 'text').execute();
    },
  },
};

describe('read snapshots on SQLite', () => {
  let test: TestDatabase;
  let database: Database<ThingTables>;
  /** Another process's connection, writing synchronously while a snapshot is open. */
  let other: SQLite.Database;
  const names = () =>
    sqliteReaderOf(database.db)!
      .all<{ name: string }>('select name from things order by name', [])
      .map((row) => row.name);
  const insertElsewhere = (name: string) => other.prepare('insert into things (name) values (?)').run(name);

  beforeEach(async () => {
    test = await createTestDatabase('sqlite');
    const file = `${test.env.DATA_DIR}/snapshot.db`;
    database = await openDatabase<ThingTables>({ url: undefined, urlVariable: 'DATABASE_URL', sqliteFile: file, schema: 'core', migrations });
    await database.db.insertInto('things').values({ name: 'a' }).execute();
    other = new SQLite(file);
    other.pragma('busy_timeout = 5000');
  });

  afterEach(async () => {
    other.close();
    await database.close();
    await test.cleanup();
  });

  it('gives the reads that start at once one snapshot, and ends it when the function returns, before any await', async () => {
    let afterAwait: string[] = [];
    const inside = await readSnapshot(database.db, async () => {
      const first = names();
      insertElsewhere('b');
      // Still the snapshot of the first read: the transaction is open.
      const second = names();
      await Promise.resolve();
      // The function returned its promise at the await: the transaction had ended, so this read is fresh.
      afterAwait = names();
      return [first, second];
    });
    expect(inside).toEqual([['a'], ['a']]);
    expect(afterAwait).toEqual(['a', 'b']);
    expect(names()).toEqual(['a', 'b']);
  });

  it('ends the transaction when the function throws, and runs a nested snapshot inside the outer one', () => {
    expect(() =>
      readSnapshot(database.db, () => {
        names();
        throw new Error('refused');
      }),
    ).toThrow('refused');
    insertElsewhere('b');
    expect(names()).toEqual(['a', 'b']);
    const nested = readSnapshot(database.db, () => {
      const outer = names();
      insertElsewhere('c');
      return [outer, readSnapshot(database.db, () => names())];
    });
    expect(nested).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
    expect(names()).toEqual(['a', 'b', 'c']);
  });

  it("only runs the function on a transaction's handle, whose reads are its own", async () => {
    const seen = await database.db.transaction().execute(async (trx) => {
      await trx.insertInto('things').values({ name: 'pending' }).execute();
      return readSnapshot<ThingTables, Promise<Array<{ name: string }>>>(trx, () => trx.selectFrom('things').select('name').orderBy('name').execute());
    });
    expect(seen.map((row) => row.name)).toEqual(['a', 'pending']);
  });
});

describe('read snapshots on PostgreSQL', () => {
  it('only run the function', async () => {
    if (!process.env.TEST_DATABASE_URL) return;
    const test = await createTestDatabase('postgres');
    const database = await openDatabase<unknown>({ url: test.env.DATABASE_URL, urlVariable: 'DATABASE_URL', sqliteFile: '', schema: 'core', migrations: {} });
    try {
      expect(readSnapshot(database.db, () => 'ran')).toBe('ran');
    } finally {
      await database.close();
      await test.cleanup();
    }
  });
});
