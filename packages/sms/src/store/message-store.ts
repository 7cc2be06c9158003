import { sql, type Kysely, type Transaction } from 'kysely';
import { preparedQuery, type Batch, type DialectName, type GroupCommit } from '@switchboard/core';
import { countSegments } from '../domain/segments.ts';
import { statusAdvances, type MessageRecord, type MessageStatus } from '../domain/message.ts';
import type { ListQuery } from '../domain/validation.ts';
import type { ReceivedEvent, StatusEvent, WebhookEvent } from '../domain/webhook-event.ts';
import { RowsStatement } from './compiled-statements.ts';
import { bodyColumns } from './message-body.ts';
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

/** A page whose messages are one JSON array text (see listJson). */
export interface JsonMessagePage {
  json: string;
  count: number;
  /** Largest id in the page, or since_id when empty. */
  lastId: number;
  hasMore: boolean;
}

/** One webhook's events for an organization, received at `at`. */
interface WebhookCall {
  orgId: string;
  gateway: string;
  events: WebhookEvent[];
  at: string;
}

/** A gateway event id within an organization (the idempotency key's other two parts). */
const eventKey = (gateway: string, eventId: string) => `${gateway}\n${eventId}`;

/** What a webhook call changed. */
export interface WebhookOutcome {
  stored: number[];
  duplicates: number;
  updated: number;
}

const EVENTS_HEAD = 'insert into webhook_events (org_id, gateway, event_id, created_at)';
const EVENTS_TAIL = 'on conflict (org_id, gateway, event_id) do nothing returning gateway, event_id';
const INSERT_EVENTS = {
  sqlite: new RowsStatement('sqlite', EVENTS_HEAD, 4, EVENTS_TAIL),
  postgres: new RowsStatement('postgres', EVENTS_HEAD, 4, EVENTS_TAIL),
};

// A received message: the constant columns are literals, the rest parameters.
const MESSAGES_HEAD =
  'insert into messages (org_id, direction, sim, from_number, to_number, body, body_utf8, status, segments, gateway, external_id, error, received_at, sent_at, delivered_at, created_at, updated_at, peer, change_seq)';
const RECEIVED_ROW = "(?, 'inbound', ?, ?, ?, ?, ?, 'received', ?, ?, ?, null, ?, null, null, ?, ?, ?, ?)";
const INSERT_MESSAGES = {
  sqlite: new RowsStatement('sqlite', MESSAGES_HEAD, RECEIVED_ROW, 'returning id, peer'),
  postgres: new RowsStatement('postgres', MESSAGES_HEAD, RECEIVED_ROW, 'returning id, peer'),
};

// SQLite writes a page's messages as one JSON array itself (json_group_array); on PostgreSQL they are serialized in JS.
// A body's exact bytes, when it has them, are read back as text: SQLite's text and json_object keep U+0000.
const SQLITE_JSON_FIELDS = MESSAGE_COLUMNS.filter((column) => column !== 'body_utf8').map((column) => {
  if (column === 'body') return sql`'body', case when page.body_utf8 is null then page.body else cast(page.body_utf8 as text) end`;
  const name = column === 'from_number' ? 'from' : column === 'to_number' ? 'to' : column;
  return sql`${sql.lit(name)}, page.${sql.ref(column)}`;
});
const SQLITE_JSON_ARRAY = sql<string | null>`json_group_array(json_object(${sql.join(SQLITE_JSON_FIELDS)}) order by page.id)`;

/** Messages of an organization after `sinceId`, filtered by direction and SIM (id or phone number). */
function filteredMessages(db: Kysely<SmsTables>, orgId: string, query: ListQuery, sinceId: number) {
  let select = db.selectFrom('messages').where('org_id', '=', orgId).where('id', '>', sinceId);
  if (query.direction) select = select.where('direction', '=', query.direction);
  if (query.sim !== null) {
    const sim = query.sim;
    select = select.where((eb) =>
      eb.or([
        eb('sim', '=', sim),
        eb('sim', 'in', eb.selectFrom('sims').select('sims.sim').where('sims.org_id', '=', orgId).where('sims.phone_number', '=', sim)),
      ]),
    );
  }
  return select;
}

