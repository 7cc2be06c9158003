import { afterAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type VersionedMigration } from '../src/index.ts';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '../src/testing.ts';

/** The tables these tests read: the log every step writes to and the runner's ledger. */
interface MigrationTestTables {
  log: { step: string };
  switchboard_migrations: { name: string; applied_at: string };
}

/** A migration that creates `table` and notes its name in `log` (a table every step writes to). */
function creates(table: string): VersionedMigration {
  return {
    async up(db: Kysely<MigrationTestTables>) {
      await db.schema.createTable(table).addColumn('n', 'integer').execute();
      await db.insertInto('log').values({ step: table }).execute();
    },
  };
}

const createLog: VersionedMigration = {
  async up(db: Kysely<MigrationTestTables>) {
    await db.schema.createTable('log').addColumn('step', 'text').execute();
  },
};

describe.each(dialectsUnderTest())('the migration runner on %s', (dialect) => {
  const tests: TestDatabase[] = [];
  afterAll(async () => {
    for (const test of tests) await test.cleanup();
  });
  const open = async (test: TestDatabase, migrations: Record<string, VersionedMigration>) =>
    openDatabase<MigrationTestTables>({
      url: test.env.DATABASE_URL,
      urlVariable: 'DATABASE_URL',
      sqliteFile: `${test.env.DATA_DIR}/m.db`,
      schema: 'mig',
      migrations,
    });

  it('applies pending migrations in name order, records each, and skips them on the next start', async () => {
    const test = await createTestDatabase(dialect);
    tests.push(test);
    // Declared out of order: names decide the order.
    const migrations = { '0003_c': creates('c'), '0001_log': createLog, '0002_b': creates('b') };
    const first = await open(test, migrations);
    expect((await first.db.selectFrom('log').select('step').execute()).map((row) => row.step)).toEqual(['b', 'c']);
    const ledger = await first.db.selectFrom('switchboard_migrations').select(['name', 'applied_at']).orderBy('name').execute();
    expect(ledger.map((row) => row.name)).toEqual(['0001_log', '0002_b', '0003_c']);
    for (const row of ledger) expect(row.applied_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    await first.close();
    const second = await open(test, { ...migrations, '0004_d': creates('d') });
    expect((await second.db.selectFrom('log').select('step').execute()).map((row) => row.step)).toEqual(['b', 'c', 'd']);
    await second.close();
  });

  it('runs each migration in its own transaction: a failure undoes only that one, and the next start resumes from it', async () => {
    const test = await createTestDatabase(dialect);
    tests.push(test);
    let broken = true;
    const migrations: Record<string, VersionedMigration> = {
      '0001_log': createLog,
      '0002_b': creates('b'),
      '0003_half': {
        async up(db) {
          await db.schema.createTable('half').addColumn('n', 'integer').execute();
          await db.insertInto('log').values({ step: 'half' }).execute();
          if (broken) throw new Error('migration 0003 failed on purpose');
        },
      },
      '0004_d': creates('d'),
    };
    await expect(open(test, migrations)).rejects.toThrow('migration 0003 failed on purpose');
    const between = await open(test, {});
    expect((await between.db.selectFrom('switchboard_migrations').select('name').orderBy('name').execute()).map((row) => row.name)).toEqual([
      '0001_log',
      '0002_b',
    ]);
    expect((await between.db.selectFrom('log').select('step').execute()).map((row) => row.step)).toEqual(['b']);
    await between.close();
    broken = false;
    const reopened = await open(test, migrations);
    // 0001 and 0002 stayed applied (b logged once); 0003 left nothing behind (its table was created again without a clash).
    expect((await reopened.db.selectFrom('log').select('step').execute()).map((row) => row.step)).toEqual(['b', 'half', 'd']);
    const ledger = await reopened.db.selectFrom('switchboard_migrations').select('name').orderBy('name').execute();
    expect(ledger.map((row) => row.name)).toEqual(['0001_log', '0002_b', '0003_half', '0004_d']);
    await reopened.close();
  });

  it.runIf(dialect === 'postgres')('applies each migration once when several processes start at once', async () => {
    const test = await createTestDatabase(dialect);
    tests.push(test);
    const slow: VersionedMigration = {
      async up(db) {
        await sql`select pg_sleep(0.2)`.execute(db);
        await db.schema.createTable('slow').addColumn('n', 'integer').execute();
        await db.insertInto('log').values({ step: 'slow' }).execute();
      },
    };
    const migrations = { '0001_log': createLog, '0002_slow': slow, '0003_c': creates('c') };
    const opened = await Promise.all([open(test, migrations), open(test, migrations), open(test, migrations)]);
    expect((await opened[0].db.selectFrom('log').select('step').execute()).map((row) => row.step)).toEqual(['slow', 'c']);
    for (const database of opened) await database.close();
  });
});
