import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError, Button, ConfirmDialog, ErrorState, Loading, useToast } from '@switchboard/web-kit';
import type { BoardCard, Ticket, TicketDetail } from '../api/types.ts';
import type { TicketChanges } from '../api/client.ts';
import type { TaskToggle } from '../../../src/domain/task-list.ts';
import { panelNeedsRead } from '../live/live-plan.ts';
import { useLiveChanges, useProject } from '../project-context.tsx';
import { TicketFields, TitleEditor } from './ticket-fields.tsx';
import { ActivityList, AiSummary, Comments, Description, SubTickets } from './ticket-sections.tsx';

/**
 * The ticket panel beside the board (`/tickets/{KEY-N}`): every field is
 * edited in place, and changes by others (an agent over MCP) arrive live
 * without touching what is being typed.
 */
export function TicketPanel({
  ticketKey,
  onClose,
  epics,
  onChanged,
  onOpen,
  qualify,
  onTicketsRead,
}: {
  ticketKey: string;
  onClose: () => void;
  epics: BoardCard[];
  onChanged: (ticket: Ticket) => void;
  onOpen: (key: string) => void;
  qualify: (column: string) => string;
  /** Follows the tickets the board reads again after live changes (useBoard's onTicketsRead). */
  onTicketsRead: (listener: (keys: readonly string[]) => void) => () => void;
}) {
  const { api } = useProject();
  const notify = useToast();
  const [ticket, setTicket] = useState<TicketDetail | undefined>(undefined);
  const [error, setError] = useState<Error | undefined>(undefined);
  const [actionError, setActionError] = useState('');
  const [deleting, setDeleting] = useState(false);
  const reads = useRef(0);
  const ticketRef = useRef(ticket);
  ticketRef.current = ticket;

  const load = useCallback(async () => {
    const read = ++reads.current;
    try {
      const loaded = await api.ticket(ticketKey);
      if (read !== reads.current) return;
      setTicket(loaded);
      setError(undefined);
    } catch (reason) {
      if (read !== reads.current) return;
      setError(reason as Error);
    }
  }, [api, ticketKey]);

  useEffect(() => {
    void load();
  }, [load]);

  // A ticket change reaches the panel through the board, which reads each changed ticket and the epics whose
  // progress it changed (an event names only the ticket that changed, not a new sub-ticket's epic): the panel
  // reads its ticket again when it, its epic or one of its sub-tickets is among them.
  useEffect(
    () =>
      onTicketsRead((keys) => {
        if (panelNeedsRead(ticketKey, ticketRef.current, keys)) void load();
      }),
    [onTicketsRead, ticketKey, load],
  );
  // Project changes (columns renamed, labels) and a stream that could not catch up: read it again.
  useLiveChanges({
    changes: (events) => {
      if (events.some((event) => event.kind === 'project')) void load();
    },
    resync: () => void load(),
  });

  // Escape closes the panel unless it was pressed in a field or a dialog.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.closest('input, textarea, select, [role="dialog"]') || document.querySelector('.dialog-backdrop'))) return;
      onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  /** Runs a write, then reads the ticket again (new activity) and tells the board. */
  const run = useCallback(
    async (write: () => Promise<unknown>) => {
      setActionError('');
      try {
        await write();
        const fresh = await api.ticket(ticketKey);
        reads.current++;
        setTicket(fresh);
        onChanged(fresh);
        return true;
      } catch (reason) {
        if (reason instanceof ApiError && reason.status === 404) void load();
        setActionError((reason as Error).message);
        return false;
      }
    },
    [api, ticketKey, onChanged, load],
  );

  const update = useCallback((changes: TicketChanges) => run(() => api.updateTicket(ticketKey, changes)), [run, api, ticketKey]);

  /** Checks or unchecks one task item of the description as shown; refused (it changed meanwhile): the fresh text is read. */
  const toggleTask = useCallback(
    async (toggle: TaskToggle) => {
      try {
        await api.updateTicket(ticketKey, { toggle_task: { ...toggle, seen_updated_at: ticketRef.current?.updated_at } });
      } catch (reason) {
        void load();
        throw reason;
      }
      const fresh = await api.ticket(ticketKey);
      reads.current++;
      setTicket(fresh);
      onChanged(fresh);
    },
    [api, ticketKey, load, onChanged],
  );

  let body: ReactNode;
  if (error && !ticket) {
    body =
      error instanceof ApiError && error.status === 404 ? (
        <div className="state">
          <h2>Ticket not found</h2>
          <div>{ticketKey} does not exist (it may have been deleted), or you do not have access to it.</div>
        </div>
      ) : (
        <ErrorState error={error} onRetry={() => void load()} title="The ticket could not be loaded" />
      );
  } else if (!ticket) {
    body = <Loading label="Loading the ticket…" />;
  } else {
    body = (
      <div className="panel-body">
        {error instanceof ApiError && error.status === 404 ? (
          <div className="notice warning" role="alert">
            This ticket was deleted.
          </div>
        ) : null}
        {actionError ? (
          <div className="form-error" role="alert">
            {actionError}
          </div>
        ) : null}
        <TitleEditor title={ticket.title} onSave={(title) => update({ title })} />
        <TicketFields ticket={ticket} epics={epics} update={update} run={run} qualify={qualify} onOpen={onOpen} />
        <Description description={ticket.description} onSave={(description) => update({ description })} onToggleTask={toggleTask} />
        <AiSummary ticket={ticket} />
        {ticket.parent ? null : <SubTickets ticket={ticket} onOpen={onOpen} run={run} />}
        <Comments ticket={ticket} run={run} />
        <ActivityList activity={ticket.activity} />
      </div>
    );
  }

  return (
    <aside className="ticket-panel" aria-label={`Ticket ${ticketKey}`}>
      <div className="panel-header">
        <span className="panel-key mono">{ticketKey}</span>
        {ticket ? <span className="faint panel-where">{ticket.board && ticket.column ? `${ticket.board} / ${ticket.column}` : ''}</span> : null}
        <div className="row" style={{ marginLeft: 'auto' }}>
          {ticket ? (
            <Button small variant="danger" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          ) : null}
          <Button small variant="ghost" onClick={onClose} aria-label="Close" title="Close (Esc)">
            ✕
          </Button>
        </div>
      </div>
      {body}
      {deleting && ticket ? (
        <ConfirmDialog
          title={`Delete ${ticket.key}?`}
          message={
            <>
              The ticket, its comments and its activity are deleted for good; its number is not reused.
              {ticket.sub_tickets.length > 0 ? ` Its ${ticket.sub_tickets.length} sub-tickets become standalone tickets.` : ''}
            </>
          }
          confirmLabel="Delete"
          onCancel={() => setDeleting(false)}
          onConfirm={async () => {
            try {
              await api.deleteTicket(ticket.key);
              notify(`${ticket.key} deleted`);
              setDeleting(false);
              onClose();
            } catch (reason) {
              setDeleting(false);
              setActionError((reason as Error).message);
            }
          }}
        />
      ) : null}
    </aside>
  );
}
