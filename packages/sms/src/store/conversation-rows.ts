import type { DialectName } from '@switchboard/core';
import type { Direction } from '../domain/message.ts';
import { RowsStatement, type QueryRunner } from './compiled-statements.ts';

/** What a commit's new messages add to one conversation. */
export interface ConversationTouch {
  peer: string;
  lastId: number;
  count: number;
  inbound: number;
  lastInboundId: number | null;
}

/** Adds one new message to a per-conversation tally (ids arrive in any order). */
export function tallyConversation(touches: Map<string, ConversationTouch>, peer: string, id: number, direction: Direction): void {
  let touch = touches.get(peer);
  if (!touch) {
    touch = { peer, lastId: id, count: 0, inbound: 0, lastInboundId: null };
    touches.set(peer, touch);
  }
  touch.count += 1;
  touch.lastId = Math.max(touch.lastId, id);
  if (direction === 'inbound') {
    touch.inbound += 1;
    touch.lastInboundId = Math.max(touch.lastInboundId ?? 0, id);
  }
}

// One row per conversation (the tally keys them). Ids grow under the organization's lock, so the new last id
// is the larger one anyway; max/greatest keeps it right whatever the order.
const HEAD = 'insert into conversations (org_id, peer, last_message_id, message_count, inbound_count, last_inbound_id)';
const SQLITE_TAIL =
  'on conflict (org_id, peer) do update set last_message_id = max(conversations.last_message_id, excluded.last_message_id), ' +
  'message_count = conversations.message_count + excluded.message_count, inbound_count = conversations.inbound_count + excluded.inbound_count, ' +
  'last_inbound_id = coalesce(max(conversations.last_inbound_id, excluded.last_inbound_id), conversations.last_inbound_id, excluded.last_inbound_id)';
const POSTGRES_TAIL =
  'on conflict (org_id, peer) do update set last_message_id = greatest(conversations.last_message_id, excluded.last_message_id), ' +
  'message_count = conversations.message_count + excluded.message_count, inbound_count = conversations.inbound_count + excluded.inbound_count, ' +
  'last_inbound_id = greatest(conversations.last_inbound_id, excluded.last_inbound_id)';
const TOUCH_CONVERSATIONS = {
  sqlite: new RowsStatement('sqlite', HEAD, 6, SQLITE_TAIL),
  postgres: new RowsStatement('postgres', HEAD, 6, POSTGRES_TAIL),
};

/** Creates conversations on their first message and moves their counts on: one statement for a commit's messages (per 500 conversations). */
export async function touchConversations(db: QueryRunner, dialect: DialectName, orgId: string, touches: Iterable<ConversationTouch>): Promise<void> {
  const parameters: unknown[] = [];
  for (const touch of touches) parameters.push(orgId, touch.peer, touch.lastId, touch.count, touch.inbound, touch.lastInboundId);
  await TOUCH_CONVERSATIONS[dialect].run(db, parameters);
}
