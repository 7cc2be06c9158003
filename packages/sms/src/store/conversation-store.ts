import { AppError } from '@switchboard/core';
import { sql, type Kysely } from 'kysely';
import type { ChangeBatch, Conversation, ConversationPage, ThreadPage } from '../domain/conversation.ts';
import type { Direction } from '../domain/message.ts';
import { MESSAGE_COLUMNS, presentMessage, type MessageRow } from './message-rows.ts';
import type { SmsTables } from './schema.ts';

/** What a conversation list or thread is narrowed to: a SIM (its id or phone number) and a direction. */
export interface MessageFilter {
  sim: string | null;
  direction: Direction | null;
}

/** A page request: at most `limit`, before a position (a message id), or from the latest. */
export interface PageRequest {
  limit: number;
  before: number | null;
}

const LAST_MESSAGE_COLUMNS = MESSAGE_COLUMNS.map((column) => `m.${column}` as const);

type ConversationRow = MessageRow & { peer: string; message_count: number | string; unread: number | string; position: number | string };

function presentConversation(row: ConversationRow): Conversation {
  return { peer: row.peer, last_message: presentMessage(row), message_count: Number(row.message_count), unread: Math.max(0, Number(row.unread)) };
}

/** The console's reads: conversations with unread counts, threads, read marks, and the stream's changes. */
export class ConversationStore {
  constructor(private readonly db: Kysely<SmsTables>) {}

  /**
   * An organization's conversations, the latest message first, with the reader's unread counts. Unfiltered,
   * a page is an index range of the conversations table (one row each) joined to each last message: the
   * same cost at 100 or 100,000 messages. Filtered by SIM or direction, the latest matching message of each
   * conversation is found among the organization's messages (a scan of them).
   */
  async list(orgId: string, reader: string, filter: MessageFilter, page: PageRequest): Promise<ConversationPage> {
    // The change number first: whatever commits after it is in the page or after it on the stream (or both).
    const seq = (await this.latestChange(orgId)) ?? 0;
    const rows = filter.sim === null && filter.direction === null ? await this.recent(orgId, reader, page) : await this.filtered(orgId, reader, filter, page);
    const more = rows.length > page.limit;
    if (more) rows.pop();
    return { conversations: rows.map(presentConversation), next_before: more ? Number(rows[rows.length - 1].position) : null, seq };
  }

  /** The organization's conversations with their last messages and the reader's unread counts, in no order. */
  private conversations(orgId: string, reader: string) {
    return this.db
      .selectFrom('conversations as c')
      .innerJoin('messages as m', 'm.id', 'c.last_message_id')
      .leftJoin('read_marks as r', (join) => join.onRef('r.org_id', '=', 'c.org_id').onRef('r.peer', '=', 'c.peer').on('r.reader', '=', reader))
      .select([
        ...LAST_MESSAGE_COLUMNS,
        'c.peer',
        'c.message_count',
        'c.last_message_id as position',
        sql<number>`c.inbound_count - coalesce(r.inbound_read, 0)`.as('unread'),
      ])
      .where('c.org_id', '=', orgId);
  }

  private recent(orgId: string, reader: string, page: PageRequest): Promise<ConversationRow[]> {
    let select = this.conversations(orgId, reader);
    if (page.before !== null) select = select.where('c.last_message_id', '<', page.before);
    return select
      .orderBy('c.last_message_id', 'desc')
      .limit(page.limit + 1)
      .execute() as Promise<ConversationRow[]>;
  }

  private filtered(orgId: string, reader: string, filter: MessageFilter, page: PageRequest): Promise<ConversationRow[]> {
    let latest = this.db
      .selectFrom('messages')
      .select(['peer', (eb) => eb.fn.max('id').as('last_id')])
      .where('org_id', '=', orgId);
    if (filter.direction !== null) latest = latest.where('direction', '=', filter.direction);
    if (filter.sim !== null) {
      const sim = filter.sim;
      latest = latest.where((eb) =>
        eb.or([
          eb('sim', '=', sim),
          eb('sim', 'in', eb.selectFrom('sims').select('sims.sim').where('sims.org_id', '=', orgId).where('sims.phone_number', '=', sim)),
        ]),
      );
    }
    // The same columns as conversations(), but the list's order and position come from the filtered latest message.
    let select = this.db
      .selectFrom(latest.groupBy('peer').as('l'))
      .innerJoin('conversations as c', (join) => join.on('c.org_id', '=', orgId).onRef('c.peer', '=', 'l.peer'))
      .innerJoin('messages as m', 'm.id', 'l.last_id')
      .leftJoin('read_marks as r', (join) => join.onRef('r.org_id', '=', 'c.org_id').onRef('r.peer', '=', 'c.peer').on('r.reader', '=', reader))
      .select([
        ...LAST_MESSAGE_COLUMNS,
        'c.peer',
        'c.message_count',
        'l.last_id as position',
        sql<number>`c.inbound_count - coalesce(r.inbound_read, 0)`.as('unread'),
      ]);
    if (page.before !== null) select = select.where('l.last_id', '<', page.before);
    return select
      .orderBy('l.last_id', 'desc')
      .limit(page.limit + 1)
      .execute() as Promise<ConversationRow[]>;
  }

