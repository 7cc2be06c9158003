// The board page's first read, defined once for the service (which names that read in the page's HTML,
// src/app.ts) and the page itself (web/src/board/use-board.ts): which project a page URL shows, the cookie
// that remembers a project's board, and the URL of a board's read. No dependency, so the web UI imports it.
import { projectOfTicketKey } from './ticket-key.ts';

/**
 * The cards per lane a board's first read asks for: a screenful and some scrolling. The rest follows in a
 * second read, so a board's first cards take as long on ten thousand tickets as on fifty.
 */
export const FIRST_CARDS = 50;

/** The most tickets one read of a board's cards by key (`GET …/board?keys=K1,K2…`) may name. */
export const BOARD_KEYS_MAX = 100;

/** The cookie that remembers a project's board (its name, URI-encoded): a cookie, so the service reads it too. */
export const boardCookie = (project: string) => `sb_board_${project}`;

/** The project a page shows its board for, from the URL's decoded path segments: `/projects/{KEY}/board` or `/tickets/{KEY-N}`. */
export function boardPageProject(segments: readonly string[]): string | undefined {
  if (segments[0] === 'projects' && segments[2] === 'board') return segments[1]!.toUpperCase();
  if (segments[0] === 'tickets' && segments.length === 2) return projectOfTicketKey(segments[1]!);
  return undefined;
}

/** The URL of a board's read: `board` by name (default the first board), each lane's first `cards` or all of them. */
export function boardUrlFor(project: string, board: string | undefined, cards?: number): string {
  const query = [board ? `board=${encodeURIComponent(board)}` : '', cards === undefined ? '' : `cards=${cards}`].filter(Boolean).join('&');
  return `/api/projects/${encodeURIComponent(project)}/board${query ? `?${query}` : ''}`;
}
