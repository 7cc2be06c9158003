/**
 * The live-update reducer: what a batch of change events asks the page to
 * read again. Pure, so the rules (skip replays, one read per ticket however
 * many events name it, the board again for project changes) are unit-tested.
 */
import type { BoardView, ChangeEvent, Ticket } from '../api/types.ts';
import { findCard } from '../board/board-state.ts';

/**
 * Project actions that change what the board shows (its lanes, their names, the
 * labels on cards); members, tokens and settings leave the board as it is.
 */
const BOARD_ACTIONS = new Set([
  'board_created',
  'board_updated',
  'board_deleted',
  'column_created',
  'column_updated',
  'column_deleted',
  'label_updated',
  'label_deleted',
]);

/** What to read again after a batch of events. */
export interface RefreshPlan {
  /** Tickets to read again and place (in the order first named). */
  tickets: string[];
  /** Whether the whole board must be read again (columns, boards, labels or members changed). */
  board: boolean;
  /** Whether documents changed, and which (empty: read the list again). */
  documents: boolean;
  slugs: string[];
  /** The highest sequence number seen, for the next batch's replay check. */
  lastSeq: number;
}

/** The refresh a batch of events asks for; events with a sequence number at or below `lastSeq` were applied already (a replay after a reconnect). */
export function planRefresh(events: readonly ChangeEvent[], lastSeq: number): RefreshPlan {
  const tickets: string[] = [];
  const slugs: string[] = [];
  let board = false;
  let documents = false;
  let seq = lastSeq;
  for (const event of events) {
    if (typeof event.seq === 'number' && event.seq <= lastSeq) continue;
    if (typeof event.seq === 'number') seq = Math.max(seq, event.seq);
    if (event.kind === 'ticket' && event.key) {
      const key = event.key.toUpperCase();
      if (!tickets.includes(key)) tickets.push(key);
    } else if (event.kind === 'document') {
      documents = true;
      if (event.slug && !slugs.includes(event.slug)) slugs.push(event.slug);
    } else if (event.kind !== 'project' || BOARD_ACTIONS.has(event.action)) {
      // A change of the board's shape (columns, boards, labels), or an event this page does not know.
      board = true;
    }
  }
  return { tickets, board, documents, slugs, lastSeq: seq };
}

/**
 * The tickets to read besides the changed ones: the epics whose progress may
 * have changed (the parent a card had before and the one the ticket has now).
 */
export function relatedTickets(view: BoardView | undefined, key: string, parentNow: string | null | undefined): string[] {
  const before = view ? findCard(view, key)?.card.parent : undefined;
  return [...new Set([before, parentNow].filter((parent): parent is string => Boolean(parent)).map((parent) => parent.toUpperCase()))];
}

/** What an open ticket panel shows of its ticket's relations (undefined while it is first read). */
export type PanelRelations = Pick<Ticket, 'parent' | 'sub_tickets'>;

/**
 * Whether the ticket panel of `panelKey` must read its ticket again after the board read `applied` again
 * (the tickets a batch of changes named, and the epics whose progress they may have changed). A change event
 * names only the ticket that changed: a new sub-ticket's event does not name its epic, which the board learns
 * by reading the sub-ticket. So the panel follows the board's reads: its own ticket, its epic, or one of the
 * sub-tickets it shows among them.
 */
export function panelNeedsRead(panelKey: string, shown: PanelRelations | undefined, applied: readonly string[]): boolean {
  const related = new Set(
    [panelKey, shown?.parent?.key, ...(shown?.sub_tickets.map((sub) => sub.key) ?? [])]
      .filter((key): key is string => Boolean(key))
      .map((key) => key.toUpperCase()),
  );
  return applied.some((key) => related.has(key.toUpperCase()));
}
