import { useCallback, useRef, useState } from 'react';
import type { DragEndEvent, DragMoveEvent, DragOverEvent } from '@dnd-kit/core';
import type { CardDragData } from './announcements.ts';
import type { CardPosition } from './board-state.ts';
import { positionOfSlot, sameSlot, slotAt, type CardBox, type DropSlot } from './drop-slot.ts';

/**
 * The rendered cards of a lane as they are on screen (a virtualized lane renders those in view and a few more),
 * less the gap an open drop slot pushed them down by (`data-shift`): the slot is found among the cards where they
 * rest, so opening it does not move it.
 */
function cardBoxes(column: string): CardBox[] {
  const lane = [...document.querySelectorAll<HTMLElement>('section.lane[data-column]')].find((element) => element.dataset.column === column);
  if (!lane) return [];
  return [...lane.querySelectorAll<HTMLElement>('.ticket-card[data-key]')].map((element) => {
    const rect = element.getBoundingClientRect();
    const shift = Number(element.closest<HTMLElement>('[role="listitem"]')?.dataset.shift ?? 0);
    return { key: element.dataset.key!, top: rect.top - shift, bottom: rect.bottom - shift };
  });
}

/**
 * The drop slot of a dragged card (the line shown between two cards), followed as the card moves, and the drop:
 * `onDrop` gets the lane and the position to ask move_ticket for. A drop where the card already is does nothing.
 */
export function useLaneDrop(onDrop: (key: string, column: string, position: CardPosition | undefined) => void) {
  const [slot, setSlot] = useState<DropSlot | undefined>(undefined);
  const slotRef = useRef<DropSlot | undefined>(undefined);
  const show = useCallback((next: DropSlot | undefined) => {
    if (sameSlot(next, slotRef.current)) return;
    slotRef.current = next;
    setSlot(next);
  }, []);

  /** onDragMove / onDragOver: the slot under the dragged card's middle, in the lane it is over. */
  const track = useCallback(
    (event: DragMoveEvent | DragOverEvent) => {
      const over = event.over ? String(event.over.id) : undefined;
      const rect = event.active.rect.current.translated;
      if (!over || !rect) return show(undefined);
      const from = (event.active.data.current as CardDragData | undefined)?.column;
      show(slotAt(over, cardBoxes(over), rect.top + rect.height / 2, String(event.active.id), from));
    },
    [show],
  );

  /** onDragEnd: moves the card to the slot shown (another lane without a slot: its top). */
  const end = useCallback(
    (event: DragEndEvent) => {
      const shown = slotRef.current;
      show(undefined);
      const column = event.over ? String(event.over.id) : undefined;
      if (!column) return;
      const from = (event.active.data.current as CardDragData | undefined)?.column;
      const here = shown && shown.column === column ? shown : undefined;
      // In its own lane, no slot means it was dropped where it is.
      if (from !== undefined && from.toLowerCase() === column.toLowerCase() && !here) return;
      onDrop(String(event.active.id), column, here ? positionOfSlot(here) : undefined);
    },
    [onDrop, show],
  );

  const cancel = useCallback(() => show(undefined), [show]);
  return { slot, track, end, cancel };
}
