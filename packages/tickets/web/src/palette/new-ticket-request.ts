// **New ticket** asked for from outside the board (the command palette, on any page): the board's URL with
// `new=ticket`, which the board page answers by opening its dialog and taking the parameter out again.
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';

/** The query parameter that asks the board page for **New ticket**. */
export const NEW_TICKET_PARAM = 'new';

/** The query of a board URL that opens **New ticket** (the board's other parameters kept). */
export function queryAskingNewTicket(query: URLSearchParams): string {
  const next = new URLSearchParams(query);
  next.set(NEW_TICKET_PARAM, 'ticket');
  return `?${next.toString()}`;
}

/** On the board page: opens **New ticket** (`open`) when the URL asks for it, and drops the request from the URL. */
export function useNewTicketRequest(open: () => void): void {
  const [query, setQuery] = useSearchParams();
  const asked = query.get(NEW_TICKET_PARAM) === 'ticket';
  useEffect(() => {
    if (!asked) return;
    open();
    setQuery(
      (latest) => {
        const next = new URLSearchParams(latest);
        next.delete(NEW_TICKET_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [asked, open, setQuery]);
}
