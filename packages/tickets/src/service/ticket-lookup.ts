import { AppError } from '@switchboard/core';
import type { BoardContext } from './board-context.ts';
import { parseTicketRef } from '../domain/ticket-rules.ts';
import type { Db } from '../store/project-store.ts';
import { ticketByRef, type TicketRow } from '../store/ticket-store.ts';

/** Loads a ticket of the context's project by any id form, or throws not_found. */
export async function requireTicket(ctx: BoardContext, db: Db, raw: string | number, field = 'ticket_id', lock = false): Promise<TicketRow> {
  const ref = parseTicketRef(raw, field);
  if (ref.kind === 'number' && ref.projectKey && ref.projectKey !== ctx.project.key) {
    throw new AppError('not_found', `Ticket ${String(raw)} not found in project ${ctx.project.key}.`);
  }
  const row = await ticketByRef(db, ctx.dialect, ctx.project.id, ref, lock);
  if (!row) throw new AppError('not_found', `Ticket ${String(raw)} not found in project ${ctx.project.key}. Use list_tickets or search to find the right key.`);
  return row;
}
