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

export { projectOfTicketKey } from '../../src/domain/ticket-key.ts';

/** A ticket key as the service writes it (`demo-12` → `DEMO-12`). */
export function normalTicketKey(ticketKey: string): string {
  return ticketKey.toUpperCase();
}
