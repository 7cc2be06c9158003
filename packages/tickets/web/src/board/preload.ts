/**
 * Starts reading the board as soon as the page's script runs, beside the
 * session check and the board's code, instead of after them: on a board of
 * ten thousand tickets the answer is the longest wait of the first load.
 */
import { lastBoard } from '../project-memory.ts';
import { projectOfTicketKey } from '../routes.ts';

const started = new Map<string, Promise<Response>>();

/** The board URL the page at `pathname` + `search` shows first: the `board` query, else the board last shown in this browser. */
export function boardUrlFor(project: string, board: string | undefined): string {
  return `/api/projects/${encodeURIComponent(project)}/board${board ? `?board=${encodeURIComponent(board)}` : ''}`;
}

/** Starts the read for a board or ticket URL (nothing for other pages). */
export function preloadBoard(pathname: string, search: string): void {
  const parts = pathname.split('/').filter(Boolean);
  const project = parts[0] === 'projects' && parts[2] === 'board' ? parts[1]?.toUpperCase() : parts[0] === 'tickets' && parts[1] ? projectOfTicketKey(decodeURIComponent(parts[1])) : undefined;
  if (!project) return;
  const board = new URLSearchParams(search).get('board') ?? lastBoard(project);
  const url = boardUrlFor(project, board);
  started.set(url, fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' }));
}

/** The early read of `url` if one was started (once: later reads go to the service). */
export function takePreloaded(url: string): Promise<Response> | undefined {
  const response = started.get(url);
  started.delete(url);
  return response;
}
