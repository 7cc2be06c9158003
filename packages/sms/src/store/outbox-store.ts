import { sql, type Kysely, type Transaction } from 'kysely';
import type { DialectName } from '@switchboard/core';
import { countSegments } from '../domain/segments.ts';
import type { MessageRecord } from '../domain/message.ts';
import type { SendRequest } from '../domain/validation.ts';
import { bodyColumns } from './message-body.ts';
// The same message-row helpers as message-store.ts imports: both stores write messages.
import {
  MESSAGE_COLUMNS,
  SILENT,
  lockOrganization,
  presentMessage,
  tally,
  touchSims,
  type ChangeSignal,
  type MessageRow,
  type SimTouch,
} from './message-rows.ts';
import { tallyConversation, touchConversations, type ConversationTouch } from './conversation-rows.ts';
import type { SmsTables } from './schema.ts';

/** How long an Idempotency-Key returns the first message. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

/** A message a worker has claimed for one attempt. */
export interface ClaimedMessage {
  message: MessageRecord;
  /** 1 for the first attempt. */
  attempt: number;
}

/** The message a worker attempt is about: its id and organization. */
export type OutboxMessage = Pick<MessageRecord, 'id' | 'org_id'>;

/** The durable outbox: queued outbound messages and their attempts. */
export class OutboxStore {
  constructor(
    private readonly db: Kysely<SmsTables>,
    private readonly dialect: DialectName,
    /** Announces an organization's committed changes to the console's streams (one wake-up per commit). */
    private readonly signal: ChangeSignal = SILENT,
  ) {}

