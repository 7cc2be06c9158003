/**
 * What the command palette offers for what was typed: tickets (a key goes straight to its ticket; a title is
 * found by the service's search), **New ticket**, the pages, the other projects and the documents, grouped
 * and ranked. Pure, so the matching is unit-tested; the palette fetches the sources and runs the commands.
 */
import type { DocumentMeta, ProjectRef } from '../api/types.ts';
import { paths, SETTINGS_TABS } from '../routes.ts';
import { TICKET_KEY } from '../../../src/domain/ticket-key.ts';

/** The groups, in the order they are shown. */
export const PALETTE_GROUPS = ['Tickets', 'Actions', 'Pages', 'Projects', 'Documents'] as const;
/** A group's heading. */
export type PaletteGroup = (typeof PALETTE_GROUPS)[number];

/** What choosing an entry does. */
export type PaletteCommand = { kind: 'go'; to: string } | { kind: 'new-ticket' } | { kind: 'switch-project'; project: string };

/** One entry of the palette. */
export interface PaletteItem {
  /** Unique among the entries shown (the option's id is made from it). */
  id: string;
  group: PaletteGroup;
  label: string;
  /** Shown after the label, fainter (a ticket's title, a project's key). */
  detail?: string;
  /** Words it is also found by. */
  keywords?: string;
  command: PaletteCommand;
}

/** A ticket the palette can show: its key and, once known, its title. */
export interface PaletteTicket {
  key: string;
  title?: string;
}

/** What the palette knows when it matches. */
export interface PaletteSources {
  /** The current project's key. */
  project: string;
  /** The projects the user may see. */
  projects: readonly ProjectRef[];
  /** The current project's documents (undefined while they load). */
  documents?: readonly DocumentMeta[];
  /** The tickets the service's search found for the query. */
  found?: readonly PaletteTicket[];
  /** The ticket the query names by key, once looked up; `missing` when there is none. */
  named?: PaletteTicket & { missing?: boolean };
}

/** Most entries a group shows. */
const GROUP_LIMIT: Record<PaletteGroup, number> = { Tickets: 8, Actions: 5, Pages: 12, Projects: 8, Documents: 6 };

/** The parts of a key press the shortcut looks at. */
export interface ShortcutPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** Ctrl+K or ⌘K (with no other modifier) opens and closes the palette, wherever the focus is: the modifier says it is no typing. */
export function isPaletteShortcut(press: ShortcutPress): boolean {
  return (press.ctrlKey || press.metaKey) && !press.altKey && !press.shiftKey && press.key.toLowerCase() === 'k';
}

/**
 * The ticket key a query names: `DEMO-12` (any case, any project), or a bare number (`12`, `#12`) in the
 * current project. Undefined for anything else.
 */
export function ticketKeyOf(query: string, project: string): string | undefined {
  const text = query.trim();
  if (TICKET_KEY.test(text)) return text.toUpperCase();
  const number = /^#?(\d{1,9})$/.exec(text);
  return number ? `${project}-${Number(number[1])}` : undefined;
}

/**
 * How well `query` matches `text`: 0 not at all (every word of the query must be in it), 3 when the text
 * starts with the whole query, 2 when each word starts a word of the text, else 1. An empty query matches
 * everything (1).
 */
export function matchScore(query: string, text: string): number {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 1;
  const haystack = text.toLowerCase();
  if (!words.every((word) => haystack.includes(word))) return 0;
  if (haystack.startsWith(query.trim().toLowerCase())) return 3;
  const starts = haystack.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words.every((word) => starts.some((start) => start.startsWith(word))) ? 2 : 1;
}

