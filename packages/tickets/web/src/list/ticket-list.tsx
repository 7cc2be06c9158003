import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Button, EmptyState, counted, dateTime, timeAgo } from '@switchboard/web-kit';
import type { BoardCard, BoardLane } from '../api/types.ts';
import { EmptyBoard } from '../board/empty-board.tsx';
import { Avatar, LabelChip, PriorityBadge, TypeBadge } from '../board/ticket-card.tsx';
import { COLUMN_TITLES, LIST_COLUMNS, listRows, nextSort, queryWithSort, sortFromQuery, sortRows, type ListColumn, type ListRow } from './list-rows.ts';
import './ticket-list.css';

/** A row's height: one line each, so the virtualizer needs no measuring. */
const ROW_HEIGHT = 40;
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
  const virtualizer = useVirtualizer({
    count: rows.length,
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

  // The row that takes Tab (roving focus), by key so a live change that moves rows does not move it.
  const [activeKey, setActiveKey] = useState<string | undefined>(undefined);
  const activeIndex = Math.max(0, activeKey ? rows.findIndex((row) => row.card.key === activeKey) : 0);
  const focusPending = useRef(false);
  const items = virtualizer.getVirtualItems();
  useEffect(() => {
    if (!focusPending.current || !activeKey) return;
    const row = scrollRef.current?.querySelector<HTMLElement>(`tr[data-key="${CSS.escape(activeKey)}"]`);
    if (!row) return;
    focusPending.current = false;
    row.focus({ preventScroll: true });
  });
  const moveTo = useCallback(
    (index: number) => {
      const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
      if (!row) return;
      focusPending.current = true;
      setActiveKey(row.card.key);
      virtualizer.scrollToIndex(rows.indexOf(row), { align: 'auto' });
    },
    [rows, virtualizer],
  );
  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (event.key === 'Enter') {
      const key = (event.target as HTMLElement).closest('tr')?.dataset.key;
      if (!key) return;
      event.preventDefault();
      onOpen(key);
    } else if (event.key in step) {
      event.preventDefault();
      moveTo(activeIndex + step[event.key]!);
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      moveTo(event.key === 'Home' ? 0 : rows.length - 1);
    }
  };

  if (total === 0 && complete) return <EmptyBoard onNewTicket={onNewTicket} />;
  const shown = filtered ? `${counted(rows.length, 'ticket')} of ${total.toLocaleString()}` : counted(rows.length, 'ticket');
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <div className="ticket-list">
      <div className="ticket-list-count faint" role="status">
        {shown}
        {complete ? '' : ', loading the rest…'}
      </div>
      <div className="ticket-list-scroll" ref={scrollRef}>
        <table className="table ticket-table" aria-label="Tickets" aria-rowcount={rows.length + 1}>
          <colgroup>
            {LIST_COLUMNS.map((column) => (
              <col key={column} className={`col-${column}`} />
            ))}
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
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
          <tbody onKeyDown={onKeyDown}>
            {before > 0 ? <Spacer height={before} /> : null}
            {items.map((item) => {
              const row = rows[item.index]!;
              return (
                <TicketRow
                  key={item.key}
                  row={row}
                  index={item.index}
                  tabbable={item.index === activeIndex}
                  selected={row.card.key === selectedKey}
                  onOpen={onOpen}
                  onFocusRow={setActiveKey}
                />
              );
            })}
            {after > 0 ? <Spacer height={after} /> : null}
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

/** The room of the rows not in the page, above or below those that are. */
function Spacer({ height }: { height: number }) {
  return (
    <tr className="ticket-list-spacer" style={{ height }}>
      <td colSpan={LIST_COLUMNS.length} />
    </tr>
  );
}

/** A column's header: a button that sorts by it, and `aria-sort` saying how the table is sorted. */
function SortHeader({ column, direction, onSort }: { column: ListColumn; direction: 'asc' | 'desc' | undefined; onSort: () => void }) {
  const ariaSort = direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none';
  return (
    <th scope="col" aria-sort={ariaSort} className={direction ? 'sorted' : ''}>
      <button type="button" className="sort-button" onClick={onSort}>
        {COLUMN_TITLES[column]}
        <span className="sort-arrow" aria-hidden="true">
          {direction === 'asc' ? '↑' : direction === 'desc' ? '↓' : '↕'}
        </span>
      </button>
    </th>
  );
}

/** One ticket's row; a click opens it. */
const TicketRow = memo(function TicketRow({
  row,
  index,
  tabbable,
  selected,
  onOpen,
  onFocusRow,
}: {
  row: ListRow;
  index: number;
  tabbable: boolean;
  selected: boolean;
  onOpen: (key: string) => void;
  onFocusRow: (key: string) => void;
}) {
  const { card } = row;
  const extra = card.labels.length - LABELS_SHOWN;
  return (
    <tr
      data-key={card.key}
      aria-rowindex={index + 2}
      aria-current={selected ? 'true' : undefined}
      className={`ticket-row ${selected ? 'selected' : ''}`}
      // A row is one stop for Tab (the active one); the arrow keys move between rows, Enter opens.
      tabIndex={tabbable ? 0 : -1}
      onClick={() => onOpen(card.key)}
      onFocus={() => onFocusRow(card.key)}
    >
      <td className="cell-key">{card.key}</td>
      <td className="cell-title" title={card.title}>
        {card.title}
      </td>
      <td>
        <TypeBadge type={card.ticket_type} />
      </td>
      <td>
        <PriorityBadge priority={card.priority} />
      </td>
      <td className="cell-column" title={row.column}>
        {row.column}
      </td>
      <td className="cell-assignee">
        {card.assignee ? (
          <span className="assignee">
            <Avatar person={card.assignee} />
            <span className="assignee-name">{card.assignee.name || card.assignee.email}</span>
          </span>
        ) : (
          <span className="faint">Unassigned</span>
        )}
      </td>
      <td className="cell-labels" title={card.labels.map((label) => label.name).join(', ')}>
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
      </td>
      <td className="cell-updated" title={dateTime(card.updated_at)}>
        {timeAgo(card.updated_at)}
      </td>
    </tr>
  );
});
