// The side panel's fields: text that offers `{{` references, numbers that may be left empty, JSON that is
// only applied when it parses, and name/value rows. Each is labelled for assistive technology and tests.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button, Field, TextAreaField } from '@switchboard/web-kit';
import { applyCompletion, completionSpot, matchOptions, type CompletionSpot, type ReferenceOption } from './references.ts';

/** A text input or text area whose `{{` opens a list of the references the node may use. */
export function RefField({
  label,
  value,
  onChange,
  options,
  multiline,
  hint,
  rows = 3,
  placeholder,
  required,
  error,
}: {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  options: readonly ReferenceOption[];
  multiline?: boolean;
  hint?: ReactNode;
  rows?: number;
  placeholder?: string;
  required?: boolean;
  /** A problem with the value, shown under the field in place of the hint. */
  error?: string;
}) {
  const listId = useId();
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [spot, setSpot] = useState<CompletionSpot | undefined>(undefined);
  const [active, setActive] = useState(0);
  const matches = spot ? matchOptions(options, spot.query).slice(0, 12) : [];
  const open = spot !== undefined && matches.length > 0;

  const look = (text: string, caret: number | null) => {
    const next = caret === null ? undefined : completionSpot(text, caret);
    setSpot(next);
    setActive(0);
  };

  const choose = (option: ReferenceOption) => {
    const element = ref.current;
    if (!element || !spot) return;
    const caret = element.selectionStart ?? value.length;
    const applied = applyCompletion(value, caret, spot, option.value);
    onChange(applied.text);
    setSpot(undefined);
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(applied.caret, applied.caret);
    });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => (index + (event.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      choose(matches[active]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setSpot(undefined);
    }
  };

  const common = {
    ref,
    value,
    placeholder,
    required,
    spellCheck: false,
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? listId : undefined,
    'aria-expanded': open,
    'aria-activedescendant': open ? `${listId}-${active}` : undefined,
    onKeyDown,
    onBlur: () => setTimeout(() => setSpot(undefined), 150),
    onSelect: (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => {
      if (spot !== undefined) look(event.currentTarget.value, event.currentTarget.selectionStart);
    },
  };
  return (
    <Field label={label} hint={hint} required={required} error={error}>
      {({ id, describedBy, invalid }) => (
        <div className="ref-field">
          {multiline ? (
            <textarea
              {...common}
              id={id}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              className="textarea code"
              rows={rows}
              onChange={(event) => {
                onChange(event.target.value);
                look(event.target.value, event.target.selectionStart);
              }}
            />
          ) : (
            <input
              {...common}
              id={id}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              className="input code"
              onChange={(event) => {
                onChange(event.target.value);
                look(event.target.value, event.target.selectionStart);
              }}
            />
          )}
          {open ? (
            // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the combobox pattern's popup: a list of options, announced as a listbox.
            <ul className="ref-options" role="listbox" id={listId} aria-label="References">
              {matches.map((option, index) => (
                // biome-ignore-start lint/a11y/noNoninteractiveElementToInteractiveRole: an option of the listbox above.
                // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the field, which names the active option with aria-activedescendant (the combobox pattern), so options take no focus.
                <li
                  key={option.value}
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={index === active}
                  className={index === active ? 'active' : undefined}
                  // Chosen on mousedown, before the field loses focus.
                  onMouseDown={(event) => {
                    event.preventDefault();
                    choose(option);
                  }}
                >
                  <span className="mono">{option.value}</span>
                  <span className="faint">{option.detail}</span>
                </li>
                // biome-ignore-end lint/a11y/noNoninteractiveElementToInteractiveRole: an option of the listbox above.
              ))}
            </ul>
          ) : null}
        </div>
      )}
    </Field>
  );
}

/** A number input: empty means "not set" (`undefined`); what is not a number is never applied. */
export function NumberField({
  label,
  value,
  onChange,
  step,
  min,
  max,
  hint,
  integer,
}: {
  label: ReactNode;
  value: unknown;
  onChange: (value: number | undefined) => void;
  step?: number;
  min?: number;
  max?: number;
  hint?: ReactNode;
  integer?: boolean;
}) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const [error, setError] = useState<string | undefined>(undefined);
  // Follows the store (undo, another node): only when it differs from what is typed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the value from outside; run on each keystroke, this would overwrite what is half typed ("1.", "-").
  useEffect(() => {
    if ((text === '' ? undefined : Number(text)) !== value) setText(value === undefined ? '' : String(value));
  }, [value]);
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          className="input"
          type="number"
          inputMode={integer ? 'numeric' : 'decimal'}
          step={step ?? (integer ? 1 : 'any')}
          min={min}
          max={max}
          value={text}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onChange={(event) => {
            const next = event.target.value;
            setText(next);
            if (next.trim() === '') {
              setError(undefined);
              onChange(undefined);
              return;
            }
            const number = Number(next);
            if (!Number.isFinite(number) || (integer && !Number.isInteger(number))) {
              setError(integer ? 'Enter a whole number' : 'Enter a number');
              return;
            }
            setError(undefined);
            onChange(number);
          }}
        />
      )}
    </Field>
  );
}

