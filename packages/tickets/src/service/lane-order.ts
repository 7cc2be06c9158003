import { isAppError } from '@switchboard/core';
import type { BoardContext } from './board-context.ts';
import type { BoardColumn } from '../domain/board-rules.ts';
import { positionAnchor, positionRefusal, rankBetween, ranksBefore, type LanePosition, type RankKey } from '../domain/rank-rules.ts';
import { parseTicketRef, ticketKey } from '../domain/ticket-rules.ts';
import type { Db } from '../store/project-store.ts';
import { laneEnd, laneEntry, laneNeighbour, renumberLane, type LaneEntry } from '../store/rank-store.ts';
import { ticketByRef, type TicketRow } from '../store/ticket-store.ts';

/** Where a ticket goes in a lane: its new rank and the key of the ticket it was put next to; `unchanged` when it is there already. */
export interface LanePlace {
  rank: number;
  anchorKey?: string;
  unchanged: boolean;
}

/** The ticket a `before` / `after` position names, checked: a ticket of this project, in the target lane, not the moved one. */
async function anchorOf(ctx: BoardContext, trx: Db, columns: readonly BoardColumn[], ref: string | number, target: BoardColumn, movedId?: string) {
  const shown = String(ref).trim();
  let parsed: ReturnType<typeof parseTicketRef>;
  try {
    parsed = parseTicketRef(ref, 'position');
  } catch (error) {
    if (isAppError(error)) throw positionRefusal({ kind: 'unknown', ref: shown });
    throw error;
  }
  if (parsed.kind === 'number' && parsed.projectKey && parsed.projectKey !== ctx.project.key) {
    throw positionRefusal({ kind: 'other_project', ref: shown, project: ctx.project.key });
  }
  const row = await ticketByRef(trx, ctx.dialect, ctx.project.id, parsed);
  if (!row) throw positionRefusal({ kind: 'unknown', ref: shown });
  const key = ticketKey(ctx.project.key, row.number);
  if (row.id === movedId) throw positionRefusal({ kind: 'itself', key });
  if (row.column_id !== target.id) {
    const column = columns.find((candidate) => candidate.id === row.column_id)?.name ?? 'another column';
    throw positionRefusal({ kind: 'other_lane', key, column, target: target.name });
  }
  return { id: row.id, key };
}

/** The tickets right above and below a place of the lane, the placed ticket left out. */
async function neighbours(ctx: BoardContext, trx: Db, column: string, position: LanePosition, anchor: LaneEntry | undefined, without?: string) {
  const project = ctx.project.id;
  if (position === 'top') return { above: undefined, below: await laneEnd(trx, project, column, 'top', without) };
  if (position === 'bottom') return { above: await laneEnd(trx, project, column, 'bottom', without), below: undefined };
  if ('before' in position) return { above: await laneNeighbour(trx, project, column, anchor!, 'above', without), below: anchor };
  return { above: anchor, below: await laneNeighbour(trx, project, column, anchor!, 'below', without) };
}

/**
 * Where `ticket` (undefined: a ticket being created) goes in the lane `target` at `position`, checked before
 * anything is written (a bad position is a 422 naming `position`, and nothing changes). When its neighbours
 * have no rank left between them the lane is renumbered once, in this transaction.
 */
export async function placeInLane(
  ctx: BoardContext,
  trx: Db,
  columns: readonly BoardColumn[],
  target: BoardColumn,
  position: LanePosition,
  ticket?: Pick<TicketRow, 'id' | 'rank' | 'number' | 'column_id'>,
): Promise<LanePlace> {
  const named = positionAnchor(position);
  const anchor = named ? await anchorOf(ctx, trx, columns, named.ref, target, ticket?.id) : undefined;
  for (let attempt = 0; ; attempt++) {
    const anchorEntry = anchor ? await laneEntry(trx, anchor.id) : undefined;
    const { above, below } = await neighbours(ctx, trx, target.id, position, anchorEntry, ticket?.id);
    if (ticket && ticket.column_id === target.id) {
      const current: RankKey = attempt === 0 ? ticket : await laneEntry(trx, ticket.id);
      const afterAbove = !above || ranksBefore(above, current);
      const beforeBelow = !below || ranksBefore(current, below);
      if (afterAbove && beforeBelow) return { rank: current.rank, anchorKey: anchor?.key, unchanged: true };
    }
    const rank = rankBetween(above?.rank, below?.rank);
    if (rank !== undefined) return { rank, anchorKey: anchor?.key, unchanged: false };
    // Once renumbered, neighbours are RANK_STEP apart: a second pass always finds room.
    if (attempt > 0) throw new Error(`no rank left in lane ${target.name} after renumbering it`);
    await renumberLane(trx, ctx.project.id, target.id);
  }
}
