// The console's API types: the service's own declarations (its domain), so the UI and the service cannot drift.
import type { KeyListing } from '../../../src/domain/console-records.ts';

export type { CreatedKey, GatewayTestResult, GatewayView, KeyListing } from '../../../src/domain/console-records.ts';
export type { ChangeBatch, Conversation, ConversationPage, ThreadPage } from '../../../src/domain/conversation.ts';
export type { Direction, MessageRecord, MessageStatus, SimRecord } from '../../../src/domain/message.ts';
export type { DriverSettings, GatewayDriver, GatewayField } from '../../../src/domain/gateway-fields.ts';

/** What GET /api/session adds for the console: the organizations the user may see. */
export interface SmsSessionExtra {
  organizations: Array<{ org_id: string; name: string }>;
}

/** A key as the Keys page lists it: the service's listing, with the id the kit's credential columns read. */
export type ConsoleKey = KeyListing & { id: string };

/** The answer of POST /send/{org_id}: the queued message, and a warning while the organization has no gateway. */
export type SentMessage = import('../../../src/domain/message.ts').MessageRecord & { warning?: string };
