import { randomBytes } from 'node:crypto';
import { isoNow } from '@switchboard/core';
import type { Kysely } from 'kysely';
import type { FlowsDatabase } from './database.ts';
import type { ConversationMessage } from '../domain/run-request.ts';

let counter = 0;
/** Ids that sort in insertion order within a process (time, then a counter), so a session reads back in order. */
function sortableId(now: Date): string {
  counter = (counter + 1) % 0x1000000;
  return `msg_${now.getTime().toString(16).padStart(12, '0')}${counter.toString(16).padStart(6, '0')}${randomBytes(4).toString('hex')}`;
}

/** A stored message of a session, as presented. */
export interface MemoryMessage extends ConversationMessage {
  created_at: string;
}

/** Conversation memory per (organization, flow, session id). */
export class MemoryStore {
  constructor(private readonly db: Kysely<FlowsDatabase>) {}

  /** The last `window` messages of a session, oldest first. */
  async recent(orgId: number, flow: string, sessionId: string, window: number): Promise<ConversationMessage[]> {
    const rows = await this.db
      .selectFrom('memory_messages')
      .select(['role', 'content'])
      .where('org_id', '=', orgId)
      .where('flow', '=', flow)
      .where('session_id', '=', sessionId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(window)
      .execute();
    return rows.reverse().map((r) => ({ role: r.role as ConversationMessage['role'], content: r.content }));
  }

  /** Appends messages (a user prompt and the assistant's answer) to a session. */
  async append(orgId: number, flow: string, sessionId: string, messages: ConversationMessage[], now = new Date()): Promise<void> {
    if (messages.length === 0) return;
    const stamp = isoNow(now);
    await this.db
      .insertInto('memory_messages')
      .values(
        messages.map((m, seq) => ({
          id: sortableId(now),
          org_id: orgId,
          flow,
          session_id: sessionId,
          seq,
          role: m.role,
          content: m.content,
          created_at: stamp,
        })),
      )
      .execute();
  }

  /** Every message of a session, oldest first. */
  async read(orgId: number, flow: string, sessionId: string): Promise<MemoryMessage[]> {
    const rows = await this.db
      .selectFrom('memory_messages')
      .select(['role', 'content', 'created_at'])
      .where('org_id', '=', orgId)
      .where('flow', '=', flow)
      .where('session_id', '=', sessionId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ role: r.role as ConversationMessage['role'], content: r.content, created_at: r.created_at }));
  }

  /** Forgets a session; returns how many messages were deleted. */
  async clear(orgId: number, flow: string, sessionId: string): Promise<number> {
    // A delete by key, shaped like any Kysely delete (core's memberships has one too): no logic in common.
    const result = await this.db
      .deleteFrom('memory_messages')
      .where('org_id', '=', orgId)
      .where('flow', '=', flow)
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
