/**
 * What a screen reader hears while a card is dragged. A drop onto another lane only asks the service to move
 * the ticket, which may refuse (an epic with sub-tickets): so the drop says the move was asked for, and the
 * outcome is announced when the service answers (`movedAnnouncement`, or the refusal's alert).
 */
import type { Announcements, ScreenReaderInstructions } from '@dnd-kit/core';
import type { CardPosition } from './board-state.ts';

/** What a card's drag carries: the lane it was picked up from. */
export interface CardDragData {
  column: string;
}

function sameLane(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The drop of `key`, picked up in `from`, over the lane `over` (undefined: over no lane). */
export function dropAnnouncement(key: string, from: string | undefined, over: string | undefined): string {
  if (over === undefined) return `${key} dropped where it was.`;
  if (from !== undefined && sameLane(from, over)) return `Placing ${key} in ${from}…`;
  return `Moving ${key} to ${over}…`;
}

/** The service put `key` at `position` in `column`: "Moved DEMO-2 above DEMO-5 in Backlog." */
export function placedAnnouncement(key: string, position: CardPosition, column: string): string {
  if (position === 'top') return `Moved ${key} to the top of ${column}.`;
  if (position === 'bottom') return `Moved ${key} to the bottom of ${column}.`;
  return 'before' in position ? `Moved ${key} above ${position.before} in ${column}.` : `Moved ${key} below ${position.after} in ${column}.`;
}

/** The service moved `key` to `column`. */
export function movedAnnouncement(key: string, column: string): string {
  return `${key} moved to ${column}.`;
}

/** The card's own instructions, read when it is focused. */
export const screenReaderInstructions: ScreenReaderInstructions = {
  draggable:
    'To move this ticket, press Space, then the left and right arrow keys to choose a column and the up and down arrow keys to choose its place there, and Space again to drop it (Escape cancels). Alt with the up or down arrow key moves it up or down its column at once. Enter opens it.',
};

/** dnd-kit's announcements for the board's cards. */
export const announcements: Announcements = {
  onDragStart: ({ active }) => `Picked up ${String(active.id)}.`,
  onDragOver: ({ active, over }) => (over ? `${String(active.id)} is over ${String(over.id)}.` : `${String(active.id)} is not over a column.`),
  onDragEnd: ({ active, over }) =>
    dropAnnouncement(String(active.id), (active.data.current as CardDragData | undefined)?.column, over ? String(over.id) : undefined),
  onDragCancel: ({ active }) => `Moving ${String(active.id)} was cancelled.`,
};
