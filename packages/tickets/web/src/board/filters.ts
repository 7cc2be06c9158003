/** The board's filters, kept in the URL query so a filtered board is a link: pure parsing, writing and matching. */
import type { BoardCard } from '../api/types.ts';

/** The active filters; empty strings mean "any". */
export interface BoardFilters {
  type: string;
  priority: string;
  label: string;
  /** A member's email, `none` for unassigned tickets, or empty. */
  assignee: string;
  text: string;
}

/** The query parameter of each filter. */
const PARAMS: Record<keyof BoardFilters, string> = { type: 'type', priority: 'priority', label: 'label', assignee: 'assignee', text: 'q' };

/** The filters a URL query holds. */
export function filtersFromQuery(query: URLSearchParams): BoardFilters {
  return {
    type: query.get(PARAMS.type) ?? '',
    priority: query.get(PARAMS.priority) ?? '',
    label: query.get(PARAMS.label) ?? '',
    assignee: query.get(PARAMS.assignee) ?? '',
    text: query.get(PARAMS.text) ?? '',
  };
}

/** The query with `filters` written into it (empty ones removed); other parameters (the board) stay. */
export function queryWithFilters(query: URLSearchParams, filters: Partial<BoardFilters>): URLSearchParams {
  const next = new URLSearchParams(query);
  for (const [name, value] of Object.entries(filters) as Array<[keyof BoardFilters, string]>) {
    if (value) next.set(PARAMS[name], value);
    else next.delete(PARAMS[name]);
  }
  return next;
}

/** Whether any filter is set. */
export function hasFilters(filters: BoardFilters): boolean {
  return Object.values(filters).some(Boolean);
}

/** A predicate for the cards the filters keep: all set filters must match; text matches the key or any word of the title (case-insensitive). */
export function cardMatcher(filters: BoardFilters): (card: BoardCard) => boolean {
  const words = filters.text.toLowerCase().split(/\s+/).filter(Boolean);
  const label = filters.label.toLowerCase();
  return (card) => {
    if (filters.type && card.ticket_type !== filters.type) return false;
    if (filters.priority && card.priority !== filters.priority) return false;
    if (label && !card.labels.some((l) => l.name.toLowerCase() === label)) return false;
    if (filters.assignee === 'none' ? card.assignee !== null : filters.assignee && card.assignee?.email !== filters.assignee) return false;
    if (words.length > 0) {
      const haystack = `${card.key} ${card.title}`.toLowerCase();
      if (!words.every((word) => haystack.includes(word))) return false;
    }
    return true;
  };
}
