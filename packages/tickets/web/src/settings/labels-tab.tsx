import { ResourceList, form, useResource } from '@switchboard/web-kit';
import type { ProjectApi } from '../api/client.ts';
import type { Label } from '../api/types.ts';
import { safeColor } from '../board/label-color.ts';
import { useProject } from '../project-context.tsx';

const PALETTE = ['#2563eb', '#16a34a', '#dc2626', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#64748b'];

/** **Labels**: create (name and colour), edit the colour or name, delete. */
export function LabelsTab() {
  const project = useProject();
  const labels = useResource((signal) => project.api.labels(signal).then((answer) => answer.labels), [project.key]);
  return (
    <div className="stack">
      <ResourceList
        noun="labels"
        source={labels}
        onChanged={() => {
          labels.reload();
          project.reloadMeta();
        }}
        header={(create) => (
          <div className="row between">
            <p className="muted" style={{ margin: 0 }}>
              Labels group tickets across columns (area, component, kind of work). Agents set them by name.
            </p>
            {create}
          </div>
        )}
        rowKey={(label) => label.id}
        columns={[
          {
            header: 'Label',
            className: 'cell-name',
            cell: (label) => (
              <span className="label-chip">
                <span className="label-dot" style={{ background: safeColor(label.color) }} aria-hidden="true" />
                {label.name}
              </span>
            ),
          },
          { header: 'Colour', className: 'mono', cell: (label) => label.color },
        ]}
        actions={[
          { label: 'Edit', name: (label) => `Edit ${label.name}`, form: (label) => labelForm(project.api, label) },
          {
            label: 'Delete',
            name: (label) => `Delete ${label.name}`,
            variant: 'danger',
            confirm: {
              title: (label) => `Delete label ${label.name}?`,
              message: () => 'The label is removed from every ticket that has it.',
              confirmLabel: 'Delete',
              run: (label) => project.api.deleteLabel(label.id),
              done: (label) => `Label "${label.name}" deleted`,
            },
          },
        ]}
        create={{ label: 'New label', form: labelForm(project.api, undefined) }}
        empty={{ title: 'No labels yet', children: 'Create labels such as backend, frontend or docs.' }}
      />
    </div>
  );
}

/** **New label** or **Edit label …**: **Name** and **Colour** (a picker and the palette's swatches). */
function labelForm(api: ProjectApi, label: Label | undefined) {
  return form({
    title: label ? `Edit label ${label.name}` : 'New label',
    submitLabel: label ? 'Save' : 'Create label',
    initial: { name: label?.name ?? '', color: label?.color && /^#[0-9a-fA-F]{6}$/.test(label.color) ? label.color : PALETTE[0]! },
    fields: () => [
      { name: 'name', label: 'Name', maxLength: 50, required: true },
      { kind: 'custom', name: 'color', render: (values, set) => <ColourPicker color={values.color} onChange={(color) => set({ color })} /> },
    ],
    check: (values) => (values.name.trim() ? undefined : 'Give the label a name.'),
    submit: (values) =>
      label ? api.updateLabel(label.id, { name: values.name.trim(), color: values.color }) : api.createLabel({ name: values.name.trim(), color: values.color }),
  });
}

/** **Colour**: a colour input, the palette's swatches, and the chosen colour's code. */
function ColourPicker({ color, onChange }: { color: string; onChange: (color: string) => void }) {
  return (
    <div className="field">
      <label htmlFor="label-colour">Colour</label>
      <div className="row">
        <input id="label-colour" type="color" value={color} onChange={(e) => onChange(e.target.value)} className="color-input" />
        {PALETTE.map((swatch) => (
          <button
            key={swatch}
            type="button"
            className={`swatch ${swatch === color ? 'chosen' : ''}`}
            style={{ background: swatch }}
            aria-label={`Colour ${swatch}`}
            onClick={() => onChange(swatch)}
          />
        ))}
        <span className="mono faint">{color}</span>
      </div>
    </div>
  );
}
