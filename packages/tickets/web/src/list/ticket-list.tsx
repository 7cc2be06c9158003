import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Button, EmptyState, counted, dateTime, timeAgo } from '@switchboard/web-kit';
import type { BoardCard, BoardLane } from '../api/types.ts';
import { EmptyBoard } from '../board/empty-board.tsx';
import { Avatar, LabelChip, PriorityBadge, TypeBadge } from '../board/ticket-card.tsx';
import { COLUMN_TITLES, LIST_COLUMNS, listRows, nextSort, queryWithSort, sortFromQuery, sortRows, type ListColumn, type ListRow } from './list-rows.ts';
import './ticket-list.css';

/** An update older than a month as a date alone (with its time it does not fit the column). */
const olderDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const MONTH_MS = 30 * 86_400_000;

/** When a ticket was updated, as the column shows it: "3 hours ago", or the date when it is older than a month. */
function updatedText(iso: string): string {
  const time = Date.parse(iso);
  return Number.isFinite(time) && Date.now() - time > MONTH_MS ? olderDate.format(time) : timeAgo(iso);
}

/** A row's height: one line each, so the virtualizer needs no measuring. */
const ROW_HEIGHT = 40;
/** The header row's height until it is measured. */
const HEAD_HEIGHT = 37;
/** Labels shown in a row; the rest are counted (`+3`), all of them in the cell's title. */
const LABELS_SHOWN = 2;

/**
 * **List**: the board's tickets as a sortable table (click a column's header; the sort is in the URL), only the
 * rows in view in the page (a project of thousands scrolls as one of ten). A click or Enter on a row opens the
 * ticket; the arrow keys, Home, End and Page Up/Down move between rows.
 */
export function TicketList({
  lanes,
  filtered,
  total,
  complete,
  selectedKey,
  onOpen,
  onNewTicket,
  onClearFilters,
}: {
  /** The lanes with the cards the filters keep. */
  lanes: ReadonlyArray<{ lane: BoardLane; cards: BoardCard[] }>;
  filtered: boolean;
  /** Every ticket of the board, whatever the filters. */
  total: number;
  /** Whether every card is loaded (false while the rest of a large board is on its way). */
  complete: boolean;
  selectedKey: string | undefined;
  onOpen: (key: string) => void;
  onNewTicket: () => void;
  onClearFilters: () => void;
}) {
  const [query, setQuery] = useSearchParams();
  const sort = useMemo(() => sortFromQuery(query), [query]);
  const rows = useMemo(() => sortRows(listRows(lanes), sort), [lanes, sort]);
  const scrollRef = useRef<HTMLDivElement>(null);
  // The sticky header sits above the rows in the scrolled box: the rows start below it (the list's margin in
  // the box), and a row scrolled to stops below it, not under it.
  const headRef = useRef<HTMLTableSectionElement>(null);
  const [headHeight, setHeadHeight] = useState(HEAD_HEIGHT);
  useLayoutEffect(() => {
    if (headRef.current) setHeadHeight(headRef.current.offsetHeight);
  }, []);
  const virtualizer = useVirtualizer({
    count: rows.length,
    scrollMargin: headHeight,
    scrollPaddingStart: headHeight,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    getItemKey: (index) => rows[index]!.card.key,
  });

  // Another sort starts at the top, as a list does when it is sorted again.
  const sortKey = sort ? `${sort.direction}:${sort.column}` : '';
  const sorted = useRef(sortKey);
  useEffect(() => {
    if (sorted.current === sortKey) return;
    sorted.current = sortKey;
    scrollRef.current?.scrollTo({ top: 0 });
  }, [sortKey]);

  // The open ticket's row comes into view (a link to /tickets/KEY-N?view=list opens there).
  const selectedIndex = selectedKey ? rows.findIndex((row) => row.card.key === selectedKey) : -1;
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  // The row that takes Tab (roving focus), by key so a live change that moves rows does not move it.
  const [activeKey, setActiveKey] = useState<string | undefined>(undefined);
  const activeIndex = Math.max(0, activeKey ? rows.findIndex((row) => row.card.key === activeKey) : 0);
  const items = virtualizer.getVirtualItems();
  // The row moved to takes the focus once it is in the page: a scroll to a row far away renders it a frame or
  // more later (and the row that had the focus may leave the page meanwhile).
  const focusRow = useCallback((key: string) => {
    let frames = 0;
    const attempt = () => {
      const row = scrollRef.current?.querySelector<HTMLElement>(`tr[data-key="${CSS.escape(key)}"]`);
      row?.focus({ preventScroll: true });
      if (row && document.activeElement === row) return;
      if (++frames < 60) requestAnimationFrame(attempt);
    };
    requestAnimationFrame(attempt);
  }, []);
  const moveTo = useCallback(
    (index: number) => {
      const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
      if (!row) return;
      setActiveKey(row.card.key);
      virtualizer.scrollToIndex(rows.indexOf(row), { align: 'auto' });
      focusRow(row.card.key);
    },
    [rows, virtualizer, focusRow],
  );
  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    // The row the key was pressed on: the roving state may not have caught up with a focus just moved.
    const key = (event.target as HTMLElement).closest('tr')?.dataset.key;
    if (event.key === 'Enter') {
      if (!key) return;
      event.preventDefault();
      onOpen(key);
    } else if (event.key in step) {
      event.preventDefault();
      const index = key ? rows.findIndex((row) => row.card.key === key) : -1;
      moveTo((index >= 0 ? index : activeIndex) + step[event.key]!);
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      moveTo(event.key === 'Home' ? 0 : rows.length - 1);
    }
  };

  if (total === 0 && complete) return <EmptyBoard onNewTicket={onNewTicket} />;
  const shown = filtered ? `${counted(rows.length, 'ticket')} of ${total.toLocaleString()}` : counted(rows.length, 'ticket');
  return (
    <div className="ticket-list">
      <div className="ticket-list-count faint" role="status">
        {shown}
        {complete ? '' : ', loading the rest…'}
      </div>
      <div className="ticket-list-scroll" ref={scrollRef}>
        {/* A table whose rows are placed one by one (CSS grid rows moved into place, as a lane's cards are): the
            roles are written out, since a table's own layout is gone. */}
        {/* biome-ignore lint/a11y/noRedundantRoles: its display is not a table's (see above), which takes the implicit role away in some browsers. */}
        <table className="table ticket-table" role="table" aria-label="Tickets" aria-rowcount={rows.length + 1}>
          {/* biome-ignore lint/a11y/noRedundantRoles: as the table's. */}
          <thead ref={headRef} role="rowgroup">
            {/* biome-ignore lint/a11y/noRedundantRoles: as the table's. */}
            <tr aria-rowindex={1} role="row">
              {LIST_COLUMNS.map((column) => (
                <SortHeader
                  key={column}
                  column={column}
                  direction={sort?.column === column ? sort.direction : undefined}
                  onSort={() => setQuery((latest) => queryWithSort(latest, nextSort(sortFromQuery(latest), column)), { replace: true })}
                />
              ))}
            </tr>
          </thead>
          {/* biome-ignore lint/a11y/noRedundantRoles: as the table's. */}
          <tbody onKeyDown={onKeyDown} role="rowgroup" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = rows[item.index]!;
              return (
                <TicketRow
                  key={item.key}
                  row={row}
                  index={item.index}
                  top={item.start - headHeight}
                  tabbable={item.index === activeIndex}
                  selected={row.card.key === selectedKey}
                  onOpen={onOpen}
                  onFocusRow={setActiveKey}
                />
              );
            })}
          </tbody>
        </table>
        {rows.length === 0 ? (
          <EmptyState title="No tickets match these filters" action={<Button onClick={onClearFilters}>Clear filters</Button>}>
            {total.toLocaleString()} {total === 1 ? 'ticket is' : 'tickets are'} hidden by the filters above.
          </EmptyState>
        ) : null}
      </div>
    </div>
  );
}

