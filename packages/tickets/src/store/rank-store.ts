import { sql } from 'kysely';
import { RANK_STEP, type RankKey } from '../domain/rank-rules.ts';
import type { Db } from './project-store.ts';

/** A ticket's place in its lane, and which ticket it is. */
export interface LaneEntry extends RankKey {
  id: string;
}

function lane(db: Db, projectId: string, columnId: string, without: string | undefined) {
  const query = db.selectFrom('tickets').select(['id', 'rank', 'number']).where('project_id', '=', projectId).where('column_id', '=', columnId);
  return without === undefined ? query : query.where('id', '!=', without);
}

/** The first (`top`) or last (`bottom`) ticket of a lane, leaving out `without` (the ticket being placed): one seek of tickets_lane_rank. */
export async function laneEnd(db: Db, projectId: string, columnId: string, end: 'top' | 'bottom', without?: string): Promise<LaneEntry | undefined> {
  const direction = end === 'top' ? 'asc' : 'desc';
  return lane(db, projectId, columnId, without).orderBy('rank', direction).orderBy('number', direction).limit(1).executeTakeFirst();
}

/** The ticket right above (`above`) or below (`below`) a place of a lane, leaving out `without`. */
export async function laneNeighbour(
  db: Db,
  projectId: string,
  columnId: string,
  of: RankKey,
  side: 'above' | 'below',
  without?: string,
): Promise<LaneEntry | undefined> {
  const [cmp, direction] = side === 'above' ? (['<', 'desc'] as const) : (['>', 'asc'] as const);
  return lane(db, projectId, columnId, without)
    .where((eb) => eb.or([eb('rank', cmp, of.rank), eb.and([eb('rank', '=', of.rank), eb('number', cmp, of.number)])]))
    .orderBy('rank', direction)
    .orderBy('number', direction)
    .limit(1)
    .executeTakeFirst();
}

/** A ticket's place in its lane (after a renumbering changed it). */
export async function laneEntry(db: Db, id: string): Promise<LaneEntry> {
  return db.selectFrom('tickets').select(['id', 'rank', 'number']).where('id', '=', id).executeTakeFirstOrThrow();
}

/**
 * Renumbers a lane RANK_STEP apart in its current order: the rare write that makes room again where two
 * neighbours had no rank left between them (domain/rank-rules.ts). One statement, whatever the lane's size.
 */
export async function renumberLane(trx: Db, projectId: string, columnId: string): Promise<void> {
  await sql`UPDATE tickets SET rank = ordered.n * ${sql.lit(RANK_STEP)}
    FROM (SELECT id, row_number() OVER (ORDER BY rank, number) AS n FROM tickets WHERE project_id = ${projectId} AND column_id = ${columnId}) AS ordered
    WHERE tickets.id = ordered.id`.execute(trx);
}
