// The Run panel's form: one field per variable of the saved version's Input node, and the input it makes.
import { Field, TextField } from '@switchboard/web-kit';
import type { InputVariable } from '../../../src/domain/flow-definition.ts';

/** The form's values, by variable name. */
export type Values = Record<string, string | boolean>;

/** What a form field holds at first: the default, as the field shows it. */
export function initialValue(variable: InputVariable): string | boolean {
  if (variable.type === 'boolean') return variable.default === true;
  if (variable.default === undefined) return '';
  if (variable.type === 'object' || variable.type === 'array') return JSON.stringify(variable.default, null, 2);
  if (variable.type === 'enum') return JSON.stringify(variable.default);
  return String(variable.default);
}

/** The run's input from the form; a field that is not valid JSON is a problem here (the rest is the server's check). */
export function inputOf(variables: InputVariable[], values: Values): { input: Record<string, unknown>; problems: Record<string, string> } {
  const input: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const variable of variables) {
    const value = values[variable.name];
    if (variable.type === 'boolean') {
      input[variable.name] = value === true;
      continue;
    }
    if (typeof value !== 'string' || value.trim() === '') continue;
    if (variable.type === 'number' || variable.type === 'integer') input[variable.name] = Number(value);
    else if (variable.type === 'enum') input[variable.name] = JSON.parse(value);
    else if (variable.type === 'object' || variable.type === 'array') {
      try {
        input[variable.name] = JSON.parse(value);
      } catch {
        problems[variable.name] = 'Not valid JSON';
      }
    } else input[variable.name] = value;
  }
  return { input, problems };
}

/** One input field of the form, by the variable's type. */
export function VariableInput({
  variable,
  value,
  error,
  onChange,
}: {
  variable: InputVariable;
  value: string | boolean;
  error?: string;
  onChange: (value: string | boolean) => void;
}) {
  const label = variable.name;
  const hint =
    [variable.description, variable.type === 'integer' || variable.type === 'number' ? variable.type : undefined].filter(Boolean).join(' · ') || undefined;
  switch (variable.type) {
    case 'boolean':
      return (
        <label className="checkbox">
          <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          {label}
          {variable.description ? <span className="faint"> · {variable.description}</span> : null}
        </label>
      );
    case 'enum':
      return (
        <Field label={label} required={variable.required} hint={hint} error={error}>
          {({ id, describedBy, invalid }) => (
            <select
              id={id}
              className="select"
              value={String(value)}
              required={variable.required}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              onChange={(e) => onChange(e.target.value)}
            >
              {variable.required ? null : <option value="">(not set)</option>}
              {(variable.values ?? []).map((v) => (
                <option key={JSON.stringify(v)} value={JSON.stringify(v)}>
                  {typeof v === 'string' ? v : JSON.stringify(v)}
                </option>
              ))}
            </select>
          )}
        </Field>
      );
    case 'number':
    case 'integer':
      return (
        <TextField
          label={label}
          type="number"
          step={variable.type === 'integer' ? 1 : 'any'}
          min={variable.minimum}
          max={variable.maximum}
          inputMode={variable.type === 'integer' ? 'numeric' : 'decimal'}
          required={variable.required}
          value={String(value)}
          error={error}
          hint={hint}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'object':
    case 'array':
      return (
        <Field label={`${label} (${variable.type}, JSON)`} required={variable.required} hint={hint} error={error}>
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              className="textarea code"
              rows={3}
              spellCheck={false}
              required={variable.required}
              placeholder={variable.type === 'object' ? '{}' : '[]'}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              value={String(value)}
              onChange={(e) => onChange(e.target.value)}
            />
          )}
        </Field>
      );
    default:
      return (
        <TextField
          label={label}
          required={variable.required}
          value={String(value)}
          error={error}
          hint={hint}
          maxLength={variable.max_length}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}
