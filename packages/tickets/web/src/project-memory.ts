// The project (and board per project) last used in this browser, so `/` opens where the user left off.
import { boardCookie } from '../../src/domain/board-page.ts';

const PROJECT_KEY = 'switchboard.tickets.project';
const BOARD_KEY = 'switchboard.tickets.board.';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage disabled: `/` then opens the first project.
  }
}

/** Remembers the project being viewed. */
export function rememberProject(key: string): void {
  write(PROJECT_KEY, key);
}

/** The last project used if the user still sees it, else the first by key. */
export function currentProject(keys: string[]): string | undefined {
  const last = read(PROJECT_KEY);
  if (last && keys.includes(last)) return last;
  return [...keys].sort()[0];
}

/** Remembers the board shown for a project (a year; the value URI-encoded, as the service decodes it). */
export function rememberBoard(project: string, board: string): void {
  try {
    // biome-ignore lint/suspicious/noDocumentCookie: a cookie because the service reads it to render the remembered board with the page; the Cookie Store API is not in every browser (Firefox, Safari).
    document.cookie = `${boardCookie(project)}=${encodeURIComponent(board)}; path=/; max-age=31536000; samesite=lax`;
  } catch {
    // Cookies disabled: the first board shows next time.
  }
}

/** The board last shown for a project, if any: the cookie, else what an earlier version kept in storage. */
export function lastBoard(project: string): string | undefined {
  let cookies = '';
  try {
    cookies = document.cookie;
  } catch {
    return read(BOARD_KEY + project) ?? undefined;
  }
  const prefix = `${boardCookie(project)}=`;
  const entry = cookies.split('; ').find((part) => part.startsWith(prefix));
  if (entry) {
    try {
      return decodeURIComponent(entry.slice(prefix.length));
    } catch {
      return undefined;
    }
  }
  return read(BOARD_KEY + project) ?? undefined;
}