  /** One conversation as the list shows it, or undefined when the organization has none with this number. */
  async get(orgId: string, reader: string, peer: string): Promise<Conversation | undefined> {
    const row = await this.conversations(orgId, reader).where('c.peer', '=', peer).executeTakeFirst();
    return row ? presentConversation(row as ConversationRow) : undefined;
  }

  /** A page of one conversation's messages: the `limit` latest before `page.before`, answered in ascending order (an index range). */
  async thread(orgId: string, peer: string, filter: MessageFilter, page: PageRequest): Promise<ThreadPage> {
    let select = this.db.selectFrom('messages').select(MESSAGE_COLUMNS).where('org_id', '=', orgId).where('peer', '=', peer);
    if (page.before !== null) select = select.where('id', '<', page.before);
    if (filter.direction !== null) select = select.where('direction', '=', filter.direction);
    if (filter.sim !== null) {
      const sim = filter.sim;
      select = select.where((eb) =>
        eb.or([
          eb('sim', '=', sim),
          eb('sim', 'in', eb.selectFrom('sims').select('sims.sim').where('sims.org_id', '=', orgId).where('sims.phone_number', '=', sim)),
        ]),
      );
    }
    const rows = (await select
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute()) as MessageRow[];
    const more = rows.length > page.limit;
    if (more) rows.pop();
    rows.reverse();
    return { peer, messages: rows.map(presentMessage), next_before_id: more ? Number(rows[0].id) : null };
  }

  /**
   * Marks a conversation read up to message `upTo` (clamped to its latest) for a reader; a mark never moves
   * back. Answers the conversation as the reader now sees it; 404 for a number the organization has no
   * conversation with.
   */
  async markRead(orgId: string, reader: string, peer: string, upTo: number, now: Date): Promise<Conversation> {
    const conversation = await this.db
      .selectFrom('conversations')
      .select(['last_message_id', 'inbound_count', 'last_inbound_id'])
      .where('org_id', '=', orgId)
      .where('peer', '=', peer)
      .executeTakeFirst();
    if (!conversation) throw new AppError('not_found', 'Conversation not found');
    const readId = Math.min(upTo, Number(conversation.last_message_id));
    let inboundRead = Number(conversation.inbound_count);
    // Read up to an earlier message than the latest inbound one: count the inbound messages up to it (an index range of the thread).
    if (conversation.last_inbound_id !== null && Number(conversation.last_inbound_id) > readId) {
      const counted = await this.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .where('peer', '=', peer)
        .where('id', '<=', readId)
        .where('direction', '=', 'inbound')
        .executeTakeFirstOrThrow();
      inboundRead = Number(counted.n);
    }
    await this.db
      .insertInto('read_marks')
      .values({ org_id: orgId, reader, peer, read_id: readId, inbound_read: inboundRead, updated_at: now.toISOString() })
      .onConflict((oc) =>
        oc
          .columns(['org_id', 'reader', 'peer'])
          .doUpdateSet({ read_id: readId, inbound_read: inboundRead, updated_at: now.toISOString() })
          .where('read_marks.read_id', '<', readId),
      )
      .execute();
    return (await this.get(orgId, reader, peer))!;
  }

  /** The organization's latest change number (0 before its first message). */
  async latestChange(orgId: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('organizations').select('seq').where('org_id', '=', orgId).executeTakeFirst();
    return row ? Number(row.seq) : undefined;
  }

  /**
   * The organization's changes after change number `after`, one batch per commit in commit order, each with
   * its messages as they are now, about `limit` messages' worth; `more` when more may follow. A commit's
   * messages always come together.
   */
  async changesAfter(orgId: string, after: number, limit: number): Promise<{ changes: ChangeBatch[]; more: boolean }> {
    type Row = MessageRow & { change_seq: number | string };
    let rows = (await this.changeRows(orgId).where('change_seq', '>', after).limit(limit).execute()) as Row[];
    const more = rows.length === limit;
    if (more) {
      const last = Number(rows[rows.length - 1].change_seq);
      const whole = rows.filter((row) => Number(row.change_seq) !== last);
      // One commit larger than a batch: read it whole.
      rows = whole.length > 0 ? whole : ((await this.changeRows(orgId).where('change_seq', '=', last).execute()) as Row[]);
    }
    const changes: ChangeBatch[] = [];
    for (const row of rows) {
      const seq = Number(row.change_seq);
      if (changes.length === 0 || changes[changes.length - 1].seq !== seq) changes.push({ seq, messages: [] });
      changes[changes.length - 1].messages.push(presentMessage(row));
    }
    return { changes, more };
  }

  private changeRows(orgId: string) {
    return this.db
      .selectFrom('messages')
      .select([...MESSAGE_COLUMNS, 'change_seq'])
      .where('org_id', '=', orgId)
      .orderBy('change_seq')
      .orderBy('id');
  }
}
