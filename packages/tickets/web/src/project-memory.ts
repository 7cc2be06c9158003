/** The project (and board per project) last used in this browser, so `/` opens where the user left off. */
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

/** Remembers the board shown for a project. */
export function rememberBoard(project: string, board: string): void {
  write(BOARD_KEY + project, board);
}

/** The board last shown for a project, if any. */
export function lastBoard(project: string): string | undefined {
  return read(BOARD_KEY + project) ?? undefined;
}
