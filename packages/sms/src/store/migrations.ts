import { sql, type Kysely } from 'kysely';
import { coreMigrations, serialPrimaryKey, withCredentialColumns, type VersionedMigration } from '@switchboard/core';
import { bodyColumns } from './message-body.ts';

/** Schema of the SMS service, after core's shared tables. */
export const smsMigrations: Record<string, VersionedMigration> = {
  ...coreMigrations,
  '0100_sms_initial': {
    // biome-ignore lint/suspicious/noExplicitAny: a migration runs on the schema as the migrations before it left it, which no table type describes.
    async up(db: Kysely<any>, dialect) {
      await db.schema
        .createTable('organizations')
        .addColumn('org_id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('active_driver', 'text', (c) => c.notNull().defaultTo('none'))
        .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await withCredentialColumns(
        db.schema
          .createTable('api_keys')
          .addColumn('id', sql.raw(serialPrimaryKey(dialect)))
          .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.org_id')),
        'hash',
      ).execute();
      await db.schema.createIndex('api_keys_org').on('api_keys').columns(['org_id', 'id']).execute();
      await db.schema
        .createTable('gateways')
        .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.org_id'))
        .addColumn('driver', 'text', (c) => c.notNull())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('gateways_pk', ['org_id', 'driver'])
        .execute();
      await db.schema
        .createTable('sims')
        .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.org_id'))
        .addColumn('sim', 'text', (c) => c.notNull())
        .addColumn('label', 'text')
        .addColumn('phone_number', 'text')
        .addColumn('device_id', 'text')
        .addColumn('slot', 'integer')
        .addColumn('message_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('inbound_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('outbound_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('first_seen_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sims_pk', ['org_id', 'sim'])
        .execute();
      await db.schema.createIndex('sims_phone').on('sims').columns(['org_id', 'phone_number']).execute();
      await db.schema
        .createTable('messages')
        .addColumn('id', sql.raw(serialPrimaryKey(dialect)))
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('direction', 'text', (c) => c.notNull())
        .addColumn('sim', 'text')
        .addColumn('from_number', 'text', (c) => c.notNull())
        .addColumn('to_number', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('segments', 'integer', (c) => c.notNull())
        .addColumn('gateway', 'text')
        .addColumn('external_id', 'text')
        .addColumn('error', 'text')
        .addColumn('received_at', 'text')
        .addColumn('sent_at', 'text')
        .addColumn('delivered_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // The listing reads (org_id, id > since_id) in id order: this index serves it without a sort.
      await db.schema.createIndex('messages_org_id').on('messages').columns(['org_id', 'id']).execute();
      await db.schema.createIndex('messages_org_external').on('messages').columns(['org_id', 'external_id']).execute();
      await db.schema
        .createTable('webhook_events')
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('gateway', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_events_pk', ['org_id', 'gateway', 'event_id'])
        .execute();
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('message_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['org_id', 'key'])
        .execute();
      await db.schema
        .createTable('outbox')
        .addColumn('message_id', 'bigint', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint')
        .execute();
      await db.schema.createIndex('outbox_due').on('outbox').columns(['next_attempt_at']).execute();
    },
  },
  '0101_sms_body_utf8': {
    // Bodies with U+0000 (which PostgreSQL text cannot hold) keep their exact bytes in body_utf8
    // (message-body.ts). PostgreSQL rows cannot hold one, so null is right for all of them; a
    // SQLite file written before U+0000 was refused may: those rows move to the new form.
    // biome-ignore lint/suspicious/noExplicitAny: a migration runs on the schema as the migrations before it left it, which no table type describes.
    async up(db: Kysely<any>, dialect) {
      await db.schema
        .alterTable('messages')
        .addColumn('body_utf8', sql.raw(dialect === 'postgres' ? 'bytea' : 'blob'))
        .execute();
      if (dialect !== 'sqlite') return;
      // instr on the blob: SQLite's text functions stop at the first U+0000.
      const rows = await sql<{ id: number; body: string }>`select id, body from messages where instr(cast(body as blob), x'00') > 0`.execute(db);
      for (const row of rows.rows) await db.updateTable('messages').set(bodyColumns(row.body)).where('id', '=', row.id).execute();
    },
  },
  '0102_sms_console': {
    // The console (README, "Console"): conversations by the other party's number with unread counts per user,
    // threads, and a live stream of what changed. Every message names its conversation (`peer`) and the
    // organization's commit that last changed it (`change_seq`); one row per conversation keeps its counts.
    // biome-ignore lint/suspicious/noExplicitAny: a migration runs on the schema as the migrations before it left it, which no table type describes.
    async up(db: Kysely<any>, dialect) {
      await db.schema
        .alterTable('messages')
        .addColumn('peer', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('messages')
        .addColumn('change_seq', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update messages set peer = case when direction = 'inbound' then from_number else to_number end`.execute(db);
      // A thread: one conversation's messages by id. The stream: an organization's changes in commit order.
      await db.schema.createIndex('messages_org_peer').on('messages').columns(['org_id', 'peer', 'id']).execute();
      await db.schema.createIndex('messages_org_change').on('messages').columns(['org_id', 'change_seq', 'id']).execute();
      await db.schema
        .createTable('conversations')
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('peer', 'text', (c) => c.notNull())
        .addColumn('last_message_id', 'bigint', (c) => c.notNull())
        .addColumn('message_count', 'bigint', (c) => c.notNull())
        .addColumn('inbound_count', 'bigint', (c) => c.notNull())
        .addColumn('last_inbound_id', 'bigint')
        .addPrimaryKeyConstraint('conversations_pk', ['org_id', 'peer'])
        // SQLite: the rows live in their primary key's B-tree, so a webhook's upsert writes one tree less.
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();
      // The inbox: an organization's conversations, the latest message first, a page at a time.
      await db.schema.createIndex('conversations_recent').on('conversations').columns(['org_id', 'last_message_id']).execute();
      await sql`insert into conversations (org_id, peer, last_message_id, message_count, inbound_count, last_inbound_id)
        select org_id, peer, max(id), count(*), sum(case when direction = 'inbound' then 1 else 0 end), max(case when direction = 'inbound' then id end)
        from messages group by org_id, peer`.execute(db);
      await db.schema
        .createTable('read_marks')
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('reader', 'text', (c) => c.notNull())
        .addColumn('peer', 'text', (c) => c.notNull())
        .addColumn('read_id', 'bigint', (c) => c.notNull())
        .addColumn('inbound_read', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('read_marks_pk', ['org_id', 'reader', 'peer'])
        .execute();
    },
  },
};
