import { openPlatformDatabase, type Database, type PlatformTables } from '@switchboard/core';

/** Runs work on the platform database (users, memberships) of this environment's DATA_DIR / DATABASE_URL, and closes it. */
export async function withPlatform<T>(work: (platform: Database<PlatformTables>) => Promise<T>): Promise<T> {
  const platform = await openPlatformDatabase();
  try {
    return await work(platform);
  } finally {
    await platform.close();
  }
}
