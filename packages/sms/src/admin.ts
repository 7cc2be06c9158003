import type { Env } from '@switchboard/core';
import { loadConfig } from './config.ts';
import { OrgStore } from './store/org-store.ts';
import { openSmsDatabase } from './store/sms-database.ts';

/** Administration of organizations, keys, gateways and SIMs on the service's database (for the CLI and bootstrap). */
export interface SmsAdmin {
  orgs: OrgStore;
  close(): Promise<void>;
}

/** Opens the SMS database of the deployment described by `env`, whether the service runs or not. */
export async function openSmsAdmin(env: Env = process.env): Promise<SmsAdmin> {
  const config = loadConfig(env);
  const database = await openSmsDatabase(config, 2);
  return { orgs: new OrgStore(database.db, config.secret), close: () => database.close() };
}