/** A column's header: a button that sorts by it, and `aria-sort` saying how the table is sorted. */
function SortHeader({ column, direction, onSort }: { column: ListColumn; direction: 'asc' | 'desc' | undefined; onSort: () => void }) {
  const ariaSort = direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none';
  return (
    // biome-ignore lint/a11y/noRedundantRoles: as the table's.
    <th scope="col" role="columnheader" aria-sort={ariaSort} className={direction ? 'sorted' : ''}>
      <button type="button" className="sort-button" onClick={onSort}>
        {COLUMN_TITLES[column]}
        <span className="sort-arrow" aria-hidden="true">
          {direction === 'asc' ? '↑' : direction === 'desc' ? '↓' : '↕'}
        </span>
      </button>
    </th>
  );
}

/** A cell of a row (its role written out, as the table's). */
function Cell({ className, title, children }: { className?: string; title?: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: as the table's.
    <td role="cell" className={className} title={title}>
      {children}
    </td>
  );
}

/** One ticket's row; a click opens it. */
const TicketRow = memo(function TicketRow({
  row,
  index,
  top,
  tabbable,
  selected,
  onOpen,
  onFocusRow,
}: {
  row: ListRow;
  index: number;
  /** Where the row is placed in the body. */
  top: number;
  tabbable: boolean;
  selected: boolean;
  onOpen: (key: string) => void;
  onFocusRow: (key: string) => void;
}) {
  const { card } = row;
  const extra = card.labels.length - LABELS_SHOWN;
  return (
    <tr
      // biome-ignore lint/a11y/noRedundantRoles: as the table's.
      role="row"
      style={{ transform: `translateY(${top}px)` }}
      data-key={card.key}
      aria-rowindex={index + 2}
      aria-current={selected ? 'true' : undefined}
      className={`ticket-row ${selected ? 'selected' : ''}`}
      // A row is one stop for Tab (the active one); the arrow keys move between rows, Enter opens.
      tabIndex={tabbable ? 0 : -1}
      onClick={() => onOpen(card.key)}
      onFocus={() => onFocusRow(card.key)}
    >
      <Cell className="cell-key">{card.key}</Cell>
      <Cell className="cell-title" title={card.title}>
        {card.title}
      </Cell>
      <Cell>
        <TypeBadge type={card.ticket_type} />
      </Cell>
      <Cell>
        <PriorityBadge priority={card.priority} />
      </Cell>
      <Cell className="cell-column" title={row.column}>
        {row.column}
      </Cell>
      <Cell className="cell-assignee">
        {card.assignee ? (
          <span className="assignee">
            <Avatar person={card.assignee} />
            <span className="assignee-name">{card.assignee.name || card.assignee.email}</span>
          </span>
        ) : (
          <span className="faint">Unassigned</span>
        )}
      </Cell>
      <Cell className="cell-labels" title={card.labels.map((label) => label.name).join(', ')}>
        {card.labels.slice(0, LABELS_SHOWN).map((label) => (
          <LabelChip key={label.id} label={label} />
        ))}
        {extra > 0 ? (
          <>
            {' '}
            <span className="labels-more">
              +{extra}
              <span className="sr-only"> more</span>
            </span>
          </>
        ) : null}
      </Cell>
      <Cell className="cell-updated" title={dateTime(card.updated_at)}>
        {updatedText(card.updated_at)}
      </Cell>
    </tr>
  );
});
