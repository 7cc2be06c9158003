/**
 * Starts reading the board as soon as the page's script runs, beside the
 * session check and the board's code, instead of after them: on a board of
 * ten thousand tickets the answer is the longest wait of the first load.
 */
import { lastBoard } from '../project-memory.ts';
import { projectOfTicketKey } from '../routes.ts';

const started = new Map<string, Promise<Response>>();

/**
 * The cards per lane a board's first read asks for: a screenful and some scrolling. The rest follows in a
 * second read (board/use-board.ts), so a board's first cards take as long on ten thousand tickets as on fifty.
 * The service's page preloads ask for the same (ticketsPagePreloads in src/app.ts).
 */
export const FIRST_CARDS = 50;

/** The URL of a board's read: `board` by name (default the first board), each lane's first `cards` or all of them. */
export function boardUrlFor(project: string, board: string | undefined, cards?: number): string {
  const query = [board ? `board=${encodeURIComponent(board)}` : '', cards === undefined ? '' : `cards=${cards}`].filter(Boolean).join('&');
  return `/api/projects/${encodeURIComponent(project)}/board${query ? `?${query}` : ''}`;
}

/** Starts the first read for a board or ticket URL (nothing for other pages). */
export function preloadBoard(pathname: string, search: string): void {
  const parts = pathname.split('/').filter(Boolean);
  const project = parts[0] === 'projects' && parts[2] === 'board' ? parts[1]?.toUpperCase() : parts[0] === 'tickets' && parts[1] ? projectOfTicketKey(decodeURIComponent(parts[1])) : undefined;
  if (!project) return;
  const board = new URLSearchParams(search).get('board') ?? lastBoard(project);
  const url = boardUrlFor(project, board, FIRST_CARDS);
  started.set(url, fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' }));
}

/** The early read of `url` if one was started (once: later reads go to the service). */
export function takePreloaded(url: string): Promise<Response> | undefined {
  const response = started.get(url);
  started.delete(url);
  return response;
}
