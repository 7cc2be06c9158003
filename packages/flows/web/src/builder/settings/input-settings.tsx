// The Input node's variables as an editable table: name, type, required, then default, description and limits.
import { Fragment } from 'react';
import { Button } from '@switchboard/web-kit';
import { VARIABLE_TYPES, type InputVariable } from '../../../../src/domain/flow-definition.ts';
import { checkVariable } from '../../../../src/domain/input-variables.ts';
import { JsonField, NumberField } from '../fields.tsx';
import { str, type SettingsProps } from './settings-props.ts';

type Variable = Partial<InputVariable> & Record<string, unknown>;

/** A variable of another type: the keys that no longer apply dropped, the default kept only if it still fits. */
function retype(variable: Variable, type: InputVariable['type']): Variable {
  const next: Variable = { ...variable, type };
  if (type !== 'enum') delete next.values;
  else if (!Array.isArray(next.values)) next.values = [];
  if (type !== 'number' && type !== 'integer') {
    delete next.minimum;
    delete next.maximum;
  }
  if (type !== 'string' && type !== 'array') {
    delete next.min_length;
    delete next.max_length;
  }
  if (next.default !== undefined && checkVariable(next as InputVariable, next.default).length > 0) delete next.default;
  return next;
}

/** Sets or removes (undefined) keys of a variable. */
function patch(variable: Variable, changes: Record<string, unknown>): Variable {
  const next = { ...variable };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** The Input node's settings. */
export function InputSettings({ node, set }: SettingsProps) {
  const variables = (Array.isArray(node.data.variables) ? node.data.variables : []) as Variable[];
  const update = (index: number, next: Variable, field: string) =>
    set({ variables: variables.map((v, i) => (i === index ? next : v)) }, `variables.${index}.${field}`);
  const add = () => {
    const taken = new Set(variables.map((v) => v.name));
    let name = 'variable';
    for (let n = 2; taken.has(name); n += 1) name = `variable_${n}`;
    set({ variables: [...variables, { name, type: 'string' }] }, 'variables.add');
  };
  return (
    <div className="stack">
      <div className="table-wrap vars-wrap">
        <table className="table vars" aria-label="Variables">
          <thead>
            <tr>
              <th>Name</th>
              <th>Type</th>
              <th>
                <abbr title="Required">Req.</abbr>
              </th>
              <th>
                <span className="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {variables.length === 0 ? (
              <tr>
                <td colSpan={4} className="faint">
                  No variables: the flow takes no input.
                </td>
              </tr>
            ) : null}
            {variables.map((variable, index) => {
              const label = str(variable.name) || `${index + 1}`;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: a variable's place is its identity; its name is edited in place, so keying by it would remount the row (and lose focus) at each keystroke.
                <Fragment key={index}>
                  <tr className="var-main">
                    <td>
                      <input
                        className="input code"
                        aria-label={`Name of variable ${index + 1}`}
                        value={str(variable.name)}
                        onChange={(e) => update(index, { ...variable, name: e.target.value }, 'name')}
                      />
                    </td>
                    <td>
                      <select
                        className="select"
                        aria-label={`Type of variable ${label}`}
                        value={str(variable.type)}
                        onChange={(e) => update(index, retype(variable, e.target.value as InputVariable['type']), 'type')}
                      >
                        {VARIABLE_TYPES.map((type) => (
                          <option key={type} value={type}>
                            {type}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td className="center">
                      <input
                        type="checkbox"
                        aria-label={`Variable ${label} is required`}
                        checked={variable.required === true}
                        onChange={(e) => update(index, patch(variable, { required: e.target.checked ? true : undefined }), 'required')}
                      />
                    </td>
                    <td>
                      <Button
                        small
                        variant="ghost"
                        aria-label={`Remove variable ${label}`}
                        onClick={() => set({ variables: variables.filter((_v, i) => i !== index) }, 'variables.remove')}
                      >
                        ✕
                      </Button>
                    </td>
                  </tr>
                  <tr className="var-details">
                    <td colSpan={4}>
                      <VariableDetails variable={variable} label={label} onChange={(next, field) => update(index, next, field)} />
                    </td>
                  </tr>
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      <div>
        <Button small onClick={add}>
          Add variable
        </Button>
      </div>
    </div>
  );
}

/** Default, description and the limits that fit the variable's type. */
function VariableDetails({ variable, label, onChange }: { variable: Variable; label: string; onChange: (next: Variable, field: string) => void }) {
  const type = variable.type;
  const set = (changes: Record<string, unknown>, field: string) => onChange(patch(variable, changes), field);
  return (
    <div className="var-grid">
      <DefaultField variable={variable} label={label} onChange={(value) => set({ default: value }, 'default')} />
      <label className="field">
        <span className="field-label">Description</span>
        <input
          className="input"
          aria-label={`Description of variable ${label}`}
          value={str(variable.description)}
          onChange={(e) => set({ description: e.target.value || undefined }, 'description')}
        />
      </label>
      {type === 'enum' ? (
        <label className="field wide">
          <span className="field-label">Values (one per line)</span>
          <textarea
            className="textarea code"
            rows={3}
            aria-label={`Values of variable ${label}`}
            value={(Array.isArray(variable.values) ? variable.values : []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n')}
            onChange={(e) => set({ values: e.target.value.split('\n').filter((line, i, all) => line !== '' || i < all.length - 1) }, 'values')}
          />
        </label>
      ) : null}
      {type === 'number' || type === 'integer' ? (
        <>
          <NumberField label={`Minimum of ${label}`} value={variable.minimum} integer={type === 'integer'} onChange={(v) => set({ minimum: v }, 'minimum')} />
          <NumberField label={`Maximum of ${label}`} value={variable.maximum} integer={type === 'integer'} onChange={(v) => set({ maximum: v }, 'maximum')} />
        </>
      ) : null}
      {type === 'string' || type === 'array' ? (
        <>
          {/* The min and max fields: alike in shape, each bound to its own key. */}
          <NumberField
            label={type === 'string' ? `Min length of ${label}` : `Min items of ${label}`}
            value={variable.min_length}
            integer
            min={0}
            onChange={(v) => set({ min_length: v }, 'min_length')}
          />
          <NumberField
            label={type === 'string' ? `Max length of ${label}` : `Max items of ${label}`}
            value={variable.max_length}
            integer
            min={0}
            onChange={(v) => set({ max_length: v }, 'max_length')}
          />
        </>
      ) : null}
    </div>
  );
}

/** The default value, entered the way the type is. */
function DefaultField({ variable, label, onChange }: { variable: Variable; label: string; onChange: (value: unknown) => void }) {
  const name = `Default of ${label}`;
  switch (variable.type) {
    case 'number':
    case 'integer':
      return <NumberField label={name} value={variable.default} integer={variable.type === 'integer'} onChange={onChange} />;
    case 'boolean':
      return (
        <label className="field">
          <span className="field-label">{name}</span>
          <select
            className="select"
            value={variable.default === undefined ? '' : String(variable.default)}
            onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value === 'true')}
          >
            <option value="">No default</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        </label>
      );
    case 'enum':
      return (
        <label className="field">
          <span className="field-label">{name}</span>
          <select
            className="select"
            value={variable.default === undefined ? '' : JSON.stringify(variable.default)}
            onChange={(e) => onChange(e.target.value === '' ? undefined : JSON.parse(e.target.value))}
          >
            <option value="">No default</option>
            {(Array.isArray(variable.values) ? variable.values : []).map((value) => (
              <option key={JSON.stringify(value)} value={JSON.stringify(value)}>
                {typeof value === 'string' ? value : JSON.stringify(value)}
              </option>
            ))}
          </select>
        </label>
      );
    case 'object':
    case 'array':
      return <JsonField label={name} value={variable.default} rows={2} onChange={onChange} />;
    default:
      return (
        <label className="field">
          <span className="field-label">{name}</span>
          <input className="input" value={str(variable.default)} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)} />
        </label>
      );
  }
}
