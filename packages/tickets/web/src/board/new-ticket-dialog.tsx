import { useState, type FormEvent } from 'react';
import { Button, Dialog, FormError, SelectField, TextField, type ApiError } from '@switchboard/web-kit';
import { PRIORITIES, TICKET_TYPES, type BoardCard, type Ticket } from '../api/types.ts';
import { MarkdownEditor } from '../markdown/markdown-editor.tsx';
import { useProject } from '../project-context.tsx';

/** **New ticket**: title, description, type, priority, column, parent (an epic of this board). */
export function NewTicketDialog({
  columns,
  defaultColumn,
  epics,
  qualify,
  onClose,
  onCreated,
}: {
  columns: string[];
  defaultColumn: string | undefined;
  epics: BoardCard[];
  /** The column name as the API takes it (qualified with the board when it is not the first board). */
  qualify: (column: string) => string;
  onClose: () => void;
  onCreated: (ticket: Ticket) => void;
}) {
  const { api } = useProject();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [type, setType] = useState('task');
  const [priority, setPriority] = useState('medium');
  const [column, setColumn] = useState(defaultColumn ?? columns[0] ?? '');
  const [parent, setParent] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) {
      setError('Give the ticket a title.');
      return;
    }
    setBusy(true);
    setError('');
    const body = { title: title.trim(), description, ticket_type: type, priority, column_name: column ? qualify(column) : undefined };
    try {
      // A parent makes it a sub-ticket (create_sub_ticket); a sub-ticket cannot be an epic, as the service says if asked.
      const created = parent ? await api.createSubTicket(parent, body) : await api.createTicket(body);
      onCreated(created);
    } catch (reason) {
      setError((reason as ApiError).message);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="New ticket"
      wide
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-dialog-close>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="new-ticket" busy={busy}>
            Create ticket
          </Button>
        </>
      }
    >
      <form id="new-ticket" className="stack" onSubmit={submit} noValidate>
        <FormError>{error}</FormError>
        <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={500} required autoFocus placeholder="What needs doing" />
        <MarkdownEditor label="Description" value={description} onChange={setDescription} rows={6} placeholder="The what and why, acceptance criteria (Markdown)" />
        <div className="grid-4">
          <SelectField label="Type" value={type} onChange={(e) => setType(e.target.value)} options={TICKET_TYPES.map((t) => ({ value: t, label: t }))} />
          <SelectField label="Priority" value={priority} onChange={(e) => setPriority(e.target.value)} options={PRIORITIES.map((p) => ({ value: p, label: p }))} />
          <SelectField label="Column" value={column} onChange={(e) => setColumn(e.target.value)} options={columns.map((c) => ({ value: c, label: c }))} />
          <SelectField
            label="Parent"
            value={parent}
            onChange={(e) => setParent(e.target.value)}
            placeholder="None"
            options={epics.map((epic) => ({ value: epic.key, label: `${epic.key} ${epic.title}` }))}
            hint={epics.length === 0 ? 'No epic on this board yet' : undefined}
          />
        </div>
      </form>
    </Dialog>
  );
}
