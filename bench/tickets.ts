import type { Suite } from './context.ts';

/** Ticket board scenarios (filled in with the ticket board). */
export const benchTickets: Suite = async () => [];
