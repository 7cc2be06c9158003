import { memo, type CSSProperties, type KeyboardEvent, type Ref } from 'react';
import { useDraggable } from '@dnd-kit/core';
import type { Assignee, BoardCard, Label } from '../api/types.ts';
import type { CardDragData } from './announcements.ts';
import { stepKeyOf } from './keyboard.ts';
import { safeColor } from './label-color.ts';

/** A small square of the label's colour and its name. */
export function LabelChip({ label }: { label: Label }) {
  return (
    <span className="label-chip" title={label.name}>
      <span className="label-dot" style={{ background: safeColor(label.color) }} aria-hidden="true" />
      {label.name}
    </span>
  );
}

/** The member's initials in a circle, the name as its title. */
export function Avatar({ person }: { person: Assignee }) {
  const initials = (person.name || person.email)
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
  return (
    <span className="avatar" title={`Assigned to ${person.name || person.email}`} aria-label={`Assigned to ${person.name || person.email}`} role="img">
      {initials}
    </span>
  );
}

const TYPE_ICON: Record<string, string> = { task: '✓', bug: '●', story: '▲', epic: '◆' };

/** The ticket type as a coloured badge. */
export function TypeBadge({ type }: { type: string }) {
  return (
    <span className={`type-badge type-${type}`}>
      <span aria-hidden="true">{TYPE_ICON[type] ?? '•'}</span> {type}
    </span>
  );
}

const PRIORITY_GLYPH: Record<string, string> = { highest: '▲▲', high: '▲', low: '▼', lowest: '▼▼' };

/** The priority as arrows and a word; a screen reader hears the words ("highest priority"), not the arrows. */
export function PriorityBadge({ priority }: { priority: string }) {
  const glyph = PRIORITY_GLYPH[priority];
  return (
    <span className={`priority-badge priority-${priority}`}>
      {glyph ? (
        <span className="priority-glyph" aria-hidden="true">
          {glyph}
        </span>
      ) : null}
      {priority}
      <span className="sr-only"> priority</span>
    </span>
  );
}

/** The card's face: key, type, priority, title, labels, assignee, and an epic's progress. */
export function CardFace({ card }: { card: BoardCard }) {
  const progress = card.progress;
  return (
    <>
      <div className="card-top">
        <span className="card-key">{card.key}</span>
        <TypeBadge type={card.ticket_type} />
        <PriorityBadge priority={card.priority} />
      </div>
      <div className="card-title">{card.title}</div>
      {progress ? (
        <div className="card-progress">
          {/* Seen, not read: the bar's value text says it in words (a card's name read '2/2 2' with both). */}
          <span className="progress-text" aria-hidden="true">
            {progress.done}/{progress.total}
          </span>
          <div
            className="progress"
            role="progressbar"
            aria-label={`${card.key} sub-tickets done`}
            aria-valuemin={0}
            aria-valuemax={progress.total}
            aria-valuenow={progress.done}
            aria-valuetext={`${progress.done} of ${progress.total} sub-tickets done`}
          >
            <div style={{ width: `${progress.total ? Math.round((progress.done / progress.total) * 100) : 0}%` }} />
          </div>
        </div>
      ) : null}
      {card.labels.length > 0 || card.assignee ? (
        <div className="card-bottom">
          <span className="card-labels">
            {card.labels.map((label) => (
              <LabelChip key={label.id} label={label} />
            ))}
          </span>
          {card.assignee ? <Avatar person={card.assignee} /> : null}
        </div>
      ) : null}
    </>
  );
}

/**
 * A draggable card (pointer after 5 px, or Space then the arrow keys and
 * Space again). A click or Enter opens the ticket; Alt+ArrowUp/Down moves it
 * one place up or down its lane (`onStep`).
 */
export const TicketCard = memo(function TicketCard({
  card,
  column,
  onOpen,
  selected,
  refused,
  measureRef,
  index,
  style,
  onStep,
}: {
  card: BoardCard;
  /** The lane the card is in (a drag says where it was picked up). */
  column: string;
  onOpen: (key: string) => void;
  selected: boolean;
  refused: boolean;
  measureRef?: Ref<HTMLDivElement>;
  index: number;
  style?: CSSProperties;
  /** Moves the card one place up or down its lane. */
  onStep?: (key: string, direction: 'up' | 'down') => void;
}) {
  const data: CardDragData = { column };
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: card.key, data });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && !isDragging) {
      event.preventDefault();
      onOpen(card.key);
      return;
    }
    const direction = isDragging ? undefined : stepKeyOf(event);
    if (direction && onStep) {
      event.preventDefault();
      onStep(card.key, direction);
      return;
    }
    listeners?.onKeyDown?.(event);
  };
  return (
    <div className="card-slot" ref={measureRef} data-index={index} style={style}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dnd-kit's attributes, spread in, make the card a focusable button (role, tabIndex, aria-pressed); the rule cannot see through the spread. */}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the same: aria-roledescription names that button, which the rule takes for a plain div. */}
      <div
        ref={setNodeRef}
        {...attributes}
        {...listeners}
        onKeyDown={onKeyDown}
        aria-roledescription="ticket card"
        aria-keyshortcuts={onStep ? 'Alt+ArrowUp Alt+ArrowDown' : undefined}
        aria-describedby={attributes['aria-describedby']}
        className={`ticket-card ${card.ticket_type === 'epic' ? 'epic' : ''} ${isDragging ? 'dragging' : ''} ${selected ? 'selected' : ''} ${refused ? 'refused' : ''}`}
        data-key={card.key}
        onClick={() => onOpen(card.key)}
      >
        <CardFace card={card} />
      </div>
    </div>
  );
});
