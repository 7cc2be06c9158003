// The console's page URLs and first reads, said once for the service's page preloads and the UI (pure).

/** Conversations the inbox shows first (and the service preloads with the page). */
export const FIRST_CONVERSATIONS = 50;

/** The console's sections, in the navigation's order: `/orgs/{org_id}/{section}`. */
export const CONSOLE_SECTIONS = ['inbox', 'send', 'gateway', 'sims', 'keys'] as const;

/** One section of the console. */
export type ConsoleSection = (typeof CONSOLE_SECTIONS)[number];

/** The inbox's first read, exactly as the page asks for it (a preload is used only by a fetch of the same URL). */
export function firstConversationsUrl(orgId: string): string {
  return `/api/orgs/${encodeURIComponent(orgId)}/conversations?limit=${FIRST_CONVERSATIONS}`;
}

/** The organization and section a page URL's segments name (`/orgs/acme/inbox/%2B1555` → acme, inbox), if any. */
export function consolePage(segments: readonly string[]): { orgId: string; section: string } | undefined {
  if (segments[0] !== 'orgs' || !segments[1]) return undefined;
  return { orgId: segments[1], section: segments[2] ?? 'inbox' };
}
