import { join } from 'node:path';
import { openDatabase, type Database, type PlatformConfig } from '@switchboard/core';
import { smsMigrations } from './migrations.ts';
import type { SmsTables } from './schema.ts';

/** The SMS service's open database. */
export type SmsDatabase = Database<SmsTables>;

/** Opens (and migrates) the SMS database: PostgreSQL schema `sms`, or DATA_DIR/sms.db. */
export function openSmsDatabase(config: Pick<PlatformConfig, 'databaseUrl' | 'databaseUrlVariable' | 'dataDir'>, poolSize?: number): Promise<SmsDatabase> {
  return openDatabase<SmsTables>({
    url: config.databaseUrl,
    urlVariable: config.databaseUrlVariable,
    sqliteFile: join(config.dataDir, 'sms.db'),
    schema: 'sms',
    migrations: smsMigrations,
    poolSize,
  });
}
