import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/domain/conversation.ts';
import type { MessageRecord } from '../../src/domain/message.ts';
import {
  NO_FILTER,
  applyChanges,
  inboxFrom,
  withFirstPage,
  withMoreConversations,
  withOlderMessages,
  withOpenThread,
  type InboxState,
} from '../../web/src/live/inbox-state.ts';
import { describeIssues } from '../../web/src/api/issues.ts';

/** A message record (factory): inbound from `peer` unless said otherwise. */
function message(id: number, peer: string, changes: Partial<MessageRecord> = {}): MessageRecord {
  const inbound = (changes.direction ?? 'inbound') === 'inbound';
  return {
    id,
    org_id: 'acme',
    direction: 'inbound',
    sim: 'sim1',
    from: inbound ? peer : '+15550009999',
    to: inbound ? '+15550009999' : peer,
    body: `message ${id}`,
    status: inbound ? 'received' : 'queued',
    segments: 1,
    gateway: null,
    external_id: null,
    error: null,
    received_at: null,
    sent_at: null,
    delivered_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...changes,
  };
}

function conversation(peer: string, last: MessageRecord, count: number, unread: number): Conversation {
  return { peer, last_message: last, message_count: count, unread };
}

const A = '+15550000001';
const B = '+15550000002';
const C = '+15550000003';

function inbox(nextBefore: number | null = null): InboxState {
  return inboxFrom({ conversations: [conversation(B, message(5, B), 2, 1), conversation(A, message(4, A), 3, 2)], next_before: nextBefore, seq: 10 });
}

describe('the inbox live reducer', () => {
  it('moves a conversation with a new message to the top and counts it unread', () => {
    const { state, refresh, readUpTo } = applyChanges(inbox(), [{ seq: 11, messages: [message(6, A)] }], NO_FILTER);
    expect(state.conversations.map((c) => [c.peer, c.last_message.id, c.message_count, c.unread])).toEqual([
      [A, 6, 4, 3],
      [B, 5, 2, 1],
    ]);
    expect([refresh, readUpTo, state.latestId]).toEqual([false, null, 6]);
  });

  it('replaces a changed message in place (a delivery state) without counting it again, also when replayed', () => {
    const sent = message(7, B, { direction: 'outbound', status: 'queued' });
    let state = applyChanges(inbox(), [{ seq: 11, messages: [sent] }], NO_FILTER).state;
    state = withOpenThread(state, { peer: B, messages: [message(5, B), sent], next_before_id: null });
    const failed = { ...sent, status: 'failed' as const, error: 'no signal' };
    const applied = applyChanges(
      state,
      [
        { seq: 12, messages: [failed] },
        { seq: 12, messages: [failed] },
      ],
      NO_FILTER,
    );
    expect(applied.state.conversations[0]).toMatchObject({ peer: B, message_count: 3, unread: 0, last_message: { status: 'failed', error: 'no signal' } });
    expect(applied.state.open?.messages.map((m) => [m.id, m.status])).toEqual([
      [5, 'received'],
      [7, 'failed'],
    ]);
  });

  it('adds a new number at the top, and asks for the first page again when older conversations are not loaded', () => {
    const complete = applyChanges(inbox(), [{ seq: 11, messages: [message(6, C)] }], NO_FILTER);
    expect(complete.state.conversations[0]).toEqual(conversation(C, message(6, C), 1, 1));
    expect(complete.refresh).toBe(false);
    expect(applyChanges(inbox(3), [{ seq: 11, messages: [message(6, C)] }], NO_FILTER).refresh).toBe(true);
  });

  it('leaves out a change to an older message of a conversation it has not loaded', () => {
    const { state } = applyChanges(inbox(3), [{ seq: 11, messages: [message(2, C, { direction: 'outbound', status: 'delivered' })] }], NO_FILTER);
    expect(state.conversations.map((c) => c.peer)).toEqual([B, A]);
  });

  it('appends to the open thread, keeps it read and asks for a read mark; an older unloaded message is left for its page', () => {
    const opened = withOpenThread(inbox(), { peer: A, messages: [message(3, A), message(4, A)], next_before_id: 3 });
    expect(opened.conversations.find((c) => c.peer === A)?.unread).toBe(0);
    const applied = applyChanges(opened, [{ seq: 11, messages: [message(6, A), message(1, A, { body: 'old one changed' })] }], NO_FILTER);
    expect(applied.state.open?.messages.map((m) => m.id)).toEqual([3, 4, 6]);
    expect(applied.state.conversations[0]).toMatchObject({ peer: A, unread: 0 });
    expect(applied.readUpTo).toBe(6);
    const older = withOlderMessages(applied.state, { peer: A, messages: [message(1, A), message(2, A), message(3, A)], next_before_id: null });
    expect(older.open).toMatchObject({ nextBeforeId: null });
    expect(older.open?.messages.map((m) => m.id)).toEqual([1, 2, 3, 4, 6]);
  });

  it('leaves out messages outside the filter, as the filtered list would', () => {
    const outboundOnly = { direction: 'outbound' as const, sim: () => true };
    expect(applyChanges(inbox(), [{ seq: 11, messages: [message(6, C)] }], outboundOnly).state.conversations.map((c) => c.peer)).toEqual([B, A]);
    const sim2 = { direction: null, sim: (sim: string | null) => sim === 'sim2' };
    expect(applyChanges(inbox(), [{ seq: 11, messages: [message(6, C, { sim: 'sim1' })] }], sim2).state.conversations).toHaveLength(2);
  });

  it("merges a further page and a fresh first page without duplicates, the service's counts winning", () => {
    const more = withMoreConversations(inbox(4), {
      conversations: [conversation(A, message(4, A), 3, 2), conversation(C, message(2, C), 1, 1)],
      next_before: null,
      seq: 10,
    });
    expect(more.conversations.map((c) => c.peer)).toEqual([B, A, C]);
    expect(more.nextBefore).toBeNull();
    const fresh = withFirstPage(more, { conversations: [conversation(C, message(8, C), 5, 4)], next_before: 8, seq: 12 });
    expect(fresh.conversations.map((c) => [c.peer, c.message_count])).toEqual([
      [C, 5],
      [B, 2],
      [A, 3],
    ]);
    expect([fresh.latestId, fresh.nextBefore]).toEqual([8, null]);
  });
});

describe('the console client', () => {
  it("says a 422's problems in words, each with its field", () => {
    expect(
      describeIssues([
        { loc: ['body', 'username'], msg: 'Field required' },
        { loc: ['body', 'phone_number'], msg: "Value error, 'phone_number' must be a phone number" },
      ]),
    ).toBe("username: Field required; 'phone_number' must be a phone number");
  });
});
