// The one migration runner of every service, and the column sets their schemas share.
import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

/** Which SQL engine a database runs on; queries are shared, DDL may differ. */
export type DialectName = 'sqlite' | 'postgres';

/** What a migration runs on: an open database of one service. */
export interface MigrationTarget {
  // biome-ignore lint/suspicious/noExplicitAny: migrations run on a schema that changes under them (and on the ledger, in no service's tables), so no table type fits.
  db: Kysely<any>;
  dialect: DialectName;
  /** PostgreSQL schema, or `main` on SQLite. */
  schema: string;
}

/** One migration step; `dialect` lets DDL differ where the engines do (identity columns, full-text search). */
export interface VersionedMigration {
  // biome-ignore lint/suspicious/noExplicitAny: a migration runs on the schema as the migrations before it left it, which no service's table type describes.
  up(db: Kysely<any>, dialect: DialectName): Promise<void>;
}

const LEDGER = 'switchboard_migrations';

/**
 * Applies pending migrations in name order, each in a transaction of its own
 * (both engines run DDL in transactions), recorded in the `switchboard_migrations`
 * ledger with the time it was applied. A migration that fails rolls back alone:
 * those before it stay applied, and the next start resumes from it.
 *
 * Several processes starting at once take turns: each migration's transaction
 * first claims its ledger row (a second claimant waits for the first to commit,
 * then finds the row and skips), and on PostgreSQL holds an advisory lock on the
 * schema as well, so DDL of two migrations never interleaves. A start with
 * nothing pending reads the ledger once and opens no transaction. Our own small
 * ledger instead of Kysely's Migrator, whose catalogue introspection reads
 * every schema and fails when another schema is dropped at the same moment
 * (parallel test runs do that).
 */
export async function migrate(database: MigrationTarget, migrations: Record<string, VersionedMigration>): Promise<void> {
  const db = database.db;
  const lock = async (trx: typeof db) => {
    if (database.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`switchboard-migrate:${database.schema}`}))`.execute(trx);
  };
  await db.transaction().execute(async (trx) => {
    await lock(trx);
    await sql`create table if not exists ${sql.table(LEDGER)} (name text primary key, applied_at text not null)`.execute(trx);
  });
  const applied = new Set((await db.selectFrom(LEDGER).select('name').execute()).map((row) => row.name as string));
  for (const name of Object.keys(migrations).sort()) {
    if (applied.has(name)) continue;
    await db.transaction().execute(async (trx) => {
      await lock(trx);
      // The claim is the transaction's first write: on SQLite it takes the write lock before anything is read.
      const claim = await trx
        .insertInto(LEDGER)
        .values({ name, applied_at: new Date().toISOString() })
        .onConflict((c) => c.column('name').doNothing())
        .executeTakeFirst();
      if (Number(claim.numInsertedOrUpdatedRows ?? 0n) === 0) return;
      await migrations[name].up(trx, database.dialect);
    });
  }
}

/** Column type of an auto-incrementing integer primary key. */
export function serialPrimaryKey(dialect: DialectName): string {
  return dialect === 'postgres' ? 'bigserial primary key' : 'integer primary key autoincrement';
}

type ColumnSetup = (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/**
 * The columns every kind of bearer credential keeps (flows tokens, ticket
 * tokens, SMS secret keys): a name, the SHA-256 of the secret (unique, the
 * lookup key), the hint shown in listings, and its life (created, last used,
 * revoked). `hashColumn` names the hash column where a table calls it otherwise.
 */
export function withCredentialColumns<T extends string, C extends string>(
  table: CreateTableBuilder<T, C>,
  hashColumn = 'token_hash',
): CreateTableBuilder<T, C | 'name' | 'hint' | 'created_at' | 'last_used_at' | 'revoked_at'> {
  const notNull: ColumnSetup = (c) => c.notNull();
  return table
    .addColumn('name', 'text', notNull)
    .addColumn(hashColumn, 'text', (c) => c.notNull().unique())
    .addColumn('hint', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text') as CreateTableBuilder<T, C | 'name' | 'hint' | 'created_at' | 'last_used_at' | 'revoked_at'>;
}
