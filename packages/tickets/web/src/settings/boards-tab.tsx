import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, FormDialog, FormError, ResourceList, form, useToast, type Form } from '@switchboard/web-kit';
import type { ProjectSettings, SettingsBoard } from '../api/types.ts';
import { useProject } from '../project-context.tsx';

/** A form asking for one name (add a board, rename a board or a column), with **Save**. */
function nameForm(title: string, initial: string, save: (name: string) => Promise<unknown>): Form {
  return form({
    title,
    submitLabel: 'Save',
    initial: { name: initial },
    fields: () => [{ name: 'name', label: 'Name', maxLength: 100, required: true }],
    check: (values) => (values.name.trim() ? undefined : 'Enter a name.'),
    submit: (values) => save(values.name.trim()),
  });
}

/** **Boards and columns**: add a board; per board add, rename, reorder and delete (empty) columns and choose the done column. */
export function BoardsTab({ settings, onChanged }: { settings: ProjectSettings; onChanged: () => void }) {
  const [naming, setNaming] = useState<Form | undefined>(undefined);
  const { api } = useProject();
  return (
    <div className="stack">
      <p className="muted page-intro">
        Agents see these names in <code className="inline-code">get_project_status</code> and <code className="inline-code">list_columns</code>. The first
        column is “not started”; tickets in the done column count as completed; the columns between are work in progress.
      </p>
      {settings.boards.map((board) => (
        <BoardCard key={board.id} board={board} onChanged={onChanged} onName={setNaming} />
      ))}
      <div>
        <Button onClick={() => setNaming(nameForm('Add board', '', (name) => api.addBoard(name)))}>Add board</Button>
      </div>
      {naming ? (
        <FormDialog
          spec={naming}
          onClose={() => setNaming(undefined)}
          onDone={() => {
            setNaming(undefined);
            onChanged();
          }}
        />
      ) : null}
    </div>
  );
}

/** One board's card: its columns as a list with their row actions, and a field to add a column. */
function BoardCard({ board, onChanged, onName }: { board: SettingsBoard; onChanged: () => void; onName: (form: Form) => void }) {
  const { api } = useProject();
  const notify = useToast();
  const [newColumn, setNewColumn] = useState('');
  const [error, setError] = useState('');
  const columns = [...board.columns].sort((a, b) => a.position - b.position);
  // The chosen done column shows at once; the settings read after the change confirm it. A read that answers while
  // a change is on its way started before it (the read after the change replaces it): it leaves the choice shown.
  const [doneChoice, setDoneChoice] = useState<string | undefined>(undefined);
  const writing = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: board is the trigger: a new read of the board (after any change) replaces the choice shown meanwhile.
  useEffect(() => {
    if (writing.current === 0) setDoneChoice(undefined);
  }, [board]);

  const act = async (write: () => Promise<unknown>, done?: string) => {
    setError('');
    writing.current += 1;
    try {
      await write();
    } catch (reason) {
      setError((reason as Error).message);
      return false;
    } finally {
      writing.current -= 1;
    }
    if (done) notify(done);
    onChanged();
    return true;
  };
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!newColumn.trim()) return;
    if (await act(() => api.addColumn(board.id, { name: newColumn.trim() }), `Column "${newColumn.trim()}" added`)) setNewColumn('');
  };
  const neighbour = (column: { id: string }, step: number) => columns[columns.findIndex((c) => c.id === column.id) + step];

  return (
    <section className="card" aria-label={`Board ${board.name}`}>
      <div className="card-header">
        <h2 className="grow">{board.name}</h2>
        <Button small onClick={() => onName(nameForm(`Rename board ${board.name}`, board.name, (name) => api.renameBoard(board.id, name)))}>
          Rename board
        </Button>
      </div>
      <div className="card-body stack">
        <FormError>{error}</FormError>
        <ResourceList
          noun={`columns of ${board.name}`}
          source={{ data: columns, reload: onChanged }}
          bare
          tableClassName="columns-table"
          rowKey={(column) => column.id}
          columns={[
            { header: 'Column', className: 'cell-name', cell: (column) => column.name },
            { header: 'Tickets', numeric: true, cell: (column) => column.ticket_count.toLocaleString() },
            {
              header: 'Done column',
              cell: (column) => (
                <label className="checkbox">
                  <input
                    type="radio"
                    name={`done-${board.id}`}
                    checked={doneChoice ? doneChoice === column.id : column.is_done_column}
                    aria-label={`${column.name} is the done column`}
                    onChange={() => {
                      setDoneChoice(column.id);
                      void act(() => api.updateColumn(column.id, { is_done_column: true }), `${column.name} is now the done column`).then(
                        (ok) => ok || setDoneChoice(undefined),
                      );
                    }}
                  />
                  {column.is_done_column ? 'Done column' : ''}
                </label>
              ),
            },
          ]}
          actions={[
            {
              label: '←',
              name: (column) => `Move ${column.name} left`,
              variant: 'ghost',
              title: () => 'Move left',
              disabled: (column) => !neighbour(column, -1),
              onClick: (column) => void act(() => api.updateColumn(column.id, { position: neighbour(column, -1)!.position })),
            },
            {
              label: '→',
              name: (column) => `Move ${column.name} right`,
              variant: 'ghost',
              title: () => 'Move right',
              disabled: (column) => !neighbour(column, 1),
              onClick: (column) => void act(() => api.updateColumn(column.id, { position: neighbour(column, 1)!.position })),
            },
            {
              label: 'Rename',
              name: (column) => `Rename ${column.name}`,
              form: (column) => nameForm(`Rename column ${column.name}`, column.name, (name) => api.updateColumn(column.id, { name })),
            },
            {
              label: 'Delete',
              name: (column) => `Delete ${column.name}`,
              variant: 'danger',
              disabled: (column) => column.ticket_count > 0 || column.is_done_column,
              title: (column) =>
                column.ticket_count > 0
                  ? 'Only an empty column can be deleted: move its tickets first'
                  : column.is_done_column
                    ? 'Choose another done column first'
                    : 'Delete this column',
              confirm: {
                title: (column) => `Delete column ${column.name}?`,
                message: () => 'The column is empty; agents will no longer see it.',
                confirmLabel: 'Delete',
                run: (column) => api.deleteColumn(column.id),
                done: (column) => `Column "${column.name}" deleted`,
              },
            },
          ]}
        />
        <form className="row" onSubmit={add}>
          <input
            className="input"
            style={{ maxWidth: 280 }}
            aria-label={`New column on ${board.name}`}
            placeholder="New column name"
            value={newColumn}
            onChange={(e) => setNewColumn(e.target.value)}
            maxLength={100}
          />
          <Button type="submit" disabled={!newColumn.trim()}>
            Add column
          </Button>
        </form>
      </div>
    </section>
  );
}
