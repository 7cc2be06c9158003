import { AppError } from '@switchboard/core';
import { CompiledQuery, type Transaction } from 'kysely';
import type { DialectName, WakeBus } from '@switchboard/core';
import { RowsStatement, statementText, type QueryRunner } from './compiled-statements.ts';
import type { Direction, MessageRecord, MessageStatus } from '../domain/message.ts';
import { bodyOfRow } from './message-body.ts';
import type { SmsTables } from './schema.ts';

/** How a store announces an organization's committed changes: core's WakeBus, or nothing (the CLI, tools). */
export type ChangeSignal = Pick<WakeBus, 'notifyChannel' | 'publish'>;

/** The signal of a store nobody listens to. */
export const SILENT: ChangeSignal = { notifyChannel: undefined, publish: () => undefined };

/** A stored message row. */
export type MessageRow = SmsTables['messages'] & { id: number };

/** Columns of a message row, in the order the record lists them (`body_utf8` is part of `body`, see message-body.ts). */
export const MESSAGE_COLUMNS = [
  'id',
  'org_id',
  'direction',
  'sim',
  'from_number',
  'to_number',
  'body',
  'body_utf8',
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
    body: bodyOfRow(row),
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
 * Serializes the writes of one organization's messages: the first statement of every transaction that
 * inserts or changes messages. On PostgreSQL the row lock is held to commit, so ids and change numbers are
 * drawn and committed in the same order: a poller never sees a smaller id appear after a larger one, nor the
 * console's stream a smaller change number; on SQLite it takes the single write lock up front. Answers the
 * commit's change number (the organization's new `seq`). With `notifyChannel` (PostgreSQL's wake-ups), the
 * same statement queues the pg_notify that PostgreSQL sends at commit. Throws when the organization does not exist.
 */
export async function lockOrganization(trx: Transaction<SmsTables>, dialect: DialectName, orgId: string, notifyChannel?: string): Promise<number> {
  const statement =
    notifyChannel !== undefined && dialect === 'postgres'
      ? CompiledQuery.raw(LOCK_AND_NOTIFY, [orgId, notifyChannel])
      : CompiledQuery.raw(LOCK_ORGANIZATION[dialect], [orgId]);
  const result = await trx.executeQuery<{ seq: number | string }>(statement);
  if (result.rows.length === 0) throw new AppError('unauthorized', 'Invalid credentials');
  return Number(result.rows[0].seq);
}

const LOCK_ORGANIZATION = {
  sqlite: statementText('sqlite', 'update organizations set seq = seq + 1 where org_id = ? returning seq'),
  postgres: statementText('postgres', 'update organizations set seq = seq + 1 where org_id = ? returning seq'),
};
const LOCK_AND_NOTIFY = statementText('postgres', 'update organizations set seq = seq + 1 where org_id = ? returning seq, pg_notify(?, org_id)');

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

// One row per SIM (the tally keys them), so `excluded` is that SIM's share of the new messages.
const SIMS_HEAD =
  'insert into sims (org_id, sim, label, phone_number, device_id, slot, message_count, inbound_count, outbound_count, first_seen_at, last_seen_at)';
const SIMS_TAIL =
  'on conflict (org_id, sim) do update set message_count = sims.message_count + excluded.message_count, ' +
  'inbound_count = sims.inbound_count + excluded.inbound_count, outbound_count = sims.outbound_count + excluded.outbound_count, ' +
  'phone_number = coalesce(sims.phone_number, excluded.phone_number), device_id = coalesce(excluded.device_id, sims.device_id), ' +
  'slot = coalesce(excluded.slot, sims.slot), last_seen_at = excluded.last_seen_at';
const TOUCH_SIMS = {
  sqlite: new RowsStatement('sqlite', SIMS_HEAD, 11, SIMS_TAIL),
  postgres: new RowsStatement('postgres', SIMS_HEAD, 11, SIMS_TAIL),
};

/** Registers SIMs on first sight and bumps their counters, one statement for all of them (per 500). */
export async function touchSims(db: QueryRunner, dialect: DialectName, orgId: string, touches: Iterable<SimTouch>, at: string): Promise<void> {
  const parameters: unknown[] = [];
  for (const touch of touches) {
    parameters.push(
      orgId,
      touch.sim,
      null,
      touch.phoneNumber,
      touch.deviceId,
      touch.slot,
      touch.inbound + touch.outbound,
      touch.inbound,
      touch.outbound,
      at,
      at,
    );
  }
  await TOUCH_SIMS[dialect].run(db, parameters);
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