/** The fixed entries: **New ticket** and the pages of the current project. */
function fixedItems(project: string, query: string): PaletteItem[] {
  const text = query.trim();
  const pages: PaletteItem[] = [
    { id: 'page-board', group: 'Pages', label: 'Board', keywords: 'lanes kanban', command: { kind: 'go', to: paths.board(project) } },
    { id: 'page-list', group: 'Pages', label: 'List', keywords: 'table tickets', command: { kind: 'go', to: paths.board(project, '?view=list') } },
    { id: 'page-documents', group: 'Pages', label: 'Documents', keywords: 'docs wiki', command: { kind: 'go', to: paths.documents(project) } },
    {
      id: 'page-search',
      group: 'Pages',
      label: text ? `Search for “${text}”` : 'Search',
      keywords: 'search find',
      command: { kind: 'go', to: paths.search(project, text ? `?q=${encodeURIComponent(text)}` : '') },
    },
    ...SETTINGS_TABS.map((tab) => ({
      id: `page-settings-${tab.id}`,
      group: 'Pages' as const,
      label: `Settings: ${tab.label}`,
      keywords: tab.id === 'mcp' ? 'token agent claude cursor' : '',
      command: { kind: 'go' as const, to: paths.settings(project, tab.id) },
    })),
  ];
  return [{ id: 'new-ticket', group: 'Actions', label: 'New ticket', keywords: 'create add', command: { kind: 'new-ticket' } }, ...pages];
}

/**
 * The entries for `query`, grouped, best matches first in each group, and the group with the best match first
 * (equal ones in PALETTE_GROUPS order), so Enter on what was typed runs the best match; empty groups left out.
 */
export function paletteGroups(query: string, sources: PaletteSources): Array<{ group: PaletteGroup; items: PaletteItem[] }> {
  const scored: Array<{ item: PaletteItem; score: number }> = [];
  const add = (item: PaletteItem, score: number) => {
    if (score > 0) scored.push({ item, score });
  };
  const key = ticketKeyOf(query, sources.project);
  if (key && !(sources.named?.key === key && sources.named.missing)) {
    const title = sources.named?.key === key ? sources.named.title : undefined;
    add({ id: `ticket-${key}`, group: 'Tickets', label: key, detail: title, command: { kind: 'go', to: paths.ticket(key) } }, 4);
  }
  for (const ticket of sources.found ?? []) {
    if (ticket.key === key) continue;
    // The service found its words (in the title or the description): a match as good as a word's start.
    add({ id: `ticket-${ticket.key}`, group: 'Tickets', label: ticket.key, detail: ticket.title, command: { kind: 'go', to: paths.ticket(ticket.key) } }, 2);
  }
  for (const item of fixedItems(sources.project, query)) {
    // "Search for …" is offered for any text.
    const score = item.id === 'page-search' && query.trim() ? 1 : matchScore(query, `${item.label} ${item.keywords ?? ''}`);
    add(item, score);
  }
  for (const project of sources.projects) {
    if (project.key === sources.project) continue;
    const item: PaletteItem = {
      id: `project-${project.key}`,
      group: 'Projects',
      label: `Switch to ${project.name}`,
      detail: project.key,
      keywords: `project ${project.key}`,
      command: { kind: 'switch-project', project: project.key },
    };
    add(item, Math.max(matchScore(query, project.name), matchScore(query, `${item.label} ${item.detail} ${item.keywords}`)));
  }
  for (const document of sources.documents ?? []) {
    const item: PaletteItem = {
      id: `document-${document.slug}`,
      group: 'Documents',
      label: document.title,
      detail: document.doc_type,
      command: { kind: 'go', to: paths.document(sources.project, document.slug) },
    };
    add(item, matchScore(query, `${document.title} ${document.slug}`));
  }
  // Array.prototype.sort is stable: equal scores keep the order they were added in, equal groups PALETTE_GROUPS'.
  scored.sort((a, b) => b.score - a.score);
  return PALETTE_GROUPS.map((group) => ({ group, entries: scored.filter((entry) => entry.item.group === group).slice(0, GROUP_LIMIT[group]) }))
    .filter(({ entries }) => entries.length > 0)
    .sort((a, b) => b.entries[0]!.score - a.entries[0]!.score)
    .map(({ group, entries }) => ({ group, items: entries.map((entry) => entry.item) }));
}
