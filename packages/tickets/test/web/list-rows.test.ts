import { describe, expect, it } from 'vitest';
import type { BoardLane } from '../../web/src/api/types.ts';
import { cardMatcher } from '../../web/src/board/filters.ts';
import { listRows, nextSort, queryWithSort, queryWithView, sortFromQuery, sortRows, viewFromQuery, type ListSort } from '../../web/src/list/list-rows.ts';
import { card } from './fixtures.ts';

const ada = { id: 'u1', name: 'Ada', email: 'ada@example.com' };
const bob = { id: 'u2', name: '', email: 'bob@example.com' };
const label = (name: string) => ({ id: name, name, color: '#000' });

/** Backlog (DEMO-3, DEMO-10), In Progress (DEMO-1), Done (DEMO-2, DEMO-4): the board's order is lane after lane. */
function lanes(): Array<{ lane: BoardLane; cards: BoardLane['cards'] }> {
  const lane = (name: string, cards: BoardLane['cards']) => ({ lane: { name, is_done_column: name === 'Done', ticket_count: cards.length, cards }, cards });
  return [
    lane('Backlog', [
      card('DEMO-3', { title: 'banana', priority: 'low', ticket_type: 'story', updated_at: '2025-01-03T00:00:00Z', labels: [label('ux')] }),
      card('DEMO-10', { title: 'Apple', priority: 'highest', ticket_type: 'bug', updated_at: '2025-01-05T00:00:00Z', assignee: bob }),
    ]),
    lane('In Progress', [
      card('DEMO-1', { title: 'cherry', priority: 'high', updated_at: '2025-01-01T00:00:00Z', assignee: ada, labels: [label('api'), label('Backend')] }),
    ]),
    lane('Done', [
      card('DEMO-2', { title: 'apple pie', priority: 'high', updated_at: '2025-01-04T00:00:00Z' }),
      card('DEMO-4', { title: 'Date 2', priority: 'lowest', ticket_type: 'epic', updated_at: '2025-01-02T00:00:00Z', labels: [label('api')] }),
    ]),
  ];
}

const keys = (sort: ListSort | undefined, from = lanes()) => sortRows(listRows(from), sort).map((row) => row.card.key);

describe('the List view order', () => {
  it('lists the board lane after lane when no sort is chosen, each row with its column', () => {
    const rows = listRows(lanes());
    expect(rows.map((row) => [row.card.key, row.column, row.laneIndex])).toEqual([
      ['DEMO-3', 'Backlog', 0],
      ['DEMO-10', 'Backlog', 0],
      ['DEMO-1', 'In Progress', 1],
      ['DEMO-2', 'Done', 2],
      ['DEMO-4', 'Done', 2],
    ]);
    expect(keys(undefined)).toEqual(['DEMO-3', 'DEMO-10', 'DEMO-1', 'DEMO-2', 'DEMO-4']);
  });

  it('sorts keys by number, titles without case and with numbers as numbers', () => {
    expect(keys({ column: 'key', direction: 'asc' })).toEqual(['DEMO-1', 'DEMO-2', 'DEMO-3', 'DEMO-4', 'DEMO-10']);
    expect(keys({ column: 'key', direction: 'desc' })).toEqual(['DEMO-10', 'DEMO-4', 'DEMO-3', 'DEMO-2', 'DEMO-1']);
    expect(keys({ column: 'title', direction: 'asc' })).toEqual(['DEMO-10', 'DEMO-2', 'DEMO-3', 'DEMO-1', 'DEMO-4']);
  });

  it('sorts priority by rank (descending: highest first), equal ones in the board order', () => {
    expect(keys({ column: 'priority', direction: 'desc' })).toEqual(['DEMO-10', 'DEMO-1', 'DEMO-2', 'DEMO-3', 'DEMO-4']);
    expect(keys({ column: 'priority', direction: 'asc' })).toEqual(['DEMO-4', 'DEMO-3', 'DEMO-1', 'DEMO-2', 'DEMO-10']);
  });

  it('sorts the column by the lanes’ order on the board, not by name, and updated by time', () => {
    expect(keys({ column: 'column', direction: 'desc' })).toEqual(['DEMO-2', 'DEMO-4', 'DEMO-1', 'DEMO-3', 'DEMO-10']);
    expect(keys({ column: 'updated', direction: 'desc' })).toEqual(['DEMO-10', 'DEMO-2', 'DEMO-3', 'DEMO-4', 'DEMO-1']);
    expect(keys({ column: 'type', direction: 'asc' })).toEqual(['DEMO-10', 'DEMO-4', 'DEMO-3', 'DEMO-1', 'DEMO-2']);
  });

  it('puts tickets without an assignee or labels last in both directions', () => {
    // Bob has no name: his email is what is shown and sorted.
    expect(keys({ column: 'assignee', direction: 'asc' })).toEqual(['DEMO-1', 'DEMO-10', 'DEMO-3', 'DEMO-2', 'DEMO-4']);
    expect(keys({ column: 'assignee', direction: 'desc' })).toEqual(['DEMO-10', 'DEMO-1', 'DEMO-3', 'DEMO-2', 'DEMO-4']);
    // Labels sort by their names in order: "api" < "api, Backend" < "ux".
    expect(keys({ column: 'labels', direction: 'asc' })).toEqual(['DEMO-4', 'DEMO-1', 'DEMO-3', 'DEMO-10', 'DEMO-2']);
    expect(keys({ column: 'labels', direction: 'desc' })).toEqual(['DEMO-3', 'DEMO-1', 'DEMO-4', 'DEMO-10', 'DEMO-2']);
  });

  it('sorts only what the board’s filters keep', () => {
    const matches = cardMatcher({ type: '', priority: 'high', label: '', assignee: '', text: '' });
    const filtered = lanes().map(({ lane, cards }) => ({ lane, cards: cards.filter(matches) }));
    expect(keys({ column: 'updated', direction: 'asc' }, filtered)).toEqual(['DEMO-1', 'DEMO-2']);
  });
});

