/** One page of a list shown a page at a time: which page (1-based, clamped), how many, and the rows it holds. */
export interface PageSlice {
  /** The page shown: the one asked for, moved into 1..pages (a page emptied by a delete shows the last one left). */
  page: number;
  /** How many pages the rows fill; 1 for an empty list. */
  pages: number;
  /** The first row of the page (0-based, inclusive). */
  start: number;
  /** The row after the page's last (exclusive). */
  end: number;
}

/** The slice of `total` rows that page `page` of `size` rows shows. */
export function pageSlice(total: number, page: number, size: number): PageSlice {
  const perPage = Math.max(1, Math.floor(size));
  const pages = Math.max(1, Math.ceil(total / perPage));
  const shown = Math.min(pages, Math.max(1, Math.floor(page) || 1));
  const start = (shown - 1) * perPage;
  return { page: shown, pages, start, end: Math.min(total, start + perPage) };
}

/** What the pager says between its buttons: `Page 2 of 3 (51–100 of 120)`. */
export function pageStatus(slice: PageSlice, total: number): string {
  return `Page ${slice.page} of ${slice.pages} (${(slice.start + 1).toLocaleString()}–${slice.end.toLocaleString()} of ${total.toLocaleString()})`;
}
