import { describe, expect, it } from 'vitest';
import { findCard, moveCard, placeCard, removeCard, rollbackMove, ticketTotal } from '../../web/src/board/board-state.ts';
import { board, card, countsOf, keysOf, placed } from './fixtures.ts';

describe('moveCard (the optimistic move)', () => {
  it('moves the card to the top of the target lane and moves one from the counts, leaving the old view untouched', () => {
    const before = board();
    const snapshot = JSON.stringify(before);
    const { view, from } = moveCard(before, 'A-2', 'Done');
    expect(keysOf(view)).toEqual({ 'To Do': ['A-1'], 'In Progress': ['A-3'], Done: ['A-2'] });
    expect(countsOf(view)).toEqual({ 'To Do': 1, 'In Progress': 1, Done: 1 });
    expect(from).toEqual({ column: 'To Do', index: 1 });
    expect(JSON.stringify(before)).toBe(snapshot);
  });

  it('matches the column name case-insensitively, as move_ticket does', () => {
    expect(keysOf(moveCard(board(), 'A-1', 'in progress').view)['In Progress']).toEqual(['A-1', 'A-3']);
  });

  it('answers the same view for an unknown card, an unknown lane or the lane the card is in', () => {
    const before = board();
    for (const [key, column] of [
      ['A-9', 'Done'],
      ['A-1', 'Nowhere'],
      ['A-1', 'To Do'],
    ]) {
      const { view, from } = moveCard(before, key!, column!);
      expect(view).toBe(before);
      expect(from).toBeUndefined();
    }
  });

  it('keeps the lanes it does not touch as the same objects (React skips them)', () => {
    const before = board();
    const { view } = moveCard(before, 'A-1', 'Done');
    expect(view.columns[1]).toBe(before.columns[1]);
  });
});

describe('moveCard within a lane and to a place (the drop line, Alt+ArrowUp/Down)', () => {
  const threeInLane = (): ReturnType<typeof board> => ({
    ...board(),
    columns: [{ name: 'To Do', is_done_column: false, ticket_count: 3, cards: [card('A-1'), card('A-2'), card('A-3')] }, ...board().columns.slice(1)],
  });

  it('reorders a lane with before, after, top and bottom, keeping its count', () => {
    const before = threeInLane();
    expect(keysOf(moveCard(before, 'A-3', 'To Do', { before: 'A-1' }).view)['To Do']).toEqual(['A-3', 'A-1', 'A-2']);
    expect(keysOf(moveCard(before, 'A-1', 'To Do', { after: 'A-2' }).view)['To Do']).toEqual(['A-2', 'A-1', 'A-3']);
    expect(keysOf(moveCard(before, 'A-1', 'To Do', 'bottom').view)['To Do']).toEqual(['A-2', 'A-3', 'A-1']);
    expect(keysOf(moveCard(before, 'A-2', 'To Do', 'top').view)['To Do']).toEqual(['A-2', 'A-1', 'A-3']);
    const { view, from } = moveCard(before, 'A-3', 'To Do', { after: 'A-1' });
    expect(countsOf(view)['To Do']).toBe(3);
    expect(from).toEqual({ column: 'To Do', index: 2 });
    expect(rollbackMove(view, 'A-3', from!)).toEqual(before);
  });

  it('puts a card from another lane right above or below a card of the target lane', () => {
    expect(keysOf(moveCard(board(), 'A-3', 'To Do', { after: 'A-1' }).view)).toEqual({ 'To Do': ['A-1', 'A-3', 'A-2'], 'In Progress': [], Done: [] });
    expect(keysOf(moveCard(board(), 'A-3', 'To Do', 'bottom').view)['To Do']).toEqual(['A-1', 'A-2', 'A-3']);
  });

  it('answers the same view when the card is already at that place or the anchor is not in that lane', () => {
    const before = threeInLane();
    for (const position of ['top', { before: 'A-2' }, { after: 'A-9' }, { before: 'A-1' }] as const) {
      const { view, from } = moveCard(before, 'A-1', 'To Do', position);
      expect(view).toBe(before);
      expect(from).toBeUndefined();
    }
  });
});

