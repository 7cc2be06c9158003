/** The UI's URLs, in one place: every page has its own, the project in it; a ticket opens at `/tickets/{KEY-N}`. */

const enc = encodeURIComponent;

/** URLs of one project's pages. */
export const paths = {
  board: (project: string, query = '') => `/projects/${enc(project)}/board${query}`,
  ticket: (ticketKey: string, query = '') => `/tickets/${enc(ticketKey)}${query}`,
  documents: (project: string) => `/projects/${enc(project)}/documents`,
  document: (project: string, slug: string) => `/projects/${enc(project)}/documents/${enc(slug)}`,
  search: (project: string, query = '') => `/projects/${enc(project)}/search${query}`,
  settings: (project: string, tab = 'boards') => `/projects/${enc(project)}/settings/${tab}`,
};

/** The settings sections, each at its own URL (`/projects/{KEY}/settings/{tab}`). */
export const SETTINGS_TABS = [
  { id: 'boards', label: 'Boards and columns' },
  { id: 'labels', label: 'Labels' },
  { id: 'members', label: 'Members' },
  { id: 'auto-summary', label: 'Auto-Summary' },
  { id: 'mcp', label: 'MCP Connection' },
] as const;

/** Where switching to project `next` goes from `pathname`: the same section there; a ticket or a document goes to its list. */
export function switchProjectPath(next: string, pathname: string): string {
  const section = pathname.startsWith('/tickets/') ? 'board' : (pathname.split('/')[3] ?? 'board');
  return `/projects/${enc(next)}/${section}`;
}

export { projectOfTicketKey } from '../../src/domain/ticket-key.ts';

/** A ticket key as the service writes it (`demo-12` → `DEMO-12`). */
export function normalTicketKey(ticketKey: string): string {
  return ticketKey.toUpperCase();
}
