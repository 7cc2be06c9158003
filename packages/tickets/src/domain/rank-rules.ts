import { AppError } from '@switchboard/core';

/**
 * Order within a lane: each ticket has an integer `rank`, lower first (ties, only from writes that raced, go by
 * the lower number). Ranks are spaced RANK_STEP apart, so a ticket put between two others takes the midpoint of
 * theirs and nothing else is renumbered; the top and the bottom of a lane always have room (one step past the
 * end). Only when two neighbours have no integer left between them (about sixteen inserts at one spot) is the
 * lane renumbered RANK_STEP apart once (store/rank-store.ts), which makes room again.
 */
export const RANK_STEP = 65_536;

/** The furthest a rank goes from 0 before the lane is renumbered: well inside a double's exact integers (2^53). */
export const RANK_LIMIT = 2 ** 50;

/** Where move_ticket puts a ticket in its lane: the top, the bottom, or next to a ticket of that lane. */
export type LanePosition = 'top' | 'bottom' | { before: string | number } | { after: string | number };

/** A ticket's place in a lane's order: its rank, then its number for tickets of equal rank. */
export interface RankKey {
  rank: number;
  number: number;
}

/** Whether `a` comes before `b` in a lane. */
export function ranksBefore(a: RankKey, b: RankKey): boolean {
  return a.rank < b.rank || (a.rank === b.rank && a.number < b.number);
}

/**
 * The rank of a ticket put between the ticket above it and the one below it (undefined: the top or the bottom
 * of the lane), or undefined when no integer is left between them (the caller renumbers the lane and asks again).
 */
export function rankBetween(above: number | undefined, below: number | undefined): number | undefined {
  if (above === undefined && below === undefined) return 0;
  if (above === undefined) return below! - RANK_STEP >= -RANK_LIMIT ? below! - RANK_STEP : undefined;
  if (below === undefined) return above + RANK_STEP <= RANK_LIMIT ? above + RANK_STEP : undefined;
  if (below - above < 2) return undefined;
  return above + Math.floor((below - above) / 2);
}

/** The anchor ticket named by a `before` / `after` position, or undefined for `top` and `bottom`. */
export function positionAnchor(position: LanePosition): { side: 'before' | 'after'; ref: string | number } | undefined {
  if (position === 'top' || position === 'bottom') return undefined;
  return 'before' in position ? { side: 'before', ref: position.before } : { side: 'after', ref: position.after };
}

/** How a position is said in the activity and in announcements: "to the top of Backlog", "above DEMO-5 in Backlog". */
export function describePlace(position: LanePosition, anchorKey: string | undefined, column: string): string {
  if (position === 'top') return `to the top of ${column}`;
  if (position === 'bottom') return `to the bottom of ${column}`;
  return `${'before' in position ? 'above' : 'below'} ${anchorKey} in ${column}`;
}

/** Why a position cannot be used, as the refusal says it (422, naming `position`; nothing is changed). */
export type PositionProblem =
  | { kind: 'unknown'; ref: string }
  | { kind: 'other_project'; ref: string; project: string }
  | { kind: 'other_lane'; key: string; column: string; target: string }
  | { kind: 'itself'; key: string };

/** The refusal of a position that names a ticket it cannot be placed next to. */
export function positionRefusal(problem: PositionProblem): AppError {
  const hint = 'Name a ticket of the target column (list_tickets with column_name and order "board"), or use "top" or "bottom".';
  let message: string;
  switch (problem.kind) {
    case 'unknown':
      message = `position names ${problem.ref}, which is not a ticket of this project. ${hint}`;
      break;
    case 'other_project':
      message = `position names ${problem.ref}, a ticket of another project (this one is ${problem.project}). ${hint}`;
      break;
    case 'other_lane':
      message = `position names ${problem.key}, which is in ${problem.column}, not in ${problem.target} (the column the ticket goes to). ${hint}`;
      break;
    case 'itself':
      message = `position names ${problem.key}, the ticket being moved. Name another ticket of the column, or use "top" or "bottom".`;
      break;
  }
  return new AppError('validation_failed', message, { field: 'position' });
}
