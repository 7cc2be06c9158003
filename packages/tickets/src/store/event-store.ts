import { sql } from 'kysely';
import type { DialectName } from '@switchboard/core';
import type { Db } from './project-store.ts';

/** What an event is about: a ticket (by key), a document (by slug), or the project itself (settings). */
export type EventKind = 'ticket' | 'document' | 'project';

/** An event to record with a change. */
export interface NewEvent {
  kind: EventKind;
  action: string;
  /** The ticket's key (kind ticket). */
  key?: string;
  /** The document's slug (kind document). */
  slug?: string;
  actor: string;
  at: string;
}

/** A recorded event, as the stream reads it. */
export interface EventRow {
  seq: number;
  kind: string;
  action: string;
  ticket_key: string | null;
  doc_slug: string | null;
  actor: string;
  created_at: string;
}

/**
 * Records a change's events inside its transaction and returns the last one's number. The project's counter
 * row is incremented first; its lock, held to commit, makes concurrent writers of one project number and
 * commit their events in the same order. On PostgreSQL it is one statement (counter, rows and, with
 * `notifyChannel`, the pg_notify PostgreSQL sends at commit); SQLite runs two, in-process.
 */
export async function insertEvents(trx: Db, dialect: DialectName, projectId: string, events: readonly NewEvent[], notifyChannel?: string): Promise<number> {
  const n = events.length;
  if (dialect === 'postgres') {
    const values = events.map((e, i) => sql`(${i + 1}::int, ${e.kind}::text, ${e.action}::text, ${e.key ?? null}::text, ${e.slug ?? null}::text, ${e.actor}::text, ${e.at}::text)`);
    const notify = notifyChannel ? sql`, pg_notify(${notifyChannel}, ${projectId}::text || ':' || c.seq::text)` : sql``;
    const result = await sql<{ seq: number }>`
      WITH c AS (
        INSERT INTO event_counters AS ec (project_id, seq) VALUES (${projectId}, ${n}::int)
        ON CONFLICT (project_id) DO UPDATE SET seq = ec.seq + EXCLUDED.seq
        RETURNING seq),
      e AS (
        INSERT INTO events (project_id, seq, kind, action, ticket_key, doc_slug, actor, created_at)
        SELECT ${projectId}, c.seq - ${n}::int + v.i, v.kind, v.action, v.key, v.slug, v.actor, v.at
        FROM c CROSS JOIN (VALUES ${sql.join(values)}) AS v(i, kind, action, key, slug, actor, at))
      SELECT c.seq${notify} FROM c`.execute(trx);
    return Number(result.rows[0].seq);
  }
  const counter = await trx
    .insertInto('event_counters')
    .values({ project_id: projectId, seq: n })
    .onConflict((oc) => oc.column('project_id').doUpdateSet((eb) => ({ seq: eb('event_counters.seq', '+', eb.ref('excluded.seq')) })))
    .returning('seq')
    .executeTakeFirstOrThrow();
  const last = Number(counter.seq);
  await trx
    .insertInto('events')
    .values(
      events.map((e, i) => ({
        project_id: projectId,
        seq: last - n + i + 1,
        kind: e.kind,
        action: e.action,
        ticket_key: e.key ?? null,
        doc_slug: e.slug ?? null,
        actor: e.actor,
        created_at: e.at,
      })),
    )
    .execute();
  return last;
}

/** A project's events after `after`, oldest first, at most `limit`. */
export async function eventsAfter(db: Db, projectId: string, after: number, limit: number): Promise<EventRow[]> {
  return db
    .selectFrom('events')
    .select(['seq', 'kind', 'action', 'ticket_key', 'doc_slug', 'actor', 'created_at'])
    .where('project_id', '=', projectId)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** The number of a project's latest event (0 before its first), and of its oldest kept one (undefined when none is kept). */
export async function eventBounds(db: Db, projectId: string): Promise<{ latest: number; oldest: number | undefined }> {
  const [counter, oldest] = await Promise.all([
    db.selectFrom('event_counters').select('seq').where('project_id', '=', projectId).executeTakeFirst(),
    db
      .selectFrom('events')
      .select((eb) => eb.fn.min<number>('seq').as('seq'))
      .where('project_id', '=', projectId)
      .executeTakeFirst(),
  ]);
  return { latest: Number(counter?.seq ?? 0), oldest: oldest?.seq === null || oldest?.seq === undefined ? undefined : Number(oldest.seq) };
}

/** Deletes events older than `before` and, per project, all but the latest `keep`; returns how many went. */
export async function pruneEvents(db: Db, before: string, keep: number): Promise<number> {
  const old = await db.deleteFrom('events').where('created_at', '<', before).executeTakeFirst();
  const surplus = await db
    .deleteFrom('events')
    .where('seq', '<=', (eb) =>
      eb
        .selectFrom('event_counters as c')
        .select(sql<number>`c.seq - ${keep}`.as('limit'))
        .whereRef('c.project_id', '=', 'events.project_id'),
    )
    .executeTakeFirst();
  return Number(old.numDeletedRows) + Number(surplus.numDeletedRows);
}
