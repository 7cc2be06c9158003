// What a ticket key is (`DEMO-12`: the project's key, a dash, the ticket's number), with no dependency, so the
// web UI's routes and the service's page preloads read keys by the same rule as the tools do.

/** A ticket key in any case: the project key (a letter, then 1 to 9 letters or digits) and the number. */
export const TICKET_KEY = /^([A-Za-z][A-Za-z0-9]{1,9})-(\d{1,9})$/;

/** The project part of a ticket key (`demo-12` → `DEMO`), or undefined when it is not a key. */
export function projectOfTicketKey(text: string): string | undefined {
  const match = TICKET_KEY.exec(text);
  return match ? match[1]!.toUpperCase() : undefined;
}
