import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '@switchboard/web-kit';
import type { BoardCards, BoardView, Ticket } from '../api/types.ts';
import { planRefresh, relatedTickets } from '../live/live-plan.ts';
import { useLiveChanges, useProject } from '../project-context.tsx';
import { movedAnnouncement, placedAnnouncement } from './announcements.ts';
import { findCard, moveCard, placeCard, rollbackMove, type CardPosition } from './board-state.ts';
import { BOARD_KEYS_MAX, FIRST_CARDS } from '../../../src/domain/board-page.ts';

/** A move the service refused: the card is back where it was and this says why. */
export interface Refusal {
  key: string;
  column: string;
  message: string;
}

/**
 * The board of `boardName` (undefined: the first board), kept current by the
 * project's live changes. A remembered board that no longer exists (`fallback`)
 * gives way to the first board.
 */
export function useBoard(requested: string | undefined, fallback = false) {
  const { api } = useProject();
  const [view, setView] = useState<BoardView | undefined>(undefined);
  const [error, setError] = useState<Error | undefined>(undefined);
  const [refusal, setRefusal] = useState<Refusal | undefined>(undefined);
  // The last move the service took, as a screen reader hears it (a refusal is the page's alert).
  const [moved, setMoved] = useState('');
  const [generation, setGeneration] = useState(0);
  const [gone, setGone] = useState<string | undefined>(undefined);
  const boardName = fallback && gone === requested ? undefined : requested;
  const viewRef = useRef(view);
  viewRef.current = view;
  const lastSeq = useRef(0);
  // The newest read of each ticket wins: an older answer arriving late is dropped.
  const reads = useRef(new Map<string, number>());

  // While the whole board is being read after its first cards: the tickets changed meanwhile, read again once it lands.
  const wholePending = useRef(false);
  const touched = useRef(new Set<string>());
  const refreshRef = useRef<(keys: string[]) => Promise<unknown>>(async () => {});
  const reloading = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: generation is how reload() asks for another read.
  useEffect(() => {
    const controller = new AbortController();
    // A board opened (or switched to) shows each lane's first cards, then the rest; a reload reads it whole.
    const progressive = !reloading.current;
    reloading.current = false;
    const readWhole = async () => {
      wholePending.current = true;
      touched.current.clear();
      const whole = await api.board(boardName, controller.signal);
      if (controller.signal.aborted) return;
      wholePending.current = false;
      setView(whole);
      setError(undefined);
      const again = [...touched.current];
      touched.current.clear();
      if (again.length > 0) void refreshRef.current(again);
    };
    const read = async () => {
      if (!progressive) return readWhole();
      const first = await api.board(boardName, controller.signal, FIRST_CARDS);
      if (controller.signal.aborted) return;
      setView(first);
      setError(undefined);
      if (!first.complete) await readWhole();
    };
    read().catch((reason: Error) => {
      if (controller.signal.aborted || reason.name === 'AbortError') return;
      if (fallback && boardName && reason instanceof ApiError && reason.status === 400) {
        setGone(boardName);
        return;
      }
      setError(reason);
    });
    return () => {
      controller.abort();
      wholePending.current = false;
    };
  }, [api, boardName, generation, fallback]);

  const reload = useCallback(() => {
    reloading.current = true;
    setGeneration((n) => n + 1);
  }, []);

  /**
   * Reads the cards of these tickets again (one request per BOARD_KEYS_MAX of them, `GET …/board?keys=`) and
   * places them where their lane and rank say; a ticket no longer on the board (deleted, or moved to another
   * board) leaves it. Answers the epics to read after them.
   */
  const readAndPlace = useCallback(
    async (keys: string[]) => {
      if (wholePending.current) for (const key of keys) touched.current.add(key);
      const board = viewRef.current?.board.name;
      if (board === undefined) return [];
      const related = new Set<string>();
      const chunks = Array.from({ length: Math.ceil(keys.length / BOARD_KEYS_MAX) }, (_, i) => keys.slice(i * BOARD_KEYS_MAX, (i + 1) * BOARD_KEYS_MAX));
      await Promise.all(
        chunks.map(async (chunk) => {
          const asked = new Map(chunk.map((key) => [key, (reads.current.get(key) ?? 0) + 1]));
          for (const [key, read] of asked) reads.current.set(key, read);
          let answer: BoardCards;
          try {
            answer = await api.cards(board, chunk);
          } catch {
            // The board renamed or deleted meanwhile: its project event reads the board again.
            return;
          }
          const cards = new Map(answer.cards.map((card) => [card.key.toUpperCase(), card]));
          const fresh = chunk.filter((key) => reads.current.get(key) === asked.get(key));
          // The epics before and after (their progress); an epic's sub-tickets change their card's parent when it is deleted or converted.
          for (const key of fresh) for (const parent of relatedTickets(viewRef.current, key, cards.get(key)?.parent)) related.add(parent);
          setView((current) =>
            current && current.board.name === answer.board.name ? fresh.reduce((view, key) => placeCard(view, key, cards.get(key)), current) : current,
          );
        }),
      );
      return [...related];
    },
    [api],
  );

  /** Reads tickets again and places them, then the epics whose progress they may have changed; answers every ticket read. */
  const refreshTickets = useCallback(
    async (changed: string[]) => {
      const read = changed.map((key) => key.toUpperCase());
      let next = read.slice();
      while (next.length > 0) {
        next = (await readAndPlace(next)).filter((key) => !read.includes(key));
        read.push(...next);
      }
      return read;
    },
    [readAndPlace],
  );

  // Who follows the tickets the board read again after live changes (an open ticket panel).
  const readListeners = useRef(new Set<(keys: readonly string[]) => void>());
  /** Follows the tickets the board reads again after each batch of live changes; answers the function that stops. */
  const onTicketsRead = useCallback((listener: (keys: readonly string[]) => void) => {
    readListeners.current.add(listener);
    return () => void readListeners.current.delete(listener);
  }, []);

  refreshRef.current = refreshTickets;

  useLiveChanges({
    changes: (events) => {
      const plan = planRefresh(events, lastSeq.current);
      lastSeq.current = plan.lastSeq;
      if (plan.board) reload();
      else if (plan.tickets.length > 0)
        void refreshTickets(plan.tickets).then((read) => {
          for (const listener of readListeners.current) listener(read);
        });
    },
    resync: reload,
  });

  /**
   * Moves a card optimistically to `position` in the lane `column` (another lane, or its own to reorder it); a
   * refusal puts it back and says why. `qualified` is the column's name as move_ticket takes it.
   */
  const move = useCallback(
    async (key: string, column: string, qualified: string, position?: CardPosition) => {
      const current = viewRef.current;
      if (!current) return;
      const { view: next, from } = moveCard(current, key, column, position);
      if (!from) return;
      if (wholePending.current) touched.current.add(key);
      setRefusal(undefined);
      setMoved('');
      setView(next);
      try {
        const ticket = await api.moveTicket(key, qualified, position);
        setMoved(position ? placedAnnouncement(key, position, ticket.column ?? column) : movedAnnouncement(key, ticket.column ?? column));
        await refreshTickets([key]);
      } catch (reason) {
        setView((latest) => (latest ? rollbackMove(latest, key, from) : latest));
        setRefusal({ key, column, message: (reason as Error).message });
      }
    },
    [api, refreshTickets],
  );

  /** Places a ticket the page itself just created or changed (the live event will confirm it). */
  const placeChanged = useCallback((ticket: Ticket) => void refreshTickets([ticket.key]), [refreshTickets]);

  return {
    view,
    error,
    reload,
    move,
    refusal,
    moved,
    dismissRefusal: () => setRefusal(undefined),
    placeChanged,
    onTicketsRead,
    findCard: (key: string) => (viewRef.current ? findCard(viewRef.current, key) : undefined),
  };
}
