import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ApiError, useSession } from '@switchboard/web-kit';
import { projectApi } from '../api/client.ts';
import type { DocumentMeta, TicketsSessionExtra } from '../api/types.ts';
import { useProject } from '../project-context.tsx';
import { rememberProject } from '../project-memory.ts';
import { paths, projectOfTicketKey, switchProjectPath } from '../routes.ts';
import { queryAskingNewTicket } from './new-ticket-request.ts';
import { isPaletteShortcut, paletteGroups, ticketKeyOf, type PaletteItem, type PaletteSources, type PaletteTicket } from './palette-items.ts';
import './palette.css';

/** How long typing rests before the service is asked (search, a key's ticket). */
const DEBOUNCE_MS = 150;

// Whether the palette is open: one flag for the page, so the shortcut and the top bar's button open the same one.
let paletteOpen = false;
const openListeners = new Set<() => void>();
function setPaletteOpen(open: boolean): void {
  paletteOpen = open;
  for (const listener of openListeners) listener();
}
const subscribeOpen = (listener: () => void) => {
  openListeners.add(listener);
  return () => void openListeners.delete(listener);
};

/** Opens the command palette (the top bar's button). */
export function openPalette(): void {
  setPaletteOpen(true);
}

/** The top bar's way to the palette, which also shows its shortcut. */
export function PaletteButton() {
  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <button
      type="button"
      className="palette-button"
      onClick={openPalette}
      aria-label="Go to… (command palette)"
      aria-keyshortcuts="Control+K Meta+K"
      title="Command palette (Ctrl+K or ⌘K)"
    >
      <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <circle cx="7" cy="7" r="5" fill="none" stroke="currentColor" strokeWidth="1.8" />
        <path d="M11 11l3.5 3.5" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <span className="palette-button-text">Go to…</span>
      <kbd>{mac ? '⌘K' : 'Ctrl K'}</kbd>
    </button>
  );
}

/**
 * The command palette of a project's pages: Ctrl+K (⌘K) anywhere opens it (in a text field too, since the
 * modifier is held), unless another dialog is open; the same keys close it.
 */
export function CommandPalette() {
  const open = useSyncExternalStore(subscribeOpen, () => paletteOpen);
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (!isPaletteShortcut(event)) return;
      // New ticket, a confirmation: the dialog that is open keeps the keyboard.
      if (!paletteOpen && document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      event.preventDefault();
      setPaletteOpen(!paletteOpen);
    };
    // Capture: a field's own key handling does not hide the shortcut from the palette.
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      setPaletteOpen(false);
    };
  }, []);
  return open ? <PaletteDialog onClose={() => setPaletteOpen(false)} /> : null;
}

