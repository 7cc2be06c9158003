/**
 * The inbox's live-update reducer: what the stream's change batches do to the conversation list and the
 * open thread. Pure, so its rules are unit-tested:
 *
 * - Ids grow in commit order within an organization, so a message with a larger id than any the page knows
 *   is new; one at or below it is an existing message changing (a delivery state), or a replay.
 * - A new message moves its conversation to the top (a conversation the page has not loaded yet appears
 *   there too) and counts as unread when inbound, unless its conversation is open.
 * - A changed message replaces itself wherever it is shown: the list's last message, the open thread.
 * - Messages outside the page's filter (SIM, direction) are left out, as the service's filtered list would.
 */
import { peerOf } from '../../../src/domain/peer.ts';
import type { ChangeBatch, Conversation, ConversationPage, Direction, MessageRecord, ThreadPage } from '../api/types.ts';

/** The open conversation: its messages in id order, and where older ones start. */
export interface OpenThread {
  peer: string;
  messages: MessageRecord[];
  nextBeforeId: number | null;
}

/** What the inbox shows. */
export interface InboxState {
  /** Latest message first. */
  conversations: Conversation[];
  /** Where the next page of conversations starts (null: all loaded). */
  nextBefore: number | null;
  /** The largest message id the page knows. */
  latestId: number;
  open: OpenThread | undefined;
}

/** Which messages the page shows: a direction, and SIMs (by id, or by the phone number the filter names). */
export interface LiveFilter {
  direction: Direction | null;
  sim: (sim: string | null) => boolean;
}

/** Every message passes. */
export const NO_FILTER: LiveFilter = { direction: null, sim: () => true };

/** A batch's effect: the new state, and what the page should do about it. */
export interface Applied {
  state: InboxState;
  /** A conversation the page had not loaded appeared with a new message: its counts are only this page's, so read the first page again. */
  refresh: boolean;
  /** The open conversation got inbound messages: mark it read up to this id. */
  readUpTo: number | null;
}

const latestFirst = (a: Conversation, b: Conversation) => b.last_message.id - a.last_message.id;

/** The inbox from its first page of conversations. */
export function inboxFrom(page: ConversationPage): InboxState {
  return {
    conversations: [...page.conversations].sort(latestFirst),
    nextBefore: page.next_before,
    latestId: page.conversations.reduce((max, c) => Math.max(max, c.last_message.id), 0),
    open: undefined,
  };
}

/** Adds a further page of conversations (older ones), leaving out any the page shows already. */
export function withMoreConversations(state: InboxState, page: ConversationPage): InboxState {
  const known = new Set(state.conversations.map((c) => c.peer));
  const added = page.conversations.filter((c) => !known.has(c.peer));
  return { ...state, conversations: [...state.conversations, ...added].sort(latestFirst), nextBefore: page.next_before };
}

/** Replaces the conversations of a fresh first page (the service's counts win), keeping those further down. */
export function withFirstPage(state: InboxState, page: ConversationPage): InboxState {
  const fresh = new Map(page.conversations.map((c) => [c.peer, c]));
  const rest = state.conversations.filter((c) => !fresh.has(c.peer));
  const latestId = Math.max(state.latestId, ...page.conversations.map((c) => c.last_message.id));
  return {
    ...state,
    conversations: [...page.conversations, ...rest].sort(latestFirst),
    latestId,
    nextBefore: state.nextBefore === null ? null : state.nextBefore,
  };
}

/** Opens a conversation with its latest page, its unread count cleared (the page marks it read). */
export function withOpenThread(state: InboxState, page: ThreadPage): InboxState {
  const conversations = state.conversations.map((c) => (c.peer === page.peer ? { ...c, unread: 0 } : c));
  const latestId = Math.max(state.latestId, ...page.messages.map((m) => m.id));
  return { ...state, conversations, latestId, open: { peer: page.peer, messages: page.messages, nextBeforeId: page.next_before_id } };
}

/** Adds an older page of the open conversation before what it shows. */
export function withOlderMessages(state: InboxState, page: ThreadPage): InboxState {
  if (!state.open || state.open.peer !== page.peer) return state;
  const known = new Set(state.open.messages.map((m) => m.id));
  const older = page.messages.filter((m) => !known.has(m.id));
  return { ...state, open: { ...state.open, messages: [...older, ...state.open.messages], nextBeforeId: page.next_before_id } };
}

/** Replaces a message in a thread, or adds a newer one at its end. */
function threadWith(open: OpenThread, message: MessageRecord): OpenThread {
  const at = open.messages.findIndex((m) => m.id === message.id);
  if (at >= 0) return { ...open, messages: open.messages.map((m, i) => (i === at ? message : m)) };
  const last = open.messages[open.messages.length - 1];
  // An older message the thread has not loaded: it shows when its page is read.
  if (last && message.id < last.id) return open;
  return { ...open, messages: [...open.messages, message] };
}

/** Applies the stream's batches, in order, to what the inbox shows. */
export function applyChanges(state: InboxState, batches: readonly ChangeBatch[], filter: LiveFilter): Applied {
  let { conversations, latestId, open } = state;
  let refresh = false;
  let readUpTo: number | null = null;
  for (const batch of batches) {
    for (const message of batch.messages) {
      if ((filter.direction && message.direction !== filter.direction) || !filter.sim(message.sim)) continue;
      const peer = peerOf(message);
      const isOpen = open?.peer === peer;
      const fresh = message.id > latestId;
      latestId = Math.max(latestId, message.id);
      const unread = fresh && message.direction === 'inbound' && !isOpen ? 1 : 0;
      const at = conversations.findIndex((c) => c.peer === peer);
      if (at >= 0) {
        const current = conversations[at];
        if (message.id > current.last_message.id) {
          conversations = conversations.map((c, i) =>
            i === at ? { ...c, last_message: message, message_count: c.message_count + 1, unread: c.unread + unread } : c,
          );
        } else if (message.id === current.last_message.id) {
          conversations = conversations.map((c, i) => (i === at ? { ...c, last_message: message } : c));
        }
      } else if (fresh) {
        conversations = [...conversations, { peer, last_message: message, message_count: 1, unread }];
        if (state.nextBefore !== null) refresh = true;
      }
      if (open && isOpen) {
        open = threadWith(open, message);
        if (fresh && message.direction === 'inbound') readUpTo = Math.max(readUpTo ?? 0, message.id);
      }
    }
  }
  return { state: { ...state, conversations: [...conversations].sort(latestFirst), latestId, open }, refresh, readUpTo };
}
