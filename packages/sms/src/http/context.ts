import type { ChangeHub, Logger, RateLimiter, WebSessions } from '@switchboard/core';
import type { SmsConfig } from '../config.ts';
import type { ChangeBatch } from '../domain/conversation.ts';
import type { ConversationStore } from '../store/conversation-store.ts';
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
  /** The console's reads: conversations, threads, read marks, changes. */
  conversations: ConversationStore;
  /** The console's live stream: each organization's changes fanned out to the open streams of this instance. */
  hub: ChangeHub<ChangeBatch>;
  /** Sign-in, sessions and memberships (the platform database). */
  web: WebSessions;
}