describe('the List view in the URL', () => {
  it('reads and writes the sort, keeping the filters, the board and the view', () => {
    const query = new URLSearchParams('view=list&board=Ops&priority=high');
    expect(sortFromQuery(query)).toBeUndefined();
    const sorted = queryWithSort(query, { column: 'priority', direction: 'desc' });
    expect(sorted.toString()).toBe('view=list&board=Ops&priority=high&sort=-priority');
    expect(sortFromQuery(sorted)).toEqual({ column: 'priority', direction: 'desc' });
    expect(sortFromQuery(new URLSearchParams('sort=title'))).toEqual({ column: 'title', direction: 'asc' });
    expect(sortFromQuery(new URLSearchParams('sort=-nonsense'))).toBeUndefined();
    expect(queryWithSort(sorted, undefined).toString()).toBe('view=list&board=Ops&priority=high');
  });

  it('turns a sorted column around on a second click; another column starts ascending, priority and updated descending', () => {
    expect(nextSort(undefined, 'title')).toEqual({ column: 'title', direction: 'asc' });
    expect(nextSort(undefined, 'priority')).toEqual({ column: 'priority', direction: 'desc' });
    expect(nextSort(undefined, 'updated')).toEqual({ column: 'updated', direction: 'desc' });
    expect(nextSort({ column: 'priority', direction: 'desc' }, 'priority')).toEqual({ column: 'priority', direction: 'asc' });
    expect(nextSort({ column: 'priority', direction: 'asc' }, 'priority')).toEqual({ column: 'priority', direction: 'desc' });
    expect(nextSort({ column: 'priority', direction: 'asc' }, 'key')).toEqual({ column: 'key', direction: 'asc' });
  });

  it('switches between Board and List keeping every other parameter', () => {
    const board = new URLSearchParams('board=Ops&q=login&sort=-priority');
    expect(viewFromQuery(board)).toBe('board');
    const list = queryWithView(board, 'list');
    expect(list.toString()).toBe('board=Ops&q=login&sort=-priority&view=list');
    expect(viewFromQuery(list)).toBe('list');
    expect(queryWithView(list, 'board').toString()).toBe('board=Ops&q=login&sort=-priority');
    expect(viewFromQuery(new URLSearchParams('view=other'))).toBe('board');
  });
});
