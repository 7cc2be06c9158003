import { CompiledQuery, sql } from 'kysely';
import type { DialectName } from '@switchboard/core';
import type { Db } from './project-store.ts';
import type { EventsTable } from './tables.ts';

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

/** A recorded event, as the stream reads it (its project is the stream's). */
export type EventRow = Omit<EventsTable, 'project_id'>;

// SQLite's statements of insertEvents as text, per number of rows: written once, bound on every change
// (building and compiling them with Kysely cost a write about 0.1 ms).
const eventStatements = new Map<string, string>();
const EVENT_FIELDS = 8;

function eventStatement(key: string, make: () => string): string {
  let text = eventStatements.get(key);
  if (text === undefined) {
    text = make();
    eventStatements.set(key, text);
  }
  return text;
}

/**
 * Records a change's events inside its transaction and returns the last one's number. The project's counter
 * row is incremented first; its lock, held to commit, makes concurrent writers of one project number and
 * commit their events in the same order. On PostgreSQL it is one call of record_events (migration 0006:
 * counter, rows and, with `notifyChannel`, the pg_notify PostgreSQL sends at commit); SQLite runs two
 * statements, in-process.
 */
export async function insertEvents(trx: Db, dialect: DialectName, projectId: string, events: readonly NewEvent[], notifyChannel?: string): Promise<number> {
  const n = events.length;
  if (dialect === 'postgres') {
    const json = JSON.stringify(events.map((e) => ({ kind: e.kind, action: e.action, key: e.key ?? null, slug: e.slug ?? null, actor: e.actor, at: e.at })));
    const result = await trx.executeQuery<{ seq: number }>(
      CompiledQuery.raw('SELECT record_events($1, $2::jsonb, $3) AS seq', [projectId, json, notifyChannel ?? null]),
    );
    return Number(result.rows[0].seq);
  }
  const values = events.flatMap((e) => [e.kind, e.action, e.key ?? null, e.slug ?? null, e.actor, e.at]);
  const counter = await trx.executeQuery<{ seq: number }>(
    CompiledQuery.raw(
      eventStatement(
        'sqlite:counter',
        () =>
          'INSERT INTO event_counters (project_id, seq) VALUES (?, ?) ON CONFLICT (project_id) DO UPDATE SET seq = event_counters.seq + excluded.seq RETURNING seq',
      ),
      [projectId, n],
    ),
  );
  const last = Number(counter.rows[0].seq);
  const text = eventStatement(`sqlite:${n}`, () => {
    const row = `(${Array.from({ length: EVENT_FIELDS }, () => '?').join(', ')})`;
    return `INSERT INTO events (project_id, seq, kind, action, ticket_key, doc_slug, actor, created_at) VALUES ${Array.from({ length: n }, () => row).join(', ')}`;
  });
  const params: unknown[] = [];
  for (let i = 0; i < n; i++) params.push(projectId, last - n + i + 1, ...values.slice(i * 6, i * 6 + 6));
  await trx.executeQuery(CompiledQuery.raw(text, params));
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
      eb.selectFrom('event_counters as c').select(sql<number>`c.seq - ${keep}`.as('limit')).whereRef('c.project_id', '=', 'events.project_id'),
    )
    .executeTakeFirst();
  return Number(old.numDeletedRows) + Number(surplus.numDeletedRows);
}
