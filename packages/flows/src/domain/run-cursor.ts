/**
 * Paging of the runs list. A page ends with a cursor naming its last run,
 * `STARTED_AT~RUN_ID`, and `before=CURSOR` gives the runs after it in the
 * list's order (newest first by start, then by id), so runs that started in
 * the same millisecond are neither repeated nor skipped. `before` also takes
 * a plain timestamp, as it always has: the runs started before it.
 */

/** Where a page of runs starts: before a run (`id` set) or before a time. */
export interface RunsBefore {
  startedAt: string;
  id?: string;
}

const SEPARATOR = '~';

/** The cursor of the page that follows the run started at `startedAt` with this id. */
export function runCursor(startedAt: string, id: string): string {
  return `${startedAt}${SEPARATOR}${id}`;
}

/** Reads `before`: a cursor from `next_before`, or a timestamp. */
export function parseRunsBefore(before: string): RunsBefore {
  const at = before.indexOf(SEPARATOR);
  if (at < 0) return { startedAt: before };
  return { startedAt: before.slice(0, at), id: before.slice(at + 1) };
}
