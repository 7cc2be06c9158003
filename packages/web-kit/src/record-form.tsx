import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Dialog } from './dialog.tsx';
import { Button, CheckboxField, FormError, SelectField, TextAreaField, TextField } from './forms.tsx';
import { useToast } from './toast.tsx';

/** A form's values, by field name. */
export type FormValues = Record<string, string | boolean>;

interface FieldBase<V extends FormValues> {
  /** The key of the value the field edits. */
  name: Extract<keyof V, string>;
  label: string;
  hint?: ReactNode;
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  maxLength?: number;
}

/** One field of a form declared by its fields: a text input (the default), a select, a text area, a checkbox, or anything `render` draws. */
export type FormField<V extends FormValues> =
  | (FieldBase<V> & { kind?: 'text'; type?: 'text' | 'password' | 'url' | 'email' | 'tel'; pattern?: string; autoComplete?: string })
  | (FieldBase<V> & { kind: 'select'; options: Array<{ value: string; label: string }> })
  | (FieldBase<V> & { kind: 'textarea'; rows?: number })
  | (FieldBase<V> & { kind: 'checkbox' })
  | { kind: 'custom'; name: string; render(values: V, set: (change: Partial<V>) => void): ReactNode };

/** A field, or nothing where a field is shown only sometimes. */
type MaybeField<V extends FormValues> = FormField<V> | null | false | undefined;

/** The fields top to bottom; an array is a row of fields side by side; null, false and undefined are left out. */
export type FormLayout<V extends FormValues> = Array<MaybeField<V> | Array<MaybeField<V>>>;

/** A create or edit form, said as data: its fields, what is wrong before sending, and the request. */
export interface FormSpec<V extends FormValues, R = unknown> {
  /** The dialog's title; a create form left without one is titled by the button that opens it. */
  title?: string;
  /** The submit button (**Create token**, **Save**); the title unless said. */
  submitLabel?: string;
  initial: V;
  /** The fields for the values being edited (a hint may quote a value, a field may depend on another). */
  fields(values: V): FormLayout<V>;
  /** What is wrong with the values, said before any request, or undefined to send them. */
  check?(values: V): string | undefined;
  /** Sends the values; a rejection's message is shown in the form. */
  submit(values: V): Promise<R>;
  /** The notice once saved (a toast), if any. */
  done?(result: R, values: V): string;
  /** A wide dialog (Markdown, several fields a row). */
  wide?: boolean;
}

/** A form ready for a dialog: its value type checked where it was declared (see `form`). */
export type Form<R = unknown> = FormSpec<FormValues, R>;

/**
 * Declares a form: its value type is taken from `initial`, and the field
 * names, `check` and `submit` are checked against it. What it returns no
 * longer names the value type, so one list can hold forms of different shapes
 * (the kit hands a form only its own values back).
 */
export function form<V extends FormValues, R>(spec: FormSpec<V, R>): Form<R> {
  return spec as unknown as Form<R>;
}

/** The state of a form being filled in: its values, its error, and its submit handler. */
export function useRecordForm<V extends FormValues, R>(
  spec: Pick<FormSpec<V, R>, 'initial' | 'check' | 'submit' | 'done'>,
  onDone: (result: R, values: V) => void,
) {
  const [values, setValues] = useState<V>(spec.initial);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const notify = useToast();
  const latest = useRef(spec);
  latest.current = spec;
  const set = (change: Partial<V>) => setValues((current) => ({ ...current, ...change }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = latest.current.check?.(values);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError('');
    let result: R;
    try {
      result = await latest.current.submit(values);
    } catch (reason) {
      setError((reason as Error).message);
      setBusy(false);
      return;
    }
    const done = latest.current.done?.(result, values);
    if (done) notify(done);
    // Busy until the form goes away: its owner closes it or shows what was saved.
    onDone(result, values);
  };
  return { values, set, error, busy, setBusy, submit };
}

/** The fields of `layout`, each bound to its value. */
export function FormFields<V extends FormValues>({ layout, values, set }: { layout: FormLayout<V>; values: V; set: (change: Partial<V>) => void }) {
  return (
    <>
      {layout.map((entry, index) => {
        if (!entry) return null;
        if (!Array.isArray(entry)) return <OneField key={entry.name} field={entry} values={values} set={set} />;
        const shown = entry.filter((field): field is FormField<V> => Boolean(field));
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a row's place is its identity (a left-out field keeps its slot as null, so places never shift); keyed by the fields it shows, a row would remount, losing focus, when one appears.
          <div key={index} className={`grid-${shown.length}`}>
            {shown.map((field) => (
              <OneField key={field.name} field={field} values={values} set={set} />
            ))}
          </div>
        );
      })}
    </>
  );
}