/** PostgreSQL's page query, compiled once per filter shape (Kysely's building and compiling took 7% of a listing's CPU). */
const pageRows = preparedQuery({
  build: (db: Kysely<SmsTables>, orgId: string, query: ListQuery) =>
    filteredMessages(db, orgId, query, query.sinceId)
      .select(MESSAGE_COLUMNS)
      .orderBy('id')
      .limit(query.limit + 1),
  params: (orgId, query) => [
    orgId,
    query.sinceId,
    ...(query.direction ? [query.direction] : []),
    ...(query.sim !== null ? [query.sim, orgId, query.sim] : []),
    query.limit + 1,
  ],
  shape: (_orgId, query) => `${query.direction ? 'direction' : ''} ${query.sim !== null ? 'sim' : ''}`,
});

/** Messages: the incremental listing and what webhooks report. */
export class MessageStore {
  constructor(
    private readonly db: Kysely<SmsTables>,
    private readonly dialect: DialectName,
    /** Announces an organization's committed changes to the console's streams (one wake-up per commit). */
    private readonly signal: ChangeSignal = SILENT,
    /** SQLite: webhook transactions of one turn of the event loop committed together (core's GroupCommit). */
    private readonly commits?: GroupCommit<SmsTables>,
  ) {}

  /**
   * Messages with id > since_id, ascending, at most `limit`, filtered by
   * direction and SIM (id or phone number), as one JSON array text of message
   * records: the hot read path, which on SQLite saves materializing and
   * re-serializing every row in JavaScript.
   */
  async listJson(orgId: string, query: ListQuery): Promise<JsonMessagePage> {
    if (this.dialect === 'postgres') return this.listJsonFromRows(orgId, query);
    const page = filteredMessages(this.db, orgId, query, query.sinceId).select(MESSAGE_COLUMNS).orderBy('id').limit(query.limit).as('page');
    const row = await this.db
      .selectFrom(page)
      .select([SQLITE_JSON_ARRAY.as('json'), (eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.max('page.id').as('last_id')])
      .executeTakeFirstOrThrow();
    const count = Number(row.count);
    const lastId = count > 0 ? Number(row.last_id) : query.sinceId;
    // A full page may have more behind it: one index probe says. (Measured faster on SQLite than
    // fetching limit + 1 rows and numbering them to keep the extra one out of the JSON.)
    let hasMore = false;
    if (count === query.limit) hasMore = (await filteredMessages(this.db, orgId, query, lastId).select('id').limit(1).execute()).length > 0;
    return { json: row.json ?? '[]', count, lastId, hasMore };
  }

  /**
   * PostgreSQL: json_agg(json_build_object(…)) costs the server about 25× the
   * plain index scan (measured 1.5 ms against 0.06 ms for 100 rows), so the
   * rows come back as they are, one more than the page to answer has_more in
   * the same statement, and JSON.stringify writes them: the same compact JSON
   * as SQLite's json_object.
   */
  private async listJsonFromRows(orgId: string, query: ListQuery): Promise<JsonMessagePage> {
    const rows = (await pageRows(this.db, orgId, query)) as MessageRow[];
    const hasMore = rows.length > query.limit;
    if (hasMore) rows.pop();
    const count = rows.length;
    const lastId = count > 0 ? Number(rows[count - 1].id) : query.sinceId;
    return { json: JSON.stringify(rows.map(presentMessage)), count, lastId, hasMore };
  }

  /** One message of an organization, or undefined. */
  async get(orgId: string, id: number): Promise<MessageRecord | undefined> {
    const row = await this.db.selectFrom('messages').select(MESSAGE_COLUMNS).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    return row ? presentMessage(row as MessageRow) : undefined;
  }

  /**
   * Applies a webhook's events in one transaction: received messages are
   * stored (a gateway event id seen before counts as a duplicate), delivery
   * reports update outbound messages. Returns after the commit, so a 200
   * answer means the messages are durable. On SQLite the webhooks of one turn
   * of the event loop are applied together (`webhooks` below, core's GroupCommit.join).
   */
  async applyWebhook(orgId: string, gateway: string, events: WebhookEvent[], now: Date): Promise<WebhookOutcome> {
    // A ping (the Android app's system:ping) changes nothing: no transaction, no wake-up.
    if (events.length === 0) return { stored: [], duplicates: 0, updated: 0 };
    const call: WebhookCall = { orgId, gateway, events, at: now.toISOString() };
    const outcome = this.commits ? await this.commits.join(this.webhooks, call) : await this.db.transaction().execute((trx) => this.webhooks.one(trx, call));
    if (outcome.stored.length > 0 || outcome.updated > 0) this.signal.publish(orgId);
    return outcome;
  }

  /**
   * Webhooks applied together: per organization one lock (its change number),
   * one insert of their event ids, one of their messages and one update each
   * of their SIMs and conversations, where each webhook alone runs all five
   * (and two savepoint statements): a webhook of one message cost about 1.4×
   * the CPU of a bare insert (`npx tsx bench/cpu-probe.ts webhook`).
   */
  private readonly webhooks: Batch<SmsTables, WebhookCall, WebhookOutcome> = {
    all: (trx, calls) => this.applyCalls(trx, calls),
    one: async (trx, call) => (await this.applyCalls(trx, [call]))[0],
  };

  private async applyCalls(trx: Transaction<SmsTables>, calls: WebhookCall[]): Promise<WebhookOutcome[]> {
    const outcomes: WebhookOutcome[] = [];
    const byOrg = new Map<string, number[]>();
    for (const [i, call] of calls.entries()) {
      const indexes = byOrg.get(call.orgId);
      if (indexes) indexes.push(i);
      else byOrg.set(call.orgId, [i]);
    }
    for (const [orgId, indexes] of byOrg) {
      const group = indexes.map((i) => calls[i]);
      const seq = await lockOrganization(trx, this.dialect, orgId, this.signal.notifyChannel);
      const fresh = await this.freshEvents(trx, orgId, group);
      const stored = await this.insertReceived(trx, orgId, group, fresh, seq);
      for (const [k, call] of group.entries()) {
        let updated = 0;
        for (const event of call.events) {
          if (event.kind === 'status' && fresh[k].events.has(event)) updated += await this.applyStatus(trx, orgId, event, call.at, seq);
        }
        outcomes[indexes[k]] = { stored: stored[k], duplicates: fresh[k].duplicates, updated };
      }
    }
    return outcomes;
  }

  /** Each call's events not seen before (by gateway event id, in this call, an earlier call or an earlier commit), and its duplicates. */
  private async freshEvents(
    trx: Transaction<SmsTables>,
    orgId: string,
    calls: WebhookCall[],
  ): Promise<Array<{ events: Set<WebhookEvent>; duplicates: number }>> {
    const seen = new Set<string>();
    const parameters: unknown[] = [];
    const perCall = calls.map((call) => {
      const fresh = { events: new Set<WebhookEvent>(), duplicates: 0, withIds: [] as WebhookEvent[] };
      for (const event of call.events) {
        if (event.eventId === null) {
          fresh.events.add(event);
          continue;
        }
        const key = eventKey(call.gateway, event.eventId);
        if (seen.has(key)) {
          fresh.duplicates += 1;
          continue;
        }
        seen.add(key);
        fresh.withIds.push(event);
        parameters.push(orgId, call.gateway, event.eventId, call.at);
      }
      return fresh;
    });
    const rows = await INSERT_EVENTS[this.dialect].run<{ gateway: string; event_id: string }>(trx, parameters);
    const inserted = new Set(rows.map((row) => eventKey(row.gateway, row.event_id)));
    for (const [k, fresh] of perCall.entries()) {
      for (const event of fresh.withIds) {
        if (inserted.has(eventKey(calls[k].gateway, event.eventId!))) fresh.events.add(event);
        else fresh.duplicates += 1;
      }
    }
    return perCall;
  }

  /** Stores the calls' fresh received messages; answers each call's new ids, ascending. */
  private async insertReceived(
    trx: Kysely<SmsTables>,
    orgId: string,
    calls: WebhookCall[],
    fresh: Array<{ events: Set<WebhookEvent> }>,
    seq: number,
  ): Promise<number[][]> {
    const received = calls.map((call, k) => call.events.filter((event): event is ReceivedEvent => event.kind === 'received' && fresh[k].events.has(event)));
    const all = received.flat();
    if (all.length === 0) return received.map(() => []);
    // Gateways that do not say which number received the message (the Android app): use the SIM's known number.
    const unknownTo = [...new Set(all.filter((event) => !event.to && event.sim !== null).map((event) => event.sim!))];
    const simNumbers = new Map<string, string>();
    if (unknownTo.length > 0) {
      const rows = await trx.selectFrom('sims').select(['sim', 'phone_number']).where('org_id', '=', orgId).where('sim', 'in', unknownTo).execute();
      for (const row of rows) if (row.phone_number) simNumbers.set(row.sim, row.phone_number);
    }
    const touches = new Map<string, SimTouch>();
    const parameters: unknown[] = [];
    for (const [k, events] of received.entries()) {
      const { gateway, at } = calls[k];
      for (const event of events) {
        tally(touches, event.sim, 'inbound', { phoneNumber: event.to || null, deviceId: event.deviceId, slot: event.slot });
        const to = event.to || (event.sim !== null ? simNumbers.get(event.sim) : undefined) || '';
        // In INSERT_MESSAGES' column order.
        const { body, body_utf8 } = bodyColumns(event.body);
        parameters.push(
          orgId,
          event.sim,
          event.from,
          to,
          body,
          body_utf8,
          countSegments(event.body),
          gateway,
          event.externalId,
          event.receivedAt ?? at,
          at,
          at,
          event.from,
          seq,
        );
      }
    }
    const rows = await INSERT_MESSAGES[this.dialect].run<{ id: number; peer: string }>(trx, parameters);
    const conversations = new Map<string, ConversationTouch>();
    const ids = rows.map((row) => {
      const id = Number(row.id);
      tallyConversation(conversations, row.peer, id, 'inbound');
      return id;
    });
    // Ids are drawn in insertion order (RETURNING itself promises no order), so ascending ids are the events'
    // order, call after call.
    ids.sort((a, b) => a - b);
    await touchSims(trx, this.dialect, orgId, touches.values(), calls[calls.length - 1].at);
    await touchConversations(trx, this.dialect, orgId, conversations.values());
    let next = 0;
    return received.map((events) => {
      const first = next;
      next += events.length;
      return ids.slice(first, next);
    });
  }

  private async applyStatus(trx: Kysely<SmsTables>, orgId: string, event: StatusEvent, at: string, seq: number): Promise<number> {
    let select = trx.selectFrom('messages').select(['id', 'status', 'sent_at']).where('org_id', '=', orgId).where('direction', '=', 'outbound');
    select = event.messageId !== null ? select.where('id', '=', event.messageId) : select.where('external_id', '=', event.externalId!);
    const targets = await select.execute();
    let updated = 0;
    for (const target of targets) {
      if (!statusAdvances(target.status as MessageStatus, event.status)) continue;
      const when = event.at ?? at;
      const changes: {
        status: string;
        updated_at: string;
        change_seq: number;
        sent_at?: string;
        delivered_at?: string;
        error?: string | null;
        external_id?: string;
      } = {
        status: event.status,
        updated_at: at,
        change_seq: seq,
      };
      if (event.status === 'sent' || event.status === 'delivered') changes.sent_at = target.sent_at ?? when;
      if (event.status === 'delivered') changes.delivered_at = when;
      if (event.status === 'delivered') changes.error = null;
      if (event.status === 'failed') changes.error = event.error ?? 'failed';
      if (event.externalId !== null && event.messageId !== null) changes.external_id = event.externalId;
      // A final report ends any pending retry. Outbox before messages: the same lock order as the worker's claim.
      if (event.status !== 'sent') await trx.deleteFrom('outbox').where('message_id', '=', target.id).execute();
      await trx.updateTable('messages').set(changes).where('id', '=', target.id).execute();
      updated += 1;
    }
    return updated;
  }
}
