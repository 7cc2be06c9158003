/**
 * The List view's rows and their order: the board's (filtered) lanes flattened into rows, and the sort a
 * column header sets, kept in the URL (`sort=priority`, `sort=-updated`) beside the view (`view=list`). Pure,
 * so the order is unit-tested.
 */
import { PRIORITIES, type BoardCard, type BoardLane } from '../api/types.ts';

/** The table's columns, in the order they are shown; each is sortable. */
export const LIST_COLUMNS = ['key', 'title', 'type', 'priority', 'column', 'assignee', 'labels', 'updated'] as const;
/** A column of the table. */
export type ListColumn = (typeof LIST_COLUMNS)[number];

/** A column's heading. */
export const COLUMN_TITLES: Record<ListColumn, string> = {
  key: 'Key',
  title: 'Title',
  type: 'Type',
  priority: 'Priority',
  column: 'Column',
  assignee: 'Assignee',
  labels: 'Labels',
  updated: 'Updated',
};

/** A sort: a column and a direction. */
export interface ListSort {
  column: ListColumn;
  direction: 'asc' | 'desc';
}

/** One row: a card, the lane it is in, and where it stands on the board (the order without a sort). */
export interface ListRow {
  card: BoardCard;
  column: string;
  /** The lane's place on the board (the Column sort goes by it, not by name). */
  laneIndex: number;
}

/** The board page's two views of the same tickets. */
export type BoardPageView = 'board' | 'list';

/** The query parameter of the view: `view=list`; the board is the default and leaves it out. */
const VIEW_PARAM = 'view';

/** The view a URL query asks for. */
export function viewFromQuery(query: URLSearchParams): BoardPageView {
  return query.get(VIEW_PARAM) === 'list' ? 'list' : 'board';
}

/** The query with `view` written into it; the filters, the board and the sort stay, so a switch keeps them. */
export function queryWithView(query: URLSearchParams, view: BoardPageView): URLSearchParams {
  const next = new URLSearchParams(query);
  if (view === 'list') next.set(VIEW_PARAM, 'list');
  else next.delete(VIEW_PARAM);
  return next;
}

/** The query parameter of the sort. */
const SORT_PARAM = 'sort';

/** A first click sorts these from the top down (highest priority, latest update); others from A to Z. */
const DESCENDING_FIRST: ReadonlySet<ListColumn> = new Set(['priority', 'updated']);

/** The rows of the board's lanes, lane after lane, each in the lane's order. */
export function listRows(lanes: ReadonlyArray<{ lane: BoardLane; cards: readonly BoardCard[] }>): ListRow[] {
  return lanes.flatMap(({ lane, cards }, laneIndex) => cards.map((card) => ({ card, column: lane.name, laneIndex })));
}

/** The sort a URL query holds (`sort=priority` ascending, `sort=-priority` descending), or none. */
export function sortFromQuery(query: URLSearchParams): ListSort | undefined {
  const raw = query.get(SORT_PARAM) ?? '';
  const descending = raw.startsWith('-');
  const column = (descending ? raw.slice(1) : raw) as ListColumn;
  return LIST_COLUMNS.includes(column) ? { column, direction: descending ? 'desc' : 'asc' } : undefined;
}

/** The query with `sort` written into it (or removed); the other parameters (filters, board, view) stay. */
export function queryWithSort(query: URLSearchParams, sort: ListSort | undefined): URLSearchParams {
  const next = new URLSearchParams(query);
  if (sort) next.set(SORT_PARAM, `${sort.direction === 'desc' ? '-' : ''}${sort.column}`);
  else next.delete(SORT_PARAM);
  return next;
}

/** What a click on a column's header sorts by: the same column turns around, another starts at its first direction. */
export function nextSort(current: ListSort | undefined, column: ListColumn): ListSort {
  if (current?.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: DESCENDING_FIRST.has(column) ? 'desc' : 'asc' };
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** A ticket key's number (`DEMO-12` → 12). */
function keyNumber(key: string): number {
  return Number(key.slice(key.lastIndexOf('-') + 1)) || 0;
}

/** What a row is sorted by in a column; undefined (no assignee, no labels) sorts last whichever the direction. */
function sortValue(row: ListRow, column: ListColumn): string | number | undefined {
  const { card } = row;
  switch (column) {
    case 'key':
      return keyNumber(card.key);
    case 'title':
      return card.title;
    case 'type':
      return card.ticket_type;
    case 'priority': {
      // Ascending is from the lowest priority up; an unknown one sorts below the lowest.
      const index = PRIORITIES.indexOf(card.priority as (typeof PRIORITIES)[number]);
      return index < 0 ? -1 : PRIORITIES.length - index;
    }
    case 'column':
      return row.laneIndex;
    case 'assignee':
      return card.assignee ? card.assignee.name || card.assignee.email : undefined;
    case 'labels':
      return card.labels.length > 0
        ? card.labels
            .map((label) => label.name)
            .sort(collator.compare)
            .join(', ')
        : undefined;
    case 'updated':
      return Date.parse(card.updated_at) || 0;
  }
}

/**
 * The rows in the order of `sort` (none: the board's order). Equal values keep the board's order, and empty
 * values (no assignee, no labels) come last in either direction.
 */
export function sortRows(rows: readonly ListRow[], sort: ListSort | undefined): ListRow[] {
  if (!sort) return [...rows];
  const sign = sort.direction === 'asc' ? 1 : -1;
  const keyed = rows.map((row, index) => ({ row, index, value: sortValue(row, sort.column) }));
  keyed.sort((a, b) => {
    if (a.value === undefined || b.value === undefined) {
      if (a.value === b.value) return a.index - b.index;
      return a.value === undefined ? 1 : -1;
    }
    const order = typeof a.value === 'number' && typeof b.value === 'number' ? a.value - b.value : collator.compare(String(a.value), String(b.value));
    return order === 0 ? a.index - b.index : sign * order;
  });
  return keyed.map((entry) => entry.row);
}
