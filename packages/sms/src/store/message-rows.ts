import { AppError } from '@switchboard/core';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Direction, MessageRecord, MessageStatus } from '../domain/message.ts';
import type { SmsTables } from './schema.ts';

/** A stored message row. */
export type MessageRow = SmsTables['messages'] & { id: number };

/** Columns of a message, in the order the record lists them. */
export const MESSAGE_COLUMNS = [
  'id',
  'org_id',
  'direction',
  'sim',
  'from_number',
  'to_number',
  'body',
  'status',
  'segments',
  'gateway',
  'external_id',
  'error',
  'received_at',
  'sent_at',
  'delivered_at',
  'created_at',
  'updated_at',
] as const;

/** The message fields that go over the wire (`from_number` → `from`, …). */
export function presentMessage(row: MessageRow): MessageRecord {
  return {
    id: Number(row.id),
    org_id: row.org_id,
    direction: row.direction as Direction,
    sim: row.sim,
    from: row.from_number,
    to: row.to_number,
    body: row.body,
    status: row.status as MessageStatus,
    segments: Number(row.segments),
    gateway: row.gateway,
    external_id: row.external_id,
    error: row.error,
    received_at: row.received_at,
    sent_at: row.sent_at,
    delivered_at: row.delivered_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Serializes message inserts of one organization: the first statement of
 * every transaction that inserts messages. On PostgreSQL the row lock is held
 * to commit, so ids are drawn and committed in the same order and a poller
 * never sees a smaller id appear after a larger one; on SQLite it takes the
 * single write lock up front. Throws when the organization does not exist.
 */
export async function lockOrganization(trx: Transaction<SmsTables>, orgId: string): Promise<void> {
  const row = await trx
    .updateTable('organizations')
    .set({ seq: sql`seq + 1` })
    .where('org_id', '=', orgId)
    .returning('org_id')
    .executeTakeFirst();
  if (!row) throw new AppError('unauthorized', 'Invalid credentials');
}

/** What a set of new messages adds to one SIM's record. */
export interface SimTouch {
  sim: string;
  inbound: number;
  outbound: number;
  /** Our number as the gateway reported it, learned when the SIM has none. */
  phoneNumber: string | null;
  deviceId: string | null;
  slot: number | null;
}

/** Registers SIMs on first sight and bumps their counters, one statement per SIM. */
export async function touchSims(db: Kysely<SmsTables> | Transaction<SmsTables>, orgId: string, touches: Iterable<SimTouch>, at: string): Promise<void> {
  for (const touch of touches) {
    const total = touch.inbound + touch.outbound;
    await db
      .insertInto('sims')
      .values({
        org_id: orgId,
        sim: touch.sim,
        label: null,
        phone_number: touch.phoneNumber,
        device_id: touch.deviceId,
        slot: touch.slot,
        message_count: total,
        inbound_count: touch.inbound,
        outbound_count: touch.outbound,
        first_seen_at: at,
        last_seen_at: at,
      })
      .onConflict((oc) =>
        oc.columns(['org_id', 'sim']).doUpdateSet({
          message_count: sql`sims.message_count + ${total}`,
          inbound_count: sql`sims.inbound_count + ${touch.inbound}`,
          outbound_count: sql`sims.outbound_count + ${touch.outbound}`,
          phone_number: sql`coalesce(sims.phone_number, ${touch.phoneNumber})`,
          device_id: sql`coalesce(${touch.deviceId}, sims.device_id)`,
          slot: sql`coalesce(${touch.slot}, sims.slot)`,
          last_seen_at: at,
        }),
      )
      .execute();
  }
}

/** Adds one message to a per-SIM tally. */
export function tally(touches: Map<string, SimTouch>, sim: string | null, direction: Direction, extra: Partial<SimTouch> = {}): void {
  if (sim === null) return;
  let touch = touches.get(sim);
  if (!touch) {
    touch = { sim, inbound: 0, outbound: 0, phoneNumber: null, deviceId: null, slot: null };
    touches.set(sim, touch);
  }
  if (direction === 'inbound') touch.inbound += 1;
  else touch.outbound += 1;
  if (extra.phoneNumber) touch.phoneNumber ??= extra.phoneNumber;
  if (extra.deviceId) touch.deviceId = extra.deviceId;
  if (extra.slot !== undefined && extra.slot !== null) touch.slot = extra.slot;
}
