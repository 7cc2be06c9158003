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

/** The project part of a ticket key (`demo-12` → `DEMO`), or undefined when it is not a key. */
export function projectOfTicketKey(ticketKey: string): string | undefined {
  const match = /^([A-Za-z][A-Za-z0-9]{1,9})-(\d+)$/.exec(ticketKey);
  return match ? match[1].toUpperCase() : undefined;
}

/** A ticket key as the service writes it (`demo-12` → `DEMO-12`). */
export function normalTicketKey(ticketKey: string): string {
  return ticketKey.toUpperCase();
}
