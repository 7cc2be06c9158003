/**
 * Where a dragged card would land in a lane: between two cards, found from the cards' rectangles on screen and
 * the dragged card's middle. Pure, so the rules (the dragged card itself left out, the slot it already holds
 * shown as no slot) are unit-tested; use-lane-drop.ts reads the rectangles.
 */
import type { CardPosition } from './board-state.ts';

/** A drop place in a lane: above `before`, below `after`, or (neither) the top of an empty lane. */
export interface DropSlot {
  column: string;
  before?: string;
  after?: string;
}

/** A card of a lane as it is on screen: its key and its vertical extent. */
export interface CardBox {
  key: string;
  top: number;
  bottom: number;
}

/**
 * The slot at height `y` in the lane `column` whose rendered cards are `boxes` (top first): above the first card
 * whose middle is below `y`, else below the last. The dragged card (`activeKey`) is not a neighbour; a slot right
 * next to it in its own lane is where it already is, answered as undefined (nothing to show, nothing to do).
 */
export function slotAt(column: string, boxes: readonly CardBox[], y: number, activeKey: string, fromColumn: string | undefined): DropSlot | undefined {
  const sorted = [...boxes].sort((a, b) => a.top - b.top);
  const others = sorted.filter((box) => box.key !== activeKey);
  if (others.length === 0) return sorted.length === 0 ? { column } : undefined;
  const next = others.find((box) => y < (box.top + box.bottom) / 2);
  const slot: DropSlot = next ? { column, before: next.key } : { column, after: others[others.length - 1]!.key };
  if (fromColumn !== undefined && fromColumn.toLowerCase() === column.toLowerCase()) {
    const at = sorted.findIndex((box) => box.key === activeKey);
    const below = sorted[at + 1]?.key;
    const above = sorted[at - 1]?.key;
    if (at >= 0 && ((slot.before !== undefined && slot.before === below) || (slot.after !== undefined && slot.after === above))) return undefined;
  }
  return slot;
}

/** The move_ticket position of a slot; none for an empty lane (the service's default, its top). */
export function positionOfSlot(slot: DropSlot): CardPosition | undefined {
  if (slot.before) return { before: slot.before };
  if (slot.after) return { after: slot.after };
  return undefined;
}

/** Whether two slots are the same place (undefined: no slot). */
export function sameSlot(a: DropSlot | undefined, b: DropSlot | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.column === b.column && a.before === b.before && a.after === b.after);
}

/** The card one place up or down a lane's shown cards from `key`, as a position (undefined at the lane's end). */
export function stepPosition(keys: readonly string[], key: string, direction: 'up' | 'down'): CardPosition | undefined {
  const at = keys.indexOf(key);
  if (at < 0) return undefined;
  if (direction === 'up') return at > 0 ? { before: keys[at - 1]! } : undefined;
  return at < keys.length - 1 ? { after: keys[at + 1]! } : undefined;
}
