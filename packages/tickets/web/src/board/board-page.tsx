import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
} from '@dnd-kit/core';
import { Button, ErrorState, Loading, useTitle } from '@switchboard/web-kit';
import { useProject } from '../project-context.tsx';
import { lastBoard, rememberBoard } from '../project-memory.ts';
import { paths } from '../routes.ts';
import { announcements, screenReaderInstructions } from './announcements.ts';
import { findCard, ticketTotal, type CardPosition } from './board-state.ts';
import { EmptyBoard } from './empty-board.tsx';
import { FilterBar } from './filter-bar.tsx';
import { cardMatcher, filtersFromQuery, hasFilters, queryWithFilters, type BoardFilters } from './filters.ts';
import { laneCoordinates, shortcutOf } from './keyboard.ts';
import { Lane } from './lane.tsx';
import { CardFace } from './ticket-card.tsx';
import { useBoard } from './use-board.ts';
import { useLaneDrop } from './use-lane-drop.ts';
import { TicketList } from '../list/ticket-list.tsx';
import { ViewToggle, viewFromQuery } from '../list/view-toggle.tsx';
import { useNewTicketRequest } from '../palette/new-ticket-request.ts';

// The panel and the dialog bring the Markdown renderer and editor: loaded when first opened, not with the board.
const TicketPanel = lazy(() => import('../ticket/ticket-panel.tsx').then((module) => ({ default: module.TicketPanel })));
const NewTicketDialog = lazy(() => import('./new-ticket-dialog.tsx').then((module) => ({ default: module.NewTicketDialog })));

// What a screen reader hears while a card is dragged (the outcome of a drop is announced when the service answers).
const accessibility = { screenReaderInstructions, announcements };

// The pointer decides while it is over a lane; the keyboard (no pointer) goes by the card's rectangle.
const collision: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  return hits.length > 0 ? hits : rectIntersection(args);
};

