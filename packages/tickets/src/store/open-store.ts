import { join } from 'node:path';
import { PostgresAdapter, type Kysely } from 'kysely';
import { openDatabase, type Database, type DialectName } from '@switchboard/core';
import type { TicketsConfig } from '../config.ts';
import { ticketMigrations } from './migrations.ts';
import type { TicketsDatabase } from './tables.ts';

/** Opens (and migrates) the ticket board's database: `DATA_DIR/tickets.db` or schema `tickets`. */
export function openTicketsDatabase(config: Pick<TicketsConfig, 'databaseUrl' | 'databaseUrlVariable' | 'dataDir'>): Promise<Database<TicketsDatabase>> {
  return openDatabase<TicketsDatabase>({
    url: config.databaseUrl,
    urlVariable: config.databaseUrlVariable,
    sqliteFile: join(config.dataDir, 'tickets.db'),
    schema: 'tickets',
    migrations: ticketMigrations,
    poolSize: 10,
  });
}

/** The engine behind a database handle (the CLI's administration gets only the handle). */
export function dialectOf(db: Kysely<TicketsDatabase>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
