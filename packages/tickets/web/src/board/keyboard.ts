/** The board's keyboard: the page shortcuts (`c`, `/`) and moving a picked-up card from lane to lane with the arrow keys. */
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

/**
 * Arrow keys move a picked-up card to the lane on the left or right (not by
 * 25 pixels, dnd-kit's default), so a keyboard user crosses a lane in one press.
 */
export const laneCoordinates: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  if (event.code !== 'ArrowRight' && event.code !== 'ArrowLeft' && event.code !== 'ArrowUp' && event.code !== 'ArrowDown') return undefined;
  event.preventDefault();
  const { collisionRect, droppableRects, droppableContainers, over } = context;
  if (!collisionRect || event.code === 'ArrowUp' || event.code === 'ArrowDown') return currentCoordinates;
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