  /**
   * Queues an outbound message (and its SIM) in one transaction. With an
   * idempotency key seen in the last 24 hours, returns the first message instead.
   */
  async enqueue(
    orgId: string,
    request: SendRequest,
    options: { idempotencyKey: string | undefined; from: string; gateway: string | null; now: Date },
  ): Promise<{ message: MessageRecord; repeated: boolean }> {
    const at = options.now.toISOString();
    const queued = await this.db.transaction().execute(async (trx) => {
      const seq = await lockOrganization(trx, this.dialect, orgId, this.signal.notifyChannel);
      if (options.idempotencyKey !== undefined) {
        const previous = await trx
          .selectFrom('idempotency_keys')
          .innerJoin('messages', 'messages.id', 'idempotency_keys.message_id')
          .select(MESSAGE_COLUMNS.map((column) => `messages.${column}` as const))
          .where('idempotency_keys.org_id', '=', orgId)
          .where('idempotency_keys.key', '=', options.idempotencyKey)
          .where('idempotency_keys.created_at', '>', new Date(options.now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString())
          .executeTakeFirst();
        if (previous) return { message: presentMessage(previous as MessageRow), repeated: true };
      }
      let from = options.from;
      if (request.sim !== null) {
        const sim = await trx.selectFrom('sims').select('phone_number').where('org_id', '=', orgId).where('sim', '=', request.sim).executeTakeFirst();
        if (sim?.phone_number) from = sim.phone_number;
      }
      const row = (await trx
        .insertInto('messages')
        .values({
          org_id: orgId,
          direction: 'outbound',
          sim: request.sim,
          from_number: from,
          to_number: request.to,
          ...bodyColumns(request.body),
          status: 'queued',
          segments: countSegments(request.body),
          gateway: options.gateway,
          external_id: null,
          error: null,
          received_at: null,
          sent_at: null,
          delivered_at: null,
          created_at: at,
          updated_at: at,
          peer: request.to,
          change_seq: seq,
        })
        .returning(MESSAGE_COLUMNS)
        .executeTakeFirstOrThrow()) as MessageRow;
      const id = Number(row.id);
      await trx
        .insertInto('outbox')
        .values({ message_id: id, org_id: orgId, attempts: 0, next_attempt_at: options.now.getTime(), lease_until: null })
        .execute();
      if (options.idempotencyKey !== undefined) {
        await trx
          .insertInto('idempotency_keys')
          .values({ org_id: orgId, key: options.idempotencyKey, message_id: id, created_at: at })
          .onConflict((oc) => oc.columns(['org_id', 'key']).doUpdateSet({ message_id: id, created_at: at }))
          .execute();
      }
      const touches = new Map<string, SimTouch>();
      tally(touches, request.sim, 'outbound');
      await touchSims(trx, this.dialect, orgId, touches.values(), at);
      const conversations = new Map<string, ConversationTouch>();
      tallyConversation(conversations, request.to, id, 'outbound');
      await touchConversations(trx, this.dialect, orgId, conversations.values());
      return { message: presentMessage(row), repeated: false };
    });
    if (!queued.repeated) this.signal.publish(orgId);
    return queued;
  }

  /**
   * Claims due messages of organizations that have a driver, marking them
   * `sending` under a lease. `FOR UPDATE SKIP LOCKED` on PostgreSQL lets any
   * number of workers claim at once; SQLite has a single writer anyway. A
   * worker that dies leaves its lease to expire, and the message is tried again.
   */
  async claim(now: Date, leaseMs: number, limit: number): Promise<ClaimedMessage[]> {
    const nowMs = now.getTime();
    const at = now.toISOString();
    return this.db.transaction().execute(async (trx) => {
      const due = trx
        .selectFrom('outbox')
        .select('message_id')
        .where('next_attempt_at', '<=', nowMs)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', nowMs)]))
        .where('org_id', 'in', trx.selectFrom('organizations').select('organizations.org_id').where('active_driver', '<>', 'none'))
        .orderBy('next_attempt_at')
        .limit(limit)
        .$if(this.dialect === 'postgres', (qb) => qb.forUpdate().skipLocked());
      const claimed = await trx
        .updateTable('outbox')
        .set({ lease_until: nowMs + leaseMs, attempts: sql`attempts + 1` })
        .where('message_id', 'in', due)
        .returning(['message_id', 'attempts'])
        .execute();
      if (claimed.length === 0) return [];
      const ids = claimed.map((row) => Number(row.message_id));
      const rows = (await trx
        .updateTable('messages')
        .set({ status: 'sending', updated_at: at })
        .where('id', 'in', ids)
        .returning(MESSAGE_COLUMNS)
        .execute()) as MessageRow[];
      const attempts = new Map(claimed.map((row) => [Number(row.message_id), Number(row.attempts)]));
      return rows.sort((a, b) => Number(a.id) - Number(b.id)).map((row) => ({ message: presentMessage(row), attempt: attempts.get(Number(row.id))! }));
    });
  }

  /** The gateway accepted the message: `sent`, with its id for delivery reports. */
  async markSent(message: OutboxMessage, result: { externalId: string | null; gateway: string; from?: string }, now: Date): Promise<void> {
    const at = now.toISOString();
    await this.dequeue(message, (trx, seq) =>
      trx
        .updateTable('messages')
        .set({
          // A delivery report may already have moved it further; never move it back.
          status: sql`case when status in ('queued', 'sending') then 'sent' else status end`,
          external_id: sql`coalesce(external_id, ${result.externalId})`,
          gateway: result.gateway,
          sent_at: sql`coalesce(sent_at, ${at})`,
          error: null,
          updated_at: at,
          change_seq: seq,
        })
        .where('id', '=', message.id)
        .execute(),
    );
  }

  /** A failed attempt with attempts left: queued again for `nextAttemptAt`. */
  async retryLater(message: OutboxMessage, nextAttemptAt: Date, now: Date): Promise<void> {
    await this.release(message, nextAttemptAt, now, false);
  }

  /** Per-SIM pacing: put back without counting the attempt. */
  async defer(message: OutboxMessage, nextAttemptAt: Date, now: Date): Promise<void> {
    await this.release(message, nextAttemptAt, now, true);
  }

  private async release(message: OutboxMessage, nextAttemptAt: Date, now: Date, uncount: boolean): Promise<void> {
    const messageId = message.id;
    await this.db.transaction().execute(async (trx) => {
      const seq = await lockOrganization(trx, this.dialect, message.org_id, this.signal.notifyChannel);
      await trx
        .updateTable('outbox')
        .set({ lease_until: null, next_attempt_at: nextAttemptAt.getTime(), ...(uncount ? { attempts: sql`attempts - 1` } : {}) })
        .where('message_id', '=', messageId)
        .execute();
      await trx
        .updateTable('messages')
        .set({ status: 'queued', updated_at: now.toISOString(), change_seq: seq })
        .where('id', '=', messageId)
        .where('status', '=', 'sending')
        .execute();
    });
    this.signal.publish(message.org_id);
  }

  /** The last attempt failed: `failed`, with the reason. */
  async markFailed(message: OutboxMessage, error: string, now: Date): Promise<void> {
    await this.dequeue(message, (trx, seq) =>
      trx
        .updateTable('messages')
        .set({ status: 'failed', error: error.slice(0, 1000), updated_at: now.toISOString(), change_seq: seq })
        .where('id', '=', message.id)
        .where('status', 'in', ['queued', 'sending'])
        .execute(),
    );
  }

  /** The last attempt is over: off the queue, and the message updated by `update`, in one transaction; then the stream is told. */
  private async dequeue(message: OutboxMessage, update: (trx: Transaction<SmsTables>, seq: number) => Promise<unknown>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const seq = await lockOrganization(trx, this.dialect, message.org_id, this.signal.notifyChannel);
      await trx.deleteFrom('outbox').where('message_id', '=', message.id).execute();
      await update(trx, seq);
    });
    this.signal.publish(message.org_id);
  }

  /** Messages waiting in the outbox (the queue-depth gauge). */
  async depth(): Promise<number> {
    const row = await this.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
}