/** Reads what the palette matches against: the documents once, the search and a named key as the query rests. */
function usePaletteSources(query: string): PaletteSources & { searching: boolean } {
  const project = useProject();
  const { session } = useSession<TicketsSessionExtra>();
  const [documents, setDocuments] = useState<DocumentMeta[] | undefined>(undefined);
  const [found, setFound] = useState<{ query: string; tickets: PaletteTicket[] } | undefined>(undefined);
  const [named, setNamed] = useState<PaletteSources['named']>(undefined);
  const text = query.trim();
  const key = ticketKeyOf(text, project.key);

  useEffect(() => {
    const controller = new AbortController();
    project.api
      .documents(controller.signal)
      .then(setDocuments)
      .catch(() => setDocuments([]));
    return () => controller.abort();
  }, [project.api]);

  // A title: the service's search (tickets only), once typing rests.
  useEffect(() => {
    if (text.length < 2 || key) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      project.api
        .search(text, 'tickets', controller.signal)
        .then(({ results }) =>
          setFound({ query: text, tickets: results.flatMap((result) => (result.kind === 'ticket' ? [{ key: result.key, title: result.title }] : [])) }),
        )
        .catch(() => {
          if (!controller.signal.aborted) setFound({ query: text, tickets: [] });
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [project.api, text, key]);

  // A key: its ticket's title (in whichever project the key names), or that there is none.
  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      projectApi(projectOfTicketKey(key) ?? project.key)
        .ticket(key, controller.signal)
        .then((ticket) => setNamed({ key, title: ticket.title }))
        .catch((reason) => {
          if (!controller.signal.aborted && reason instanceof ApiError && reason.status === 404) setNamed({ key, missing: true });
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [project.key, key]);

  // Results of an earlier query stay while the next one is on its way, if the new text only adds to it.
  const current = found && text.length >= 2 && !key && text.toLowerCase().startsWith(found.query.toLowerCase()) ? found.tickets : undefined;
  return {
    project: project.key,
    projects: session.projects,
    documents,
    found: current,
    named,
    searching: text.length >= 2 && !key && found?.query !== text,
  };
}

/** The palette itself: a combobox over a grouped listbox; the arrow keys move, Enter runs, Escape closes. */
function PaletteDialog({ onClose }: { onClose: () => void }) {
  const project = useProject();
  const navigate = useNavigate();
  const location = useLocation();
  const prefix = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const sources = usePaletteSources(query);
  const groups = useMemo(() => paletteGroups(query, sources), [query, sources]);
  const items = useMemo(() => groups.flatMap((group) => group.items), [groups]);
  const [activeId, setActiveId] = useState<string | undefined>(undefined);
  const active = items.find((item) => item.id === activeId) ?? items[0];
  const optionId = (item: PaletteItem) => `${prefix}-option-${item.id}`;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    inputRef.current?.focus();
    return () => previous?.focus?.();
  }, []);
  useEffect(() => {
    if (active) document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
  });

  const run = (item: PaletteItem) => {
    onClose();
    const { command } = item;
    // void: under BrowserRouter navigate() returns nothing; the promise its type allows is a data router's.
    if (command.kind === 'go') void navigate(command.to);
    else if (command.kind === 'switch-project') {
      rememberProject(command.project);
      void navigate(switchProjectPath(command.project, location.pathname));
    } else {
      // On the board (or a ticket over it) the dialog opens there; elsewhere on the project's board.
      const onBoard = location.pathname.startsWith('/tickets/') || location.pathname === paths.board(project.key);
      const here = new URLSearchParams(location.search);
      void navigate(onBoard ? `${location.pathname}${queryAskingNewTicket(here)}` : paths.board(project.key, queryAskingNewTicket(new URLSearchParams())));
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const index = active ? items.indexOf(active) : -1;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      const next = items[(index + step + items.length) % Math.max(1, items.length)];
      if (next) setActiveId(next.id);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (active) run(active);
    } else if (event.key === 'Escape') {
      // Only the palette closes (not the ticket panel behind it).
      event.preventDefault();
      event.stopPropagation();
      onClose();
    } else if (event.key === 'Tab') {
      // The field is the palette's one stop: the options are reached with the arrow keys.
      event.preventDefault();
    }
  };

  const key = ticketKeyOf(query, project.key);
  const missing = key && sources.named?.key === key && sources.named.missing;
  let note = '';
  if (missing) note = `No ticket ${key}.`;
  else if (items.length === 0) note = sources.searching ? 'Searching…' : 'Nothing matches.';
  else if (sources.searching) note = 'Searching tickets…';
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a press on the backdrop is the pointer's way to close; the keyboard's is Escape (on the field).
    <div className="dialog-backdrop palette-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette">
        <input
          ref={inputRef}
          className="palette-input"
          role="combobox"
          aria-label="Go to a ticket, page, project or document"
          aria-expanded="true"
          aria-controls={`${prefix}-listbox`}
          aria-autocomplete="list"
          aria-activedescendant={active ? optionId(active) : undefined}
          placeholder="Ticket key or title, page, project, document…"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActiveId(undefined);
          }}
          onKeyDown={onKeyDown}
          autoComplete="off"
          spellCheck={false}
        />
        <div className="palette-results" role="listbox" id={`${prefix}-listbox`} aria-label="Results">
          {groups.map(({ group, items: entries }) => (
            // biome-ignore lint/a11y/useSemanticElements: a group of a listbox's options (ARIA's group inside a listbox); a fieldset groups form fields.
            <div key={group} role="group" aria-labelledby={`${prefix}-group-${group}`} className="palette-group">
              <div role="presentation" id={`${prefix}-group-${group}`} className="palette-heading">
                {group}
              </div>
              {entries.map((item) => (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard reaches an option through the combobox (arrow keys, Enter on the field, aria-activedescendant); the click is the pointer's way.
                <div
                  key={item.id}
                  id={optionId(item)}
                  role="option"
                  aria-selected={item === active}
                  tabIndex={-1}
                  className={`palette-option ${item === active ? 'active' : ''}`}
                  onMouseMove={() => item !== active && setActiveId(item.id)}
                  // The field keeps the focus (and the caret) while the pointer chooses.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => run(item)}
                >
                  <span className={item.group === 'Tickets' ? 'palette-key' : 'palette-label'}>{item.label}</span>
                  {item.detail ? (
                    <>
                      {' '}
                      <span className="palette-detail">{item.detail}</span>
                    </>
                  ) : null}
                </div>
              ))}
            </div>
          ))}
        </div>
        <div className="palette-footer">
          <span role="status">{note}</span>
          <span className="faint" aria-hidden="true">
            ↑↓ move · Enter open · Esc close
          </span>
        </div>
      </div>
    </div>
  );
}