function OneField<V extends FormValues>({ field, values, set }: { field: FormField<V>; values: V; set: (change: Partial<V>) => void }) {
  if (field.kind === 'custom') return <>{field.render(values, set)}</>;
  const { name, kind, ...props } = field as FieldBase<V> & { kind?: string; options?: Array<{ value: string; label: string }> };
  const change = (value: string | boolean) => set({ [name]: value } as Partial<V>);
  if (field.kind === 'checkbox')
    return <CheckboxField label={field.label} checked={Boolean(values[name])} disabled={field.disabled} onChange={(e) => change(e.target.checked)} />;
  const value = String(values[name] ?? '');
  if (kind === 'select') {
    const { options, ...rest } = props as typeof props & { options: Array<{ value: string; label: string }> };
    return <SelectField {...rest} options={options} value={value} onChange={(e) => change(e.target.value)} />;
  }
  if (kind === 'textarea') return <TextAreaField {...props} value={value} onChange={(e) => change(e.target.value)} />;
  return <TextField {...props} value={value} onChange={(e) => change(e.target.value)} />;
}

/**
 * A create or edit dialog driven by its field list: the fields, the form's
 * error (what `check` says, or the service's message), **Cancel** and the
 * submit button. `title` names a dialog whose form has no title of its own.
 * `onDone` gets the answer; the dialog stays busy until its owner closes it.
 */
export function FormDialog<R>({
  spec,
  title,
  onClose,
  onDone,
}: {
  spec: Form<R>;
  title?: string;
  onClose: () => void;
  onDone: (result: R, values: FormValues) => void;
}) {
  const form = useRecordForm(spec, onDone);
  const id = useId();
  const named = spec.title ?? title ?? '';
  return (
    <Dialog
      title={named}
      wide={spec.wide}
      onClose={onClose}
      actions={
        <Button variant="primary" type="submit" form={id} busy={form.busy}>
          {spec.submitLabel ?? named}
        </Button>
      }
    >
      <form id={id} className="stack" onSubmit={form.submit} noValidate>
        <FormError>{form.error}</FormError>
        <FormFields layout={spec.fields(form.values)} values={form.values} set={form.set} />
      </form>
    </Dialog>
  );
}

/** The same form in place (an article being edited): the fields, then **Cancel** and the submit button at the end. */
export function RecordForm<R>({
  spec,
  className,
  onCancel,
  onDone,
}: {
  spec: Form<R>;
  className?: string;
  onCancel: () => void;
  onDone: (result: R, values: FormValues) => void;
}) {
  const form = useRecordForm(spec, (result, values) => {
    form.setBusy(false);
    onDone(result, values);
  });
  return (
    <form className={className ?? 'stack'} onSubmit={form.submit} noValidate>
      <FormError>{form.error}</FormError>
      <FormFields layout={spec.fields(form.values)} values={form.values} set={form.set} />
      <div className="row end">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={form.busy}>
          {spec.submitLabel ?? spec.title ?? 'Save'}
        </Button>
      </div>
    </form>
  );
}