/** **Board**: the lanes of the selected board, filters, **New ticket**, drag and drop, and the ticket panel at `/tickets/{KEY-N}`. */
export default function BoardPage({ ticketKey }: { ticketKey: string | undefined }) {
  const project = useProject();
  const [query, setQuery] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const boards = useMemo(() => [...new Set(project.columns.map((c) => c.board_name))], [project.columns]);
  // The board in the URL, else the one last shown here (read at once: waiting for the board list would read the
  // board twice), as it was when the page opened: remembering the board shown does not read it again.
  const remembered = useMemo(() => lastBoard(project.key), [project.key]);
  const boardName = query.get('board') ?? remembered;
  const board = useBoard(boardName, !query.get('board'));
  const { view } = board;
  const shownBoard = view?.board.name;
  useTitle(ticketKey ?? (shownBoard ? `${shownBoard} board` : 'Board'), `${project.key} · Switchboard Tickets`);
  useEffect(() => {
    if (shownBoard) rememberBoard(project.key, shownBoard);
  }, [project.key, shownBoard]);

  const filters = useMemo(() => filtersFromQuery(query), [query]);
  const filtered = hasFilters(filters);
  const setFilters = useCallback((next: Partial<BoardFilters>) => setQuery((current) => queryWithFilters(current, next), { replace: true }), [setQuery]);
  const lanes = useMemo(() => {
    if (!view) return [];
    const matches = cardMatcher(filters);
    return view.columns.map((lane) => ({ lane, cards: filtered ? lane.cards.filter(matches) : lane.cards }));
  }, [view, filters, filtered]);

  const [creating, setCreating] = useState(false);
  const listView = viewFromQuery(query) === 'list';
  useNewTicketRequest(useCallback(() => setCreating(true), []));
  // Once the board shows, fetch the panel's and the dialog's code in the background, so the first click does not wait for it.
  const shown = Boolean(view);
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => {
      void import('../ticket/ticket-panel.tsx');
      void import('./new-ticket-dialog.tsx');
    }, 300);
    return () => clearTimeout(timer);
  }, [shown]);
  const filterRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const shortcut = shortcutOf({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        target: target
          ? {
              tagName: target.tagName,
              isContentEditable: target.isContentEditable,
              inDialog: Boolean(target.closest?.('[role="dialog"]')) || Boolean(document.querySelector('.dialog-backdrop')),
            }
          : null,
      });
      if (!shortcut || event.defaultPrevented) return;
      event.preventDefault();
      if (shortcut === 'new-ticket') setCreating(true);
      else filterRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // void: under BrowserRouter navigate() returns nothing; the promise its type allows is a data router's.
  const open = useCallback((key: string) => void navigate(paths.ticket(key, location.search)), [navigate, location.search]);
  const close = useCallback(() => navigate(paths.board(project.key, location.search)), [navigate, project.key, location.search]);

  const firstBoard = boards[0];
  const qualify = useCallback(
    (column: string) => (shownBoard && firstBoard && shownBoard !== firstBoard ? `${shownBoard}/${column}` : column),
    [shownBoard, firstBoard],
  );
  const [activeKey, setActiveKey] = useState<string | undefined>(undefined);
  const boardMove = board.move;
  // A card to a place in a lane (a drop on the line between two cards, or Alt+ArrowUp/Down).
  const place = useCallback(
    (key: string, column: string, position?: CardPosition) => void boardMove(key, column, qualify(column), position),
    [boardMove, qualify],
  );
  const drop = useLaneDrop(place);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: laneCoordinates, keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] } }),
  );
  const onDragEnd = (event: DragEndEvent) => {
    setActiveKey(undefined);
    drop.end(event);
  };
  const activeCard = activeKey && view ? findCard(view, activeKey)?.card : undefined;
  const epics = useMemo(() => (view ? view.columns.flatMap((lane) => lane.cards.filter((card) => card.ticket_type === 'epic')) : []), [view]);

  const header = (
    <div className="board-header">
      <h1 className="sr-only">{shownBoard ?? 'Board'}</h1>
      {boards.length > 1 ? (
        <select
          className="select board-switcher"
          aria-label="Board"
          value={shownBoard ?? ''}
          onChange={(event) =>
            setQuery((current) => {
              const next = new URLSearchParams(current);
              next.set('board', event.target.value);
              return next;
            })
          }
        >
          {boards.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      ) : (
        <span className="board-name" aria-hidden="true">
          {shownBoard ?? ''}
        </span>
      )}
      <ViewToggle />
      <FilterBar ref={filterRef} filters={filters} labels={project.labels} members={project.members} onChange={setFilters} />
      <Button variant="primary" onClick={() => setCreating(true)} aria-keyshortcuts="c" title="New ticket (c)">
        New ticket
      </Button>
    </div>
  );

  let body: ReactNode;
  if (board.error && !view) body = <ErrorState error={board.error} onRetry={board.reload} title="The board could not be loaded" />;
  else if (!view) body = <Loading label="Loading the board…" />;
  else
    body = (
      <>
        {board.error ? (
          <div className="notice danger board-notice" role="alert">
            <span>Not every card could be loaded: {board.error.message}</span>
            <Button small variant="ghost" onClick={board.reload}>
              Retry
            </Button>
          </div>
        ) : null}
        {board.refusal ? (
          <div className="notice danger board-notice" role="alert">
            <span>
              <strong>{board.refusal.key}</strong> could not move to {board.refusal.column}: {board.refusal.message}
            </span>
            <Button small variant="ghost" onClick={board.dismissRefusal} aria-label="Dismiss">
              ×
            </Button>
          </div>
        ) : null}
        <div className="sr-only" role="status">
          {board.moved}
        </div>
        {listView ? (
          <TicketList
            lanes={lanes}
            filtered={filtered}
            total={ticketTotal(view)}
            complete={view.complete}
            selectedKey={ticketKey}
            onOpen={open}
            onNewTicket={() => setCreating(true)}
            onClearFilters={() => setFilters({ type: '', priority: '', label: '', assignee: '', text: '' })}
          />
        ) : null}
        {!listView && ticketTotal(view) === 0 ? <EmptyBoard onNewTicket={() => setCreating(true)} /> : null}
        {listView ? null : (
          <DndContext
            sensors={sensors}
            collisionDetection={collision}
            accessibility={accessibility}
            onDragStart={(event) => setActiveKey(String(event.active.id))}
            onDragCancel={() => {
              setActiveKey(undefined);
              drop.cancel();
            }}
            onDragMove={drop.track}
            onDragOver={drop.track}
            onDragEnd={onDragEnd}
          >
            <div className="lanes">
              {lanes.map(({ lane, cards }) => (
                <Lane
                  // Each prop is named as Lane names it: a run of name={name} lines, not a copy of anything.
                  key={lane.name}
                  lane={lane}
                  cards={cards}
                  filtered={filtered}
                  activeKey={activeKey}
                  selectedKey={ticketKey}
                  refusedKey={board.refusal?.key}
                  onOpen={open}
                  dropSlot={drop.slot?.column === lane.name ? drop.slot : undefined}
                  onPlace={place}
                />
              ))}
            </div>
            <DragOverlay dropAnimation={null}>
              {activeCard ? (
                <div className="ticket-card overlay">
                  <CardFace card={activeCard} />
                </div>
              ) : null}
            </DragOverlay>
          </DndContext>
        )}
      </>
    );

  return (
    <div className={`board-page ${ticketKey ? 'with-panel' : ''}`}>
      <div className="board-main">
        {header}
        {body}
      </div>
      {ticketKey ? (
        <Suspense
          fallback={
            <aside className="ticket-panel" aria-label={`Ticket ${ticketKey}`}>
              <Loading label="Loading the ticket…" />
            </aside>
          }
        >
          <TicketPanel
            key={ticketKey}
            ticketKey={ticketKey}
            onClose={close}
            epics={epics}
            onChanged={board.placeChanged}
            onOpen={open}
            qualify={qualify}
            onTicketsRead={board.onTicketsRead}
          />
        </Suspense>
      ) : null}
      {creating && view ? (
        <Suspense fallback={null}>
          <NewTicketDialog
            columns={view.columns.map((lane) => lane.name)}
            defaultColumn={view.columns[0]?.name}
            epics={epics}
            qualify={qualify}
            onClose={() => setCreating(false)}
            onCreated={(ticket) => {
              setCreating(false);
              board.placeChanged(ticket);
              open(ticket.key);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
