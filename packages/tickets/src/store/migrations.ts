import { sql, type Kysely } from 'kysely';
import { RANK_STEP } from '../domain/rank-rules.ts';
import { coreMigrations, serialPrimaryKey, withCredentialColumns, type DialectName, type VersionedMigration } from '@switchboard/core';

/** A text primary key on PostgreSQL; on SQLite the integer `seq` is the rowid and `id` a unique key. */
// biome-ignore lint/suspicious/noExplicitAny: used by migrations, which run on the schema as the migrations before them left it (no table type describes it).
function createSeqTable(db: Kysely<any>, dialect: DialectName, table: string) {
  let builder = db.schema.createTable(table);
  builder =
    dialect === 'sqlite'
      ? builder.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement()).addColumn('id', 'text', (c) => c.notNull().unique())
      : builder.addColumn('seq', 'bigserial', (c) => c.notNull().unique()).addColumn('id', 'text', (c) => c.primaryKey());
  return builder;
}

const schema: VersionedMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('projects')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('auto_summary', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('ticket_counter', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('boards')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('boards_project').on('boards').columns(['project_id', 'position']).execute();
    await db.schema
      .createTable('board_columns')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('board_id', 'text', (c) => c.notNull().references('boards.id').onDelete('cascade'))
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('is_done', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('board_columns_project').on('board_columns').columns(['project_id']).execute();

    await createSeqTable(db, dialect, 'tickets')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('priority', 'text', (c) => c.notNull())
      .addColumn('ticket_type', 'text', (c) => c.notNull())
      .addColumn('column_id', 'text', (c) => c.notNull().references('board_columns.id'))
      .addColumn('parent_id', 'text', (c) => c.references('tickets.id').onDelete('set null'))
      .addColumn('assignee', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .addColumn('ai_summary', 'text')
      .addColumn('ai_summary_source', 'text')
      .addColumn('summary_version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('summarized_version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('summary_claimed_until', 'text')
      .execute();
    // Key lookups (KEY-N) and the per-project numbering: never two tickets with one number.
    await db.schema.createIndex('tickets_project_number').unique().on('tickets').columns(['project_id', 'number']).execute();
    await db.schema.createIndex('tickets_parent').on('tickets').columns(['parent_id']).execute();
    await db.schema.createIndex('tickets_project_updated').on('tickets').columns(['project_id', 'updated_at']).execute();
    await db.schema.createIndex('tickets_project_column').on('tickets').columns(['project_id', 'column_id']).execute();
    await db.schema.createIndex('tickets_summary_due').on('tickets').columns(['summarized_version', 'summary_version']).execute();

    await db.schema
      .createTable('labels')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('color', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('labels_project_name', ['project_id', 'name'])
      .execute();
    await db.schema
      .createTable('ticket_labels')
      .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
      .addColumn('label_id', 'text', (c) => c.notNull().references('labels.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('ticket_labels_pk', ['ticket_id', 'label_id'])
      .execute();
    await db.schema
      .createTable('comments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('author', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('comments_ticket').on('comments').columns(['ticket_id', 'created_at']).execute();
    await db.schema
      .createTable('activity')
      .addColumn('id', sql.raw(serialPrimaryKey(dialect)))
      .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('activity_ticket').on('activity').columns(['ticket_id', 'created_at']).execute();

    await createSeqTable(db, dialect, 'documents')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('doc_type', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('documents_project_slug', ['project_id', 'slug'])
      .execute();

    await withCredentialColumns(
      db.schema
        .createTable('api_tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade')),
    ).execute();
    await db.schema.createIndex('api_tokens_project').on('api_tokens').columns(['project_id']).execute();
  },
};

/** Full-text search: FTS5 external-content tables kept by triggers on SQLite, stored tsvector columns on PostgreSQL. */
const fullText: VersionedMigration = {
  async up(db, dialect) {
    if (dialect === 'postgres') {
      await sql`ALTER TABLE tickets ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', description), 'B')) STORED`.execute(db);
      await sql`CREATE INDEX tickets_search ON tickets USING gin (search_vector)`.execute(db);
      await sql`ALTER TABLE documents ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', content), 'B')) STORED`.execute(db);
      await sql`CREATE INDEX documents_search ON documents USING gin (search_vector)`.execute(db);
      return;
    }
    for (const [table, body] of [
      ['tickets', 'description'],
      ['documents', 'content'],
    ] as const) {
      const fts = `${table}_fts`;
      await sql.raw(`CREATE VIRTUAL TABLE ${fts} USING fts5(title, ${body}, content='${table}', content_rowid='seq', tokenize='porter unicode61')`).execute(db);
      await sql
        .raw(`CREATE TRIGGER ${table}_fts_insert AFTER INSERT ON ${table} BEGIN
          INSERT INTO ${fts}(rowid, title, ${body}) VALUES (new.seq, new.title, new.${body}); END`)
        .execute(db);
      await sql
        .raw(`CREATE TRIGGER ${table}_fts_delete AFTER DELETE ON ${table} BEGIN
          INSERT INTO ${fts}(${fts}, rowid, title, ${body}) VALUES ('delete', old.seq, old.title, old.${body}); END`)
        .execute(db);
      await sql
        .raw(`CREATE TRIGGER ${table}_fts_update AFTER UPDATE OF title, ${body} ON ${table} BEGIN
          INSERT INTO ${fts}(${fts}, rowid, title, ${body}) VALUES ('delete', old.seq, old.title, old.${body});
          INSERT INTO ${fts}(rowid, title, ${body}) VALUES (new.seq, new.title, new.${body}); END`)
        .execute(db);
    }
  },
};

/**
 * The summary worker's claim (every TICKETS_SUMMARY_INTERVAL_MS) looks for due
 * tickets, `summarized_version < summary_version`: a comparison of two columns,
 * which an index on both cannot seek, so it scanned every ticket (2 ms per
 * round on 10,000 tickets, blocking the event loop). A partial index holds
 * only the due tickets.
 */
const dueSummaryIndex: VersionedMigration = {
  async up(db) {
    await db.schema.dropIndex('tickets_summary_due').execute();
    await db.schema
      .createIndex('tickets_summary_due')
      .on('tickets')
      .columns(['project_id', 'updated_at'])
      .where(sql.ref('summarized_version'), '<', sql.ref('summary_version'))
      .execute();
  },
};

/**
 * get_project_status tallies a large project's tickets per column, type and priority (with each group's lowest
 * number) instead of reading its whole index. Without an index holding those columns SQLite sorted every
 * ticket of the project into a temporary B-tree (8 ms on 10,000 tickets); with it the tallies are one ordered
 * pass over the index (1.2 ms).
 */
const statusTallyIndex: VersionedMigration = {
  async up(db) {
    await db.schema.createIndex('tickets_status_tally').on('tickets').columns(['project_id', 'column_id', 'ticket_type', 'priority', 'number']).execute();
  },
};

/**
 * The change feed of the web UI's live updates: one row per change, numbered per project by `event_counters`
 * (whose row lock, held to commit, makes the numbers' order the commit order: a reader that saw event N has
 * seen every event before it).
 */
const changeEvents: VersionedMigration = {
  async up(db) {
    await db.schema
      .createTable('event_counters')
      .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('events')
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('ticket_key', 'text')
      .addColumn('doc_slug', 'text')
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('events_pk', ['project_id', 'seq'])
      .execute();
    await db.schema.createIndex('events_created').on('events').columns(['created_at']).execute();
  },
};

/**
 * On PostgreSQL, a change's events are recorded by one call of a function: its statements are planned once
 * per connection, where the same statements sent as text were planned on every change (0.09 of the 0.34 ms
 * the events added to a write). The counter's row lock and the pg_notify sent at commit work as before.
 */
const recordEventsFunction: VersionedMigration = {
  async up(db, dialect) {
    if (dialect !== 'postgres') return;
    await sql`CREATE OR REPLACE FUNCTION record_events(p_project text, p_events jsonb, p_channel text) RETURNS integer
      LANGUAGE plpgsql AS $$
      DECLARE
        n integer := jsonb_array_length(p_events);
        last_seq integer;
      BEGIN
        INSERT INTO event_counters AS ec (project_id, seq) VALUES (p_project, n)
        ON CONFLICT (project_id) DO UPDATE SET seq = ec.seq + EXCLUDED.seq
        RETURNING ec.seq INTO last_seq;
        INSERT INTO events (project_id, seq, kind, action, ticket_key, doc_slug, actor, created_at)
        SELECT p_project, last_seq - n + e.i::integer, e.item->>'kind', e.item->>'action', e.item->>'key', e.item->>'slug', e.item->>'actor', e.item->>'at'
        FROM jsonb_array_elements(p_events) WITH ORDINALITY AS e(item, i);
        IF p_channel IS NOT NULL THEN
          PERFORM pg_notify(p_channel, p_project || ':' || last_seq);
        END IF;
        RETURN last_seq;
      END $$`.execute(db);
  },
};

/** A token's access level (design/mcp.md, "Read-only access"): every token made before it may write. */
const tokenAccess: VersionedMigration = {
  async up(db) {
    await db.schema
      .alterTable('api_tokens')
      .addColumn('access', 'text', (c) => c.notNull().defaultTo('write'))
      .execute();
  },
};

/**
 * Order within a lane (design/web.md, "The ticket board for people"): each ticket's `rank`, lower first. Existing
 * tickets are ranked in the order their board showed them until now (most recently updated first, then the
 * higher number), RANK_STEP apart, so a board looks the same after the upgrade. A lane's cards read in rank order
 * from one index (project, column, rank, number), which also serves the lookups by column the old one did.
 */
const ticketRank: VersionedMigration = {
  async up(db, dialect) {
    await db.schema
      .alterTable('tickets')
      .addColumn('rank', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`UPDATE tickets SET rank = ordered.n * ${sql.lit(RANK_STEP)}
      FROM (SELECT id, row_number() OVER (PARTITION BY column_id ORDER BY updated_at DESC, number DESC) AS n FROM tickets) AS ordered
      WHERE tickets.id = ordered.id`.execute(db);
    await db.schema.createIndex('tickets_lane_rank').on('tickets').columns(['project_id', 'column_id', 'rank', 'number']).execute();
    await db.schema.dropIndex('tickets_project_column').execute();
  },
};

/** The ticket board's migrations, in order (core's shared tables first). */
export const ticketMigrations: Record<string, VersionedMigration> = {
  ...coreMigrations,
  '0001_board': schema,
  '0002_full_text': fullText,
  '0003_due_summary_index': dueSummaryIndex,
  '0004_status_tally_index': statusTallyIndex,
  '0005_change_events': changeEvents,
  '0006_record_events_function': recordEventsFunction,
  '0007_token_access': tokenAccess,
  '0008_ticket_rank': ticketRank,
};
