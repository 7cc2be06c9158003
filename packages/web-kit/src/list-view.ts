/** What a list shows of its rows: those matching the search box, in the order of the sorted column. Pure. */

/** A column's sort: ascending or descending. */
export type SortDirection = 'ascending' | 'descending';

/** How rows are found and ordered. */
export interface ListQuery<T> {
  /** What the user typed in the search box. */
  search?: string;
  /** The text a row is searched in (its name, slug, description…). */
  text?: (row: T) => string;
  /** The sorted column's key of a row, and the direction. */
  sort?: { key: (row: T) => string | number | null | undefined; direction: SortDirection };
}

/**
 * The rows whose text holds every word of the search (case and accents
 * ignored), sorted by the key (texts by the user's locale, numbers as
 * numbers, empty keys last either way; ties keep their order).
 */
export function listView<T>(rows: readonly T[], query: ListQuery<T>): T[] {
  const words = fold(query.search ?? '')
    .split(/\s+/)
    .filter(Boolean);
  const text = query.text;
  let shown = words.length > 0 && text ? rows.filter((row) => words.every((word) => fold(text(row)).includes(word))) : [...rows];
  const sort = query.sort;
  if (sort) {
    const sign = sort.direction === 'ascending' ? 1 : -1;
    const keyed = shown.map((row, index) => ({ row, index, key: sort.key(row) }));
    keyed.sort((a, b) => {
      const missingA = a.key === null || a.key === undefined || a.key === '';
      const missingB = b.key === null || b.key === undefined || b.key === '';
      if (missingA || missingB) return missingA === missingB ? a.index - b.index : missingA ? 1 : -1;
      const order =
        typeof a.key === 'number' && typeof b.key === 'number'
          ? a.key - b.key
          : String(a.key).localeCompare(String(b.key), undefined, { numeric: true, sensitivity: 'base' });
      return order === 0 ? a.index - b.index : sign * order;
    });
    shown = keyed.map((k) => k.row);
  }
  return shown;
}

/** Lower case without accents, for matching. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}
