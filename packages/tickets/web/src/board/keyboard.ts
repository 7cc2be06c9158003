/**
 * The board's keyboard: the page shortcuts (`c`, `/`), moving a picked-up card with the arrow keys (left and
 * right from lane to lane, up and down from card to card), and Alt+ArrowUp/Down on a card (one place up or down).
 */
import type { KeyboardCoordinateGetter } from '@dnd-kit/core';

/** What a key press does on the board, if anything. */
export type BoardShortcut = 'new-ticket' | 'focus-filter';

/** The parts of a keyboard event the shortcuts look at. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The focused element: its tag name, whether it is editable, and whether it is inside a dialog. */
  target: { tagName?: string; isContentEditable?: boolean; inDialog?: boolean } | null;
}

/** Whether keys typed at `target` are text (a field, a select, an editable region): shortcuts stay quiet there. */
export function isTypingTarget(target: KeyPress['target']): boolean {
  if (!target) return false;
  const tag = (target.tagName ?? '').toUpperCase();
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || Boolean(target.isContentEditable);
}

/** `c` opens **New ticket**, `/` focuses the filter text; never while typing, with a modifier, or inside a dialog. */
export function shortcutOf(press: KeyPress): BoardShortcut | undefined {
  if (press.ctrlKey || press.metaKey || press.altKey) return undefined;
  if (isTypingTarget(press.target) || press.target?.inDialog) return undefined;
  if (press.key === 'c' || press.key === 'C') return 'new-ticket';
  if (press.key === '/') return 'focus-filter';
  return undefined;
}

/** Alt+ArrowUp / Alt+ArrowDown on a card (not while typing): one place up or down its lane. */
export function stepKeyOf(press: Pick<KeyPress, 'key' | 'altKey' | 'ctrlKey' | 'metaKey'> & { shiftKey?: boolean }): 'up' | 'down' | undefined {
  if (!press.altKey || press.ctrlKey || press.metaKey || press.shiftKey) return undefined;
  if (press.key === 'ArrowUp') return 'up';
  if (press.key === 'ArrowDown') return 'down';
  return undefined;
}

/** The gap between two cards of a lane (board.css), which a picked-up card crosses with the card's height. */
const CARD_GAP = 8;

/**
 * Arrow keys move a picked-up card to the lane on the left or right (not by
 * 25 pixels, dnd-kit's default), so a keyboard user crosses a lane in one press;
 * up and down move it by one card, so its drop line passes one card a press.
 */
export const laneCoordinates: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  if (event.code !== 'ArrowRight' && event.code !== 'ArrowLeft' && event.code !== 'ArrowUp' && event.code !== 'ArrowDown') return undefined;
  event.preventDefault();
  const { collisionRect, droppableRects, droppableContainers, over } = context;
  if (!collisionRect) return currentCoordinates;
  if (event.code === 'ArrowUp' || event.code === 'ArrowDown') {
    const step = collisionRect.height + CARD_GAP;
    return { x: currentCoordinates.x, y: currentCoordinates.y + (event.code === 'ArrowUp' ? -step : step) };
  }
  const lanes = droppableContainers
    .getEnabled()
    .map((container) => ({ id: container.id, rect: droppableRects.get(container.id) }))
    .filter((lane): lane is { id: typeof lane.id; rect: NonNullable<typeof lane.rect> } => Boolean(lane.rect))
    .sort((a, b) => a.rect.left - b.rect.left);
  if (lanes.length === 0) return currentCoordinates;
  const centre = collisionRect.left + collisionRect.width / 2;
  let index = over ? lanes.findIndex((lane) => lane.id === over.id) : -1;
  if (index < 0)
    index = Math.max(
      0,
      lanes.findIndex((lane) => centre >= lane.rect.left && centre < lane.rect.left + lane.rect.width),
    );
  const next = lanes[Math.max(0, Math.min(lanes.length - 1, index + (event.code === 'ArrowRight' ? 1 : -1)))];
  return { x: next.rect.left + (next.rect.width - collisionRect.width) / 2, y: collisionRect.top };
};
