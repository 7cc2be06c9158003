import type { BoardCard, BoardView, PlacedCard, Ticket } from '../../web/src/api/types.ts';

/** A card with defaults. */
export function card(key: string, extra: Partial<BoardCard> = {}): BoardCard {
  return {
    key,
    title: `Title of ${key}`,
    ticket_type: 'task',
    priority: 'medium',
    labels: [],
    assignee: null,
    parent: null,
    progress: null,
    // Cards of one lane rank in the order of their numbers unless a test says otherwise.
    rank: Number(key.split('-')[1]) * 100,
    updated_at: '2025-01-01T00:00:00Z',
    completed_at: null,
    ...extra,
  };
}

/** A card as `GET …/board?keys=` answers it: in the lane `column` (default To Do). */
export function placed(key: string, extra: Partial<PlacedCard> = {}): PlacedCard {
  return { ...card(key), column: 'To Do', ...extra };
}

/** A board Main with To Do, In Progress, Done (empty). */
export function board(): BoardView {
  return {
    board: { name: 'Main' },
    columns: [
      { name: 'To Do', is_done_column: false, ticket_count: 2, cards: [card('A-1'), card('A-2')] },
      { name: 'In Progress', is_done_column: false, ticket_count: 1, cards: [card('A-3')] },
      { name: 'Done', is_done_column: true, ticket_count: 0, cards: [] },
    ],
    complete: true,
  };
}

/** A ticket as get_ticket answers it. */
export function ticket(key: string, extra: Partial<Ticket> = {}): Ticket {
  return {
    id: `id-${key}`,
    key,
    number: Number(key.split('-')[1]),
    title: `Title of ${key}`,
    description: '',
    priority: 'medium',
    ticket_type: 'task',
    column: 'To Do',
    board: 'Main',
    parent: null,
    sub_tickets: [],
    labels: [],
    assignee: null,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    completed_at: null,
    ai_summary: null,
    ...extra,
  };
}

/** The lanes as key lists, to compare whole boards at a glance. */
export function keysOf(view: BoardView): Record<string, string[]> {
  return Object.fromEntries(view.columns.map((lane) => [lane.name, lane.cards.map((c) => c.key)]));
}

/** The lanes' counts. */
export function countsOf(view: BoardView): Record<string, number> {
  return Object.fromEntries(view.columns.map((lane) => [lane.name, lane.ticket_count]));
}
