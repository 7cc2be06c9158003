import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../web/src/api/types.ts';
import { panelNeedsRead, planRefresh, relatedTickets } from '../../web/src/live/live-plan.ts';
import { board, card } from './fixtures.ts';

const event = (seq: number, extra: Partial<ChangeEvent>): ChangeEvent => ({
  seq,
  kind: 'ticket',
  action: 'updated',
  actor: 'token:agent',
  at: '2025-01-01T00:00:00Z',
  ...extra,
});

describe('planRefresh (what a batch of live changes asks to read again)', () => {
  it('reads each changed ticket once, in the order first named, upper-cased', () => {
    const plan = planRefresh([event(1, { key: 'DEMO-1' }), event(2, { key: 'demo-2' }), event(3, { key: 'DEMO-1', action: 'moved' })], 0);
    expect(plan).toEqual({ tickets: ['DEMO-1', 'DEMO-2'], board: false, documents: false, slugs: [], lastSeq: 3 });
  });

  it('skips events already applied (a replay after a reconnect sends them again)', () => {
    const plan = planRefresh([event(4, { key: 'DEMO-1' }), event(5, { key: 'DEMO-2' }), event(6, { key: 'DEMO-3' })], 5);
    expect(plan.tickets).toEqual(['DEMO-3']);
    expect(plan.lastSeq).toBe(6);
    expect(planRefresh([event(2, { key: 'DEMO-1' })], 5)).toEqual({ tickets: [], board: false, documents: false, slugs: [], lastSeq: 5 });
  });

  it('reads the whole board after a change of its shape (columns, boards, labels), not after members, tokens or settings', () => {
    for (const action of ['column_updated', 'column_created', 'column_deleted', 'board_created', 'board_updated', 'label_updated', 'label_deleted']) {
      const plan = planRefresh([event(1, { kind: 'project', action }), event(2, { key: 'DEMO-1' })], 0);
      expect(plan.board, action).toBe(true);
      expect(plan.tickets).toEqual(['DEMO-1']);
    }
    for (const action of ['member_added', 'member_removed', 'token_created', 'token_revoked', 'settings_updated', 'label_created']) {
      expect(planRefresh([event(1, { kind: 'project', action })], 0).board, action).toBe(false);
    }
  });

  it('collects changed documents by slug', () => {
    const plan = planRefresh(
      [event(1, { kind: 'document', slug: 'readme' }), event(2, { kind: 'document', slug: 'readme' }), event(3, { kind: 'document', slug: 'api' })],
      0,
    );
    expect(plan).toMatchObject({ documents: true, slugs: ['readme', 'api'], tickets: [], board: false });
  });
});

describe('relatedTickets (epics whose progress may have changed)', () => {
  it('names the parent the card had and the parent the ticket has now, once each', () => {
    const view = board();
    view.columns[0]!.cards[0] = card('A-1', { parent: 'A-3' });
    expect(relatedTickets(view, 'A-1', 'A-9')).toEqual(['A-3', 'A-9']);
    expect(relatedTickets(view, 'A-1', 'a-3')).toEqual(['A-3']);
    expect(relatedTickets(view, 'A-2', null)).toEqual([]);
    expect(relatedTickets(undefined, 'A-2', 'A-3')).toEqual(['A-3']);
  });
});

describe('panelNeedsRead (an open ticket panel follows the tickets the board read again)', () => {
  const sub = (key: string) => ({ id: key, key, title: key, column: 'To Do', priority: 'medium', ticket_type: 'task' });
  const epic = { parent: null, sub_tickets: [sub('A-2')] };

  it("reads the panel's ticket again when the board read it: a new sub-ticket's read names its epic", () => {
    // A-3 was created under A-1: its event names A-3 only; the board read A-3, then its epic A-1.
    expect(panelNeedsRead('A-1', epic, ['A-3', 'A-1'])).toBe(true);
    expect(panelNeedsRead('a-1', epic, ['A-1'])).toBe(true);
    expect(panelNeedsRead('A-1', undefined, ['a-1'])).toBe(true);
  });

  it('reads it again when one of its sub-tickets or its epic was read, and not for unrelated tickets', () => {
    expect(panelNeedsRead('A-1', epic, ['a-2'])).toBe(true);
    expect(panelNeedsRead('A-2', { parent: { id: 'A-1', key: 'A-1', title: 'Epic' }, sub_tickets: [] }, ['A-1'])).toBe(true);
    expect(panelNeedsRead('A-1', epic, ['A-3', 'A-4'])).toBe(false);
    expect(panelNeedsRead('A-1', undefined, ['A-2'])).toBe(false);
    expect(panelNeedsRead('A-1', epic, [])).toBe(false);
  });
});
