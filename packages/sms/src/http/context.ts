import type { Logger, RateLimiter } from '@switchboard/core';
import type { SmsConfig } from '../config.ts';
import type { SmsDatabase } from '../store/sms-database.ts';
import type { MessageStore } from '../store/message-store.ts';
import type { OrgStore } from '../store/org-store.ts';
import type { OutboxStore } from '../store/outbox-store.ts';
import type { OutboxWorker } from '../worker/outbox-worker.ts';

/** What the routes of the SMS service work with. */
export interface SmsContext {
  config: SmsConfig;
  logger: Logger;
  database: SmsDatabase;
  orgs: OrgStore;
  messages: MessageStore;
  outbox: OutboxStore;
  worker: OutboxWorker;
  limiter: RateLimiter;
}
