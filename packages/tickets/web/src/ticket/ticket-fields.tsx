import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@switchboard/web-kit';
import { PRIORITIES, TICKET_TYPES, type BoardCard, type TicketDetail } from '../api/types.ts';
import type { TicketChanges } from '../api/client.ts';
import { safeColor } from '../board/label-color.ts';
import { useProject } from '../project-context.tsx';

/**
 * The title as a field: saved on Enter or when leaving it, Escape reverts. While
 * it is being edited a live change to the title does not overwrite the draft.
 */
export function TitleEditor({ title, onSave }: { title: string; onSave: (title: string) => Promise<boolean> }) {
  const [draft, setDraft] = useState(title);
  const editing = useRef(false);
  useEffect(() => {
    if (!editing.current) setDraft(title);
  }, [title]);
  const commit = async () => {
    editing.current = false;
    const next = draft.trim();
    if (!next) {
      setDraft(title);
      return;
    }
    if (next !== title) await onSave(next);
  };
  return (
    <input
      className="input title-input"
      aria-label="Title"
      value={draft}
      maxLength={500}
      onFocus={() => (editing.current = true)}
      onChange={(event) => {
        editing.current = true;
        setDraft(event.target.value);
      }}
      onBlur={() => void commit()}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          (event.target as HTMLInputElement).blur();
        } else if (event.key === 'Escape') {
          event.preventDefault();
          setDraft(title);
          editing.current = false;
          setTimeout(() => (event.target as HTMLInputElement).blur());
        }
      }}
    />
  );
}

/** Type, priority, column, assignee, labels and parent epic, each changed at once. */
export function TicketFields({
  ticket,
  epics,
  update,
  run,
  qualify,
  onOpen,
}: {
  ticket: TicketDetail;
  epics: BoardCard[];
  update: (changes: TicketChanges) => Promise<boolean>;
  run: (write: () => Promise<unknown>) => Promise<boolean>;
  qualify: (column: string) => string;
  onOpen: (key: string) => void;
}) {
  const { api, columns, members } = useProject();
  const boardColumns = columns.filter((column) => column.board_name === ticket.board).map((column) => column.name);
  if (ticket.column && !boardColumns.includes(ticket.column)) boardColumns.unshift(ticket.column);
  const assignee = ticket.assignee?.email ?? '';
  const memberOptions = members.map((m) => ({ value: m.email, label: m.name ? `${m.name} (${m.email})` : m.email }));
  if (ticket.assignee && !members.some((m) => m.email === assignee)) memberOptions.unshift({ value: assignee, label: ticket.assignee.name || assignee });
  return (
    <div className="ticket-fields">
      <InlineSelect
        label="Type"
        value={ticket.ticket_type}
        options={TICKET_TYPES.map((t) => ({ value: t, label: t }))}
        onChange={(ticket_type) => update({ ticket_type })}
      />
      <InlineSelect
        label="Priority"
        value={ticket.priority}
        options={PRIORITIES.map((p) => ({ value: p, label: p }))}
        onChange={(priority) => update({ priority })}
      />
      <InlineSelect
        label="Column"
        value={ticket.column ?? ''}
        options={boardColumns.map((c) => ({ value: c, label: c }))}
        onChange={(column) => run(() => api.moveTicket(ticket.key, qualify(column)))}
      />
      <InlineSelect
        label="Assignee"
        value={assignee}
        options={[{ value: '', label: 'Unassigned' }, ...memberOptions]}
        onChange={(email) => update({ assignee: email || null })}
      />
      <LabelPicker ticket={ticket} update={update} />
      <ParentField ticket={ticket} epics={epics} run={run} onOpen={onOpen} />
    </div>
  );
}

// Props declared like the filter bar's FilterSelect; this one saves on change and shows a label.
function InlineSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: Array<{ value: string; label: string }>;
  onChange: (value: string) => Promise<unknown>;
}) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  return (
    <div className="field-row">
      <label htmlFor={id} className="field-row-label">
        {label}
      </label>
      <select
        id={id}
        className="select"
        value={value}
        disabled={busy}
        onChange={async (event) => {
          setBusy(true);
          try {
            await onChange(event.target.value);
          } finally {
            setBusy(false);
          }
        }}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The project's labels as checkboxes; the ticket's labels as coloured chips. */
function LabelPicker({ ticket, update }: { ticket: TicketDetail; update: (changes: TicketChanges) => Promise<boolean> }) {
  const { labels } = useProject();
  const chosen = new Set(ticket.labels.map((label) => label.name));
  const toggle = (name: string, on: boolean) => {
    const next = labels.map((label) => label.name).filter((n) => (n === name ? on : chosen.has(n)));
    void update({ labels: next });
  };
  return (
    <div className="field-row">
      <span className="field-row-label">Labels</span>
      <details className="label-picker">
        <summary>
          {ticket.labels.length === 0 ? (
            <span className="faint">None</span>
          ) : (
            ticket.labels.map((label) => (
              <span key={label.id} className="label-chip">
                <span className="label-dot" style={{ background: safeColor(label.color) }} aria-hidden="true" />
                {label.name}
              </span>
            ))
          )}
        </summary>
        <fieldset className="label-options">
          <legend className="sr-only">Labels</legend>
          {labels.length === 0 ? <span className="faint">No labels yet: create them in Settings → Labels.</span> : null}
          {labels.map((label) => (
            <label key={label.id} className="checkbox">
              <input type="checkbox" checked={chosen.has(label.name)} onChange={(event) => toggle(label.name, event.target.checked)} />
              <span className="label-dot" style={{ background: safeColor(label.color) }} aria-hidden="true" />
              {label.name}
            </label>
          ))}
        </fieldset>
      </details>
    </div>
  );
}

/** The parent epic as a link; a standalone ticket can be made a sub-ticket of an epic (convert_to_sub_ticket). */
function ParentField({
  ticket,
  epics,
  run,
  onOpen,
}: {
  ticket: TicketDetail;
  epics: BoardCard[];
  run: (write: () => Promise<unknown>) => Promise<boolean>;
  onOpen: (key: string) => void;
}) {
  const { api } = useProject();
  const [epic, setEpic] = useState('');
  const id = useId();
  if (ticket.parent) {
    return (
      <div className="field-row">
        <span className="field-row-label">Parent epic</span>
        <a
          href={`/tickets/${ticket.parent.key}`}
          onClick={(event) => {
            event.preventDefault();
            onOpen(ticket.parent!.key);
          }}
        >
          {ticket.parent.key} {ticket.parent.title}
        </a>
      </div>
    );
  }
  if (ticket.sub_tickets.length > 0 || ticket.ticket_type === 'epic') return null;
  const choices = epics.filter((candidate) => candidate.key !== ticket.key);
  return (
    <div className="field-row">
      <label htmlFor={id} className="field-row-label">
        Parent epic
      </label>
      <div className="row grow">
        <select id={id} className="select" value={epic} onChange={(event) => setEpic(event.target.value)}>
          <option value="">None</option>
          {choices.map((candidate) => (
            <option key={candidate.key} value={candidate.key}>
              {candidate.key} {candidate.title}
            </option>
          ))}
        </select>
        {epic ? (
          <Button small onClick={() => void run(() => api.convertToSubTicket(ticket.key, epic)).then((ok) => ok && setEpic(''))}>
            Set parent
          </Button>
        ) : null}
      </div>
    </div>
  );
}
