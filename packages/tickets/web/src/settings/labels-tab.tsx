import { useState, type FormEvent } from 'react';
import { Button, ConfirmDialog, Dialog, EmptyState, ErrorState, FormError, Loading, TextField, useResource, useToast } from '@switchboard/web-kit';
import type { Label } from '../api/types.ts';
import { safeColor } from '../board/label-color.ts';
import { useProject } from '../project-context.tsx';

const PALETTE = ['#2563eb', '#16a34a', '#dc2626', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#64748b'];

/** **Labels**: create (name and colour), edit the colour or name, delete. */
export function LabelsTab() {
  const project = useProject();
  const notify = useToast();
  const labels = useResource((signal) => project.api.labels(signal), [project.key]);
  const [editing, setEditing] = useState<Label | 'new' | undefined>(undefined);
  const [deleting, setDeleting] = useState<Label | undefined>(undefined);
  const changed = () => {
    labels.reload();
    project.reloadMeta();
  };
  const list = labels.data?.labels;
  return (
    <div className="stack">
      <div className="row between">
        <p className="muted" style={{ margin: 0 }}>
          Labels group tickets across columns (area, component, kind of work). Agents set them by name.
        </p>
        <Button variant="primary" onClick={() => setEditing('new')}>
          New label
        </Button>
      </div>
      {labels.error ? (
        <ErrorState error={labels.error} onRetry={labels.reload} />
      ) : !list ? (
        <Loading />
      ) : list.length === 0 ? (
        <div className="card">
          <EmptyState title="No labels yet">Create labels such as backend, frontend or docs.</EmptyState>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Label</th>
                <th>Colour</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((label) => (
                <tr key={label.id}>
                  <td className="cell-name">
                    <span className="label-chip">
                      <span className="label-dot" style={{ background: safeColor(label.color) }} aria-hidden="true" />
                      {label.name}
                    </span>
                  </td>
                  <td className="mono">{label.color}</td>
                  <td className="actions-cell">
                    <Button small aria-label={`Edit ${label.name}`} onClick={() => setEditing(label)}>
                      Edit
                    </Button>
                    <Button small variant="danger" aria-label={`Delete ${label.name}`} onClick={() => setDeleting(label)}>
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing ? (
        <LabelDialog
          label={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            changed();
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete label ${deleting.name}?`}
          message="The label is removed from every ticket that has it."
          confirmLabel="Delete"
          onCancel={() => setDeleting(undefined)}
          onConfirm={async () => {
            const label = deleting;
            setDeleting(undefined);
            try {
              await project.api.deleteLabel(label.id);
              notify(`Label "${label.name}" deleted`);
              changed();
            } catch (reason) {
              notify((reason as Error).message, 'error');
            }
          }}
        />
      ) : null}
    </div>
  );
}

function LabelDialog({ label, onClose, onSaved }: { label: Label | undefined; onClose: () => void; onSaved: () => void }) {
  const { api } = useProject();
  const [name, setName] = useState(label?.name ?? '');
  const [color, setColor] = useState(label?.color && /^#[0-9a-fA-F]{6}$/.test(label.color) ? label.color : PALETTE[0]!);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Give the label a name.');
      return;
    }
    setBusy(true);
    try {
      if (label) await api.updateLabel(label.id, { name: name.trim(), color });
      else await api.createLabel({ name: name.trim(), color });
      onSaved();
    } catch (reason) {
      setError((reason as Error).message);
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={label ? `Edit label ${label.name}` : 'New label'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-dialog-close>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="label-form" busy={busy}>
            {label ? 'Save' : 'Create label'}
          </Button>
        </>
      }
    >
      <form id="label-form" className="stack" onSubmit={submit} noValidate>
        <FormError>{error}</FormError>
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} maxLength={50} required />
        <div className="field">
          <label htmlFor="label-colour">Colour</label>
          <div className="row">
            <input id="label-colour" type="color" value={color} onChange={(e) => setColor(e.target.value)} className="color-input" />
            {PALETTE.map((swatch) => (
              <button key={swatch} type="button" className={`swatch ${swatch === color ? 'chosen' : ''}`} style={{ background: swatch }} aria-label={`Colour ${swatch}`} onClick={() => setColor(swatch)} />
            ))}
            <span className="mono faint">{color}</span>
          </div>
        </div>
      </form>
    </Dialog>
  );
}
