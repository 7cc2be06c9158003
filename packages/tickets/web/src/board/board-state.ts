/**
 * The board's state changes as pure functions: the optimistic move (to another
 * lane or within one) and its rollback, and placing a card read after a live
 * change where its rank puts it. Each answers a new
 * view and leaves the old one untouched (React compares by reference).
 */
import type { BoardCard, BoardLane, BoardView, PlacedCard } from '../api/types.ts';

/** Where a card was: its lane and its index there. */
export interface CardPlace {
  column: string;
  index: number;
}

/** The lane and index of the card `key`, or undefined. */
export function findCard(view: BoardView, key: string): (CardPlace & { card: BoardCard }) | undefined {
  for (const lane of view.columns) {
    const index = lane.cards.findIndex((card) => card.key === key);
    if (index >= 0) return { column: lane.name, index, card: lane.cards[index] };
  }
  return undefined;
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function withoutCard(lane: BoardLane, index: number): BoardLane {
  return { ...lane, cards: [...lane.cards.slice(0, index), ...lane.cards.slice(index + 1)], ticket_count: Math.max(0, lane.ticket_count - 1) };
}

function withCard(lane: BoardLane, card: BoardCard, index: number): BoardLane {
  const at = Math.max(0, Math.min(index, lane.cards.length));
  return { ...lane, cards: [...lane.cards.slice(0, at), card, ...lane.cards.slice(at)], ticket_count: lane.ticket_count + 1 };
}

/** Where a card goes in a lane: its top (the default), or right above or below a card of that lane. */
export type CardPosition = 'top' | 'bottom' | { before: string } | { after: string };

/** The index in `lane` (without the card `key` itself) that `position` names; undefined for a card not in that lane. */
function indexFor(lane: BoardLane, key: string, position: CardPosition): number | undefined {
  const others = lane.cards.filter((card) => card.key !== key);
  if (position === 'top') return 0;
  if (position === 'bottom') return others.length;
  const anchor = 'before' in position ? position.before : position.after;
  const at = others.findIndex((card) => card.key === anchor);
  if (at < 0) return undefined;
  return 'before' in position ? at : at + 1;
}

/**
 * Moves the card `key` to `position` in the lane `toColumn` (by default its top, where the service puts a
 * moved ticket), before the service has answered; within its own lane it reorders. Answers the new view and
 * where the card was, so a refusal can put it back; the same view (and no `from`) when the card, the lane or
 * the anchor is unknown or the card is already there.
 */
export function moveCard(view: BoardView, key: string, toColumn: string, position: CardPosition = 'top'): { view: BoardView; from: CardPlace | undefined } {
  const found = findCard(view, key);
  const target = view.columns.find((lane) => sameName(lane.name, toColumn));
  if (!found || !target) return { view, from: undefined };
  const index = indexFor(target, key, position);
  const sameLane = sameName(found.column, target.name);
  if (index === undefined || (sameLane && index === found.index)) return { view, from: undefined };
  const card = { ...found.card };
  const columns = view.columns.map((lane) => {
    if (sameLane && lane.name === target.name) return withCard(withoutCard(lane, found.index), card, index);
    if (lane.name === found.column) return withoutCard(lane, found.index);
    if (lane.name === target.name) return withCard(lane, card, index);
    return lane;
  });
  return { view: { ...view, columns }, from: { column: found.column, index: found.index } };
}

/** Puts a card back where it was (`from` of moveCard) after the service refused the move. */
export function rollbackMove(view: BoardView, key: string, from: CardPlace): BoardView {
  const found = findCard(view, key);
  if (!found) return view;
  if (sameName(found.column, from.column) && found.index === from.index) return view;
  const card = found.card;
  const base = removeCard(view, key);
  return { ...base, columns: base.columns.map((lane) => (sameName(lane.name, from.column) ? withCard(lane, card, from.index) : lane)) };
}

/** The number of a ticket key (`DEMO-12` → 12), which orders cards of equal rank. */
function numberOf(key: string): number {
  return Number(key.slice(key.lastIndexOf('-') + 1));
}

/** Where `card` goes among a lane's cards (in rank order): before the first that ranks after it. */
export function rankIndex(cards: readonly BoardCard[], card: BoardCard): number {
  const at = cards.findIndex((other) => other.rank > card.rank || (other.rank === card.rank && numberOf(other.key) > numberOf(card.key)));
  return at < 0 ? cards.length : at;
}

/** Removes the card `key` (a deleted ticket); the same view when it is not on the board. */
export function removeCard(view: BoardView, key: string): BoardView {
  const found = findCard(view, key);
  if (!found) return view;
  return { ...view, columns: view.columns.map((lane) => (lane.name === found.column ? withoutCard(lane, found.index) : lane)) };
}

/**
 * Places a card read again after a change (live event, or the answer of a write; `GET …/board?keys=`):
 * in its lane, or off the board when it is not on this board any more (`placed` undefined: the ticket was
 * deleted or moved to another board). A card whose rank is unchanged keeps its place in its lane (an edit does
 * not reorder it); one that arrives in a lane, or was reordered, goes where its rank puts it.
 */
export function placeCard(view: BoardView, key: string, placed: PlacedCard | undefined): BoardView {
  const found = findCard(view, key);
  const target = placed ? view.columns.find((lane) => sameName(lane.name, placed.column)) : undefined;
  if (!placed || !target) return found ? removeCard(view, key) : view;
  const { column: _lane, ...card } = placed;
  if (found && sameName(found.column, target.name) && found.card.rank === card.rank) {
    if (sameCard(found.card, card)) return view;
    return {
      ...view,
      columns: view.columns.map((lane) => (lane.name === target.name ? { ...lane, cards: lane.cards.map((c, i) => (i === found.index ? card : c)) } : lane)),
    };
  }
  const base = found ? removeCard(view, key) : view;
  return { ...base, columns: base.columns.map((lane) => (lane.name === target.name ? withCard(lane, card, rankIndex(lane.cards, card)) : lane)) };
}

function sameCard(a: BoardCard, b: BoardCard): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Every card's count: the tickets the board holds (loaded or not). */
export function ticketTotal(view: BoardView): number {
  return view.columns.reduce((sum, lane) => sum + lane.ticket_count, 0);
}
