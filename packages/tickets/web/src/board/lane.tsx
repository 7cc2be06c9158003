import { memo, useCallback, useRef } from 'react';
import { useDroppable } from '@dnd-kit/core';
import { defaultRangeExtractor, useVirtualizer, type Range, type Virtualizer } from '@tanstack/react-virtual';
import type { BoardCard, BoardLane } from '../api/types.ts';
import type { CardPosition } from './board-state.ts';
import { stepPosition, type DropSlot } from './drop-slot.ts';
import { TicketCard } from './ticket-card.tsx';
import './lane-order.css';

/** The estimated height of a card with its gap, before it is measured. */
const CARD_ESTIMATE = 96;

/** The room a drop slot opens between two cards while a card is dragged over it, with the drop line in its middle. */
const SLOT_GAP = 28;

/** The index in `cards` where a drop slot opens (the cards from there on move down), or -1 without a slot in this lane. */
function slotIndexOf(cards: readonly BoardCard[], slot: DropSlot | undefined): number {
  if (!slot) return -1;
  if (slot.before) return cards.findIndex((card) => card.key === slot.before);
  if (slot.after) {
    const at = cards.findIndex((card) => card.key === slot.after);
    return at < 0 ? -1 : at + 1;
  }
  return -1;
}

/**
 * A card's height: what the lane's ResizeObserver reports (after layout), else what is known of it. The
 * virtualizer also measures a card when it mounts, with getBoundingClientRect: one forced layout per card as a
 * lane fills (60 ms of a cold board's first frame here), for a size the observer reports right after anyway.
 */
const cardHeight = (element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>): number => {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  if (entry) return Math.round(entry.contentRect.height);
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? CARD_ESTIMATE;
};

/**
 * One column as a lane: its name and count as the heading, its cards in a
 * virtualized list (only the visible ones and a few more are in the page), and
 * a drop target for cards, with a line where a dragged card would land
 * (`dropSlot`). Alt+ArrowUp/Down on a card moves it one place (`onPlace`).
 */
export const Lane = memo(function Lane({
  lane,
  cards,
  filtered,
  activeKey,
  selectedKey,
  refusedKey,
  onOpen,
  dropSlot,
  onPlace,
}: {
  lane: BoardLane;
  cards: BoardCard[];
  filtered: boolean;
  activeKey: string | undefined;
  selectedKey: string | undefined;
  refusedKey: string | undefined;
  onOpen: (key: string) => void;
  /** Where a card dragged over this lane would land, if over it. */
  dropSlot?: DropSlot;
  /** Moves a card of this lane to a position in it (the keyboard's one place up or down). */
  onPlace?: (key: string, column: string, position: CardPosition) => void;
}) {
  const { setNodeRef, isOver, active } = useDroppable({ id: lane.name });
  const scrollRef = useRef<HTMLDivElement>(null);
  const activeIndex = activeKey ? cards.findIndex((card) => card.key === activeKey) : -1;
  // The card being dragged stays rendered even when scrolled out of view, so the drag does not lose it.
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (activeIndex >= 0 && !indexes.includes(activeIndex)) indexes.push(activeIndex);
      return indexes.sort((a, b) => a - b);
    },
    [activeIndex],
  );
  const virtualizer = useVirtualizer({
    count: cards.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => CARD_ESTIMATE,
    measureElement: cardHeight,
    overscan: 6,
    getItemKey: (index) => cards[index]!.key,
    rangeExtractor,
  });
  const count = filtered ? `${cards.length.toLocaleString()} of ${lane.ticket_count.toLocaleString()}` : lane.ticket_count.toLocaleString();
  const notLoaded = lane.ticket_count - lane.cards.length;
  const items = virtualizer.getVirtualItems();
  const slotIndex = slotIndexOf(cards, dropSlot);
  const step = useCallback(
    (key: string, direction: 'up' | 'down') => {
      const position = stepPosition(
        cards.map((card) => card.key),
        key,
        direction,
      );
      if (position) onPlace?.(key, lane.name, position);
    },
    [cards, lane.name, onPlace],
  );

  return (
    <section
      className={`lane ${isOver && active ? 'drop-target' : ''} ${lane.is_done_column ? 'done' : ''}`}
      aria-label={lane.name}
      data-column={lane.name}
      ref={setNodeRef}
    >
      <h2 className="lane-heading">
        <span className="lane-name">{lane.name}</span>
        <span className="lane-count" title={`${count} tickets`}>
          {count}
        </span>
      </h2>
      {/* biome-ignore lint/a11y/useSemanticElements: a virtualized list: its items are absolutely placed wrappers inside a sized spacer, which ul/li would not allow (an li must be the list's child). */}
      <div className="lane-scroll" ref={scrollRef} role="list" aria-label={`${lane.name} tickets`} tabIndex={-1}>
        {cards.length === 0 ? (
          <div className={`lane-empty ${dropSlot ? 'drop-here' : ''}`}>
            {filtered ? 'No matching tickets' : lane.is_done_column ? 'Finished work lands here' : 'No tickets'}
          </div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize() + (slotIndex >= 0 ? SLOT_GAP : 0), position: 'relative' }}>
            {slotIndex >= 0 ? (
              <div
                className="drop-line"
                aria-hidden="true"
                style={{ transform: `translateY(${(virtualizer.measurementsCache[slotIndex]?.start ?? virtualizer.getTotalSize()) + SLOT_GAP / 2 - 6}px)` }}
              />
            ) : null}
            {items.map((item) => {
              const card = cards[item.index]!;
              const shift = slotIndex >= 0 && item.index >= slotIndex ? SLOT_GAP : 0;
              return (
                // biome-ignore lint/a11y/useSemanticElements: an item of the virtualized list above, inside its spacer (not a direct child, so no li).
                <div
                  key={item.key}
                  role="listitem"
                  data-shift={shift || undefined}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start + shift}px)` }}
                >
                  <TicketCard
                    card={card}
                    column={lane.name}
                    index={item.index}
                    measureRef={virtualizer.measureElement}
                    onOpen={onOpen}
                    selected={card.key === selectedKey}
                    refused={card.key === refusedKey}
                    onStep={onPlace ? step : undefined}
                  />
                </div>
              );
            })}
          </div>
        )}
        {notLoaded > 0 && !filtered ? <div className="lane-more faint">{notLoaded.toLocaleString()} more not shown</div> : null}
      </div>
    </section>
  );
});
