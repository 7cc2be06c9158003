import { useEffect, useState, type FormEvent } from 'react';
import { Button, ConfirmDialog, Dialog, FormError, TextField, useToast } from '@switchboard/web-kit';
import type { ProjectSettings, SettingsBoard, SettingsColumn } from '../api/types.ts';
import { useProject } from '../project-context.tsx';

/** **Boards and columns**: add a board; per board add, rename, reorder and delete (empty) columns and choose the done column. */
export function BoardsTab({ settings, onChanged }: { settings: ProjectSettings; onChanged: () => void }) {
  const [naming, setNaming] = useState<{ title: string; label: string; initial: string; save: (name: string) => Promise<unknown> } | undefined>(undefined);
  const { api } = useProject();
  return (
    <div className="stack">
      <p className="muted page-intro">
        Agents see these names in <code className="inline-code">get_project_status</code> and <code className="inline-code">list_columns</code>. The first column is “not started”; tickets in the done column count as completed; the
        columns between are work in progress.
      </p>
      {settings.boards.map((board) => (
        <BoardCard key={board.id} board={board} onChanged={onChanged} onName={setNaming} />
      ))}
      <div>
        <Button onClick={() => setNaming({ title: 'Add board', label: 'Name', initial: '', save: (name) => api.addBoard(name) })}>Add board</Button>
      </div>
      {naming ? (
        <NameDialog
          {...naming}
          onClose={() => setNaming(undefined)}
          onSaved={() => {
            setNaming(undefined);
            onChanged();
          }}
        />
      ) : null}
    </div>
  );
}

type Namer = (dialog: { title: string; label: string; initial: string; save: (name: string) => Promise<unknown> }) => void;

function BoardCard({ board, onChanged, onName }: { board: SettingsBoard; onChanged: () => void; onName: Namer }) {
  const { api } = useProject();
  const notify = useToast();
  const [newColumn, setNewColumn] = useState('');
  const [deleting, setDeleting] = useState<SettingsColumn | undefined>(undefined);
  const [error, setError] = useState('');
  const columns = [...board.columns].sort((a, b) => a.position - b.position);
  // The chosen done column shows at once; the settings read after the change confirm it.
  const [doneChoice, setDoneChoice] = useState<string | undefined>(undefined);
  useEffect(() => setDoneChoice(undefined), [board]);

  const act = async (write: () => Promise<unknown>, done?: string) => {
    setError('');
    try {
      await write();
      if (done) notify(done);
      onChanged();
      return true;
    } catch (reason) {
      setError((reason as Error).message);
      return false;
    }
  };
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!newColumn.trim()) return;
    if (await act(() => api.addColumn(board.id, { name: newColumn.trim() }), `Column "${newColumn.trim()}" added`)) setNewColumn('');
  };

  return (
    <section className="card" aria-label={`Board ${board.name}`}>
      <div className="card-header">
        <h2 className="grow">{board.name}</h2>
        <Button small onClick={() => onName({ title: `Rename board ${board.name}`, label: 'Name', initial: board.name, save: (name) => api.renameBoard(board.id, name) })}>Rename board</Button>
      </div>
      <div className="card-body stack">
        <FormError>{error}</FormError>
        <table className="table columns-table">
          <thead>
            <tr>
              <th>Column</th>
              <th className="num">Tickets</th>
              <th>Done column</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {columns.map((column, index) => (
              <tr key={column.id}>
                <td className="cell-name">{column.name}</td>
                <td className="num">{column.ticket_count.toLocaleString()}</td>
                <td>
                  <label className="checkbox">
                    <input
                      type="radio"
                      name={`done-${board.id}`}
                      checked={doneChoice ? doneChoice === column.id : column.is_done_column}
                      aria-label={`${column.name} is the done column`}
                      onChange={() => {
                        setDoneChoice(column.id);
                        void act(() => api.updateColumn(column.id, { is_done_column: true }), `${column.name} is now the done column`).then((ok) => ok || setDoneChoice(undefined));
                      }}
                    />
                    {column.is_done_column ? 'Done column' : ''}
                  </label>
                </td>
                <td className="actions-cell">
                  <Button small variant="ghost" aria-label={`Move ${column.name} left`} title="Move left" disabled={index === 0} onClick={() => void act(() => api.updateColumn(column.id, { position: columns[index - 1]!.position }))}>
                    ←
                  </Button>
                  <Button
                    small
                    variant="ghost"
                    aria-label={`Move ${column.name} right`}
                    title="Move right"
                    disabled={index === columns.length - 1}
                    onClick={() => void act(() => api.updateColumn(column.id, { position: columns[index + 1]!.position }))}
                  >
                    →
                  </Button>
                  <Button small aria-label={`Rename ${column.name}`} onClick={() => onName({ title: `Rename column ${column.name}`, label: 'Name', initial: column.name, save: (name) => api.updateColumn(column.id, { name }) })}>
                    Rename
                  </Button>
                  <Button
                    small
                    variant="danger"
                    aria-label={`Delete ${column.name}`}
                    disabled={column.ticket_count > 0 || column.is_done_column}
                    title={column.ticket_count > 0 ? 'Only an empty column can be deleted: move its tickets first' : column.is_done_column ? 'Choose another done column first' : 'Delete this column'}
                    onClick={() => setDeleting(column)}
                  >
                    Delete
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <form className="row" onSubmit={add}>
          <input className="input" style={{ maxWidth: 280 }} aria-label={`New column on ${board.name}`} placeholder="New column name" value={newColumn} onChange={(e) => setNewColumn(e.target.value)} maxLength={100} />
          <Button type="submit" disabled={!newColumn.trim()}>
            Add column
          </Button>
        </form>
      </div>
      {deleting ? (
        <ConfirmDialog
          title={`Delete column ${deleting.name}?`}
          message="The column is empty; agents will no longer see it."
          confirmLabel="Delete"
          onCancel={() => setDeleting(undefined)}
          onConfirm={() => {
            const column = deleting;
            setDeleting(undefined);
            void act(() => api.deleteColumn(column.id), `Column "${column.name}" deleted`);
          }}
        />
      ) : null}
    </section>
  );
}

/** A dialog asking for one name (add a board, rename a board or a column), with **Save**. */
function NameDialog({ title, label, initial, save, onClose, onSaved }: { title: string; label: string; initial: string; save: (name: string) => Promise<unknown>; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Enter a name.');
      return;
    }
    setBusy(true);
    try {
      await save(name.trim());
      onSaved();
    } catch (reason) {
      setError((reason as Error).message);
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-dialog-close>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="name-dialog" busy={busy}>
            Save
          </Button>
        </>
      }
    >
      <form id="name-dialog" className="stack" onSubmit={submit} noValidate>
        <FormError>{error}</FormError>
        <TextField label={label} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required />
      </form>
    </Dialog>
  );
}