describe('rollbackMove (a refused move snaps back)', () => {
  it('puts the card back at its old index, so the board is as before', () => {
    const before = board();
    const { view, from } = moveCard(before, 'A-1', 'Done');
    expect(rollbackMove(view, 'A-1', from!)).toEqual(before);
  });

  it('keeps changes that arrived meanwhile (a live update of another card)', () => {
    const { view, from } = moveCard(board(), 'A-1', 'Done');
    const meanwhile = placeCard(view, 'A-7', placed('A-7', { column: 'In Progress', rank: 0 }));
    expect(keysOf(rollbackMove(meanwhile, 'A-1', from!))).toEqual({ 'To Do': ['A-1', 'A-2'], 'In Progress': ['A-7', 'A-3'], Done: [] });
  });

  it('does nothing when the card is gone or already back', () => {
    const before = board();
    expect(rollbackMove(before, 'A-1', { column: 'To Do', index: 0 })).toBe(before);
    expect(rollbackMove(removeCard(before, 'A-1'), 'A-1', { column: 'Done', index: 0 })).toEqual(removeCard(before, 'A-1'));
  });
});

describe('placeCard (the live-update reducer: a card read again by key)', () => {
  it('moves a card that changed column to where its rank puts it in its new lane', () => {
    const view = placeCard(board(), 'A-1', placed('A-1', { column: 'Done', completed_at: '2025-01-02T00:00:00Z' }));
    expect(keysOf(view)).toEqual({ 'To Do': ['A-2'], 'In Progress': ['A-3'], Done: ['A-1'] });
    expect(countsOf(view)).toEqual({ 'To Do': 1, 'In Progress': 1, Done: 1 });
    expect(findCard(view, 'A-1')!.card).toEqual(card('A-1', { completed_at: '2025-01-02T00:00:00Z' }));
  });

  it('updates a card in place when it stays in its lane with its rank (an edit does not reorder the lane)', () => {
    const view = placeCard(board(), 'A-2', placed('A-2', { title: 'Renamed', rank: 200 }));
    expect(keysOf(view)['To Do']).toEqual(['A-1', 'A-2']);
    expect(findCard(view, 'A-2')!.card).toEqual(card('A-2', { title: 'Renamed' }));
    expect(countsOf(view)['To Do']).toBe(2);
  });

  it('adds a new card where its rank puts it (a new ticket ranks first in its lane) and counts it; the lane name in any case', () => {
    const view = placeCard(board(), 'A-4', placed('A-4', { column: 'to do', rank: -100 }));
    expect(keysOf(view)['To Do']).toEqual(['A-4', 'A-1', 'A-2']);
    expect(ticketTotal(view)).toBe(4);
    expect(keysOf(placeCard(view, 'A-5', placed('A-5', { rank: 150 })))['To Do']).toEqual(['A-4', 'A-1', 'A-5', 'A-2']);
    // Equal ranks (writes that raced) go by number, as the service orders them.
    expect(keysOf(placeCard(view, 'A-0', placed('A-0', { rank: 100 })))['To Do']).toEqual(['A-4', 'A-0', 'A-1', 'A-2']);
  });

  it('moves a card reordered in its lane (another page, an agent) to where its new rank puts it', () => {
    const view = placeCard(board(), 'A-1', placed('A-1', { rank: 250 }));
    expect(keysOf(view)['To Do']).toEqual(['A-2', 'A-1']);
    expect(countsOf(view)['To Do']).toBe(2);
    expect(findCard(view, 'A-1')!.card.rank).toBe(250);
  });

  it('takes a card off the board when its ticket is not on it any more (deleted, or on another board), and ignores an unknown one', () => {
    expect(keysOf(placeCard(board(), 'A-1', undefined))['To Do']).toEqual(['A-2']);
    expect(countsOf(placeCard(board(), 'A-3', undefined))['In Progress']).toBe(0);
    const before = board();
    expect(placeCard(before, 'A-9', undefined)).toBe(before);
  });

  it('answers the same view when nothing on the card changed', () => {
    const before = board();
    expect(placeCard(before, 'A-1', placed('A-1'))).toBe(before);
  });

  it("takes an epic's progress and a sub-ticket's parent as the service answers them", () => {
    const view = placeCard(board(), 'A-3', placed('A-3', { column: 'In Progress', ticket_type: 'epic', progress: { done: 2, total: 3 } }));
    expect(findCard(view, 'A-3')!.card.progress).toEqual({ done: 2, total: 3 });
    expect(findCard(placeCard(view, 'A-1', placed('A-1', { parent: 'A-3' })), 'A-1')!.card.parent).toBe('A-3');
  });
});

describe('removeCard', () => {
  it('removes a deleted ticket and lowers its lane count; an unknown key changes nothing', () => {
    const before = board();
    expect(countsOf(removeCard(before, 'A-3'))['In Progress']).toBe(0);
    expect(removeCard(before, 'A-99')).toBe(before);
    expect(card('X-1').progress).toBeNull();
  });
});