/** A value as JsonField shows it: indented JSON, or nothing for `undefined`. */
function showJson(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

/** JSON text: applied when it parses (empty: `undefined`); otherwise says why and keeps the last good value. */
export function JsonField({
  label,
  value,
  onChange,
  hint,
  rows = 5,
  check,
  options,
}: {
  label: ReactNode;
  value: unknown;
  onChange: (value: unknown) => void;
  hint?: ReactNode;
  rows?: number;
  /** A problem with a parsed value, if any (e.g. "must be an object"). */
  check?: (value: unknown) => string | undefined;
  /** References offered after `{{` inside the JSON's strings (an HTTP tool's body); none: a plain text area. */
  options?: readonly ReferenceOption[];
}) {
  const [text, setText] = useState(showJson(value));
  const [error, setError] = useState<string | undefined>(undefined);
  const last = useRef(value);
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setText(showJson(value));
      setError(undefined);
    }
  }, [value]);
  const apply = (next: string) => {
    setText(next);
    if (next.trim() === '') {
      setError(undefined);
      last.current = undefined;
      onChange(undefined);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(next);
    } catch (reason) {
      setError(`Not valid JSON: ${(reason as Error).message}`);
      return;
    }
    const problem = check?.(parsed);
    if (problem) {
      setError(problem);
      return;
    }
    setError(undefined);
    last.current = parsed;
    onChange(parsed);
  };
  if (options) return <RefField label={label} hint={hint} error={error} value={text} onChange={apply} options={options} multiline rows={rows} />;
  return (
    <TextAreaField
      label={label}
      hint={hint}
      error={error}
      className="code"
      rows={rows}
      spellCheck={false}
      value={text}
      onChange={(event) => apply(event.target.value)}
    />
  );
}

/** Name/value rows (headers, an agent's input mapping): values offer references. */
export function PairsField({
  label,
  value,
  onChange,
  options,
  namePlaceholder = 'Name',
  addLabel,
}: {
  label: string;
  value: Record<string, unknown> | undefined;
  onChange: (value: Record<string, unknown> | undefined) => void;
  options: readonly ReferenceOption[];
  namePlaceholder?: string;
  addLabel: string;
}) {
  const entries = Object.entries(value ?? {});
  const set = (next: Array<[string, unknown]>) => onChange(next.length === 0 ? undefined : Object.fromEntries(next));
  return (
    <fieldset className="pairs">
      <legend>{label}</legend>
      {entries.length === 0 ? <div className="faint">None</div> : null}
      {entries.map(([name, v], index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a pair's place is its identity; its name is edited in place, so keying by it would remount the row (and lose focus) at each keystroke.
        <div className="pair" key={index}>
          <input
            className="input code"
            aria-label={`${label}: name ${index + 1}`}
            placeholder={namePlaceholder}
            value={name}
            onChange={(event) => set(entries.map((entry, i) => (i === index ? [event.target.value, entry[1]] : entry)))}
          />
          <div className="grow">
            <RefField
              label={<span className="sr-only">{`${label}: value of ${name || index + 1}`}</span>}
              hint=""
              value={typeof v === 'string' ? v : JSON.stringify(v)}
              onChange={(text) => set(entries.map((entry, i) => (i === index ? [entry[0], text] : entry)))}
              options={options}
            />
          </div>
          <Button
            small
            variant="ghost"
            aria-label={`Remove ${label.toLowerCase()} ${name || index + 1}`}
            onClick={() => set(entries.filter((_e, i) => i !== index))}
          >
            ✕
          </Button>
        </div>
      ))}
      <Button small onClick={() => set([...entries, [uniqueName(entries.map((e) => e[0])), '']])}>
        {addLabel}
      </Button>
    </fieldset>
  );
}

function uniqueName(taken: string[]): string {
  for (let n = 1; ; n += 1) if (!taken.includes(`name${n === 1 ? '' : n}`)) return `name${n === 1 ? '' : n}`;
}
