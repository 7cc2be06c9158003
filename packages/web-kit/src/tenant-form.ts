import { ApiError } from './api.ts';
import { form } from './record-form.tsx';
import type { TenantCreate } from './layout.tsx';

/** What a tenant's create form asks: its code (or key), its name, and for a project a description. */
export interface NewTenant {
  code: string;
  name: string;
  description: string;
}

/**
 * The **New organization** / **New project** form of a switcher: **Code** (or **Key**) with its rule as a
 * hint, **Name** and, when asked, **Description**; the service checks the rules and names every problem.
 */
export function newTenantForm(options: {
  /** The entry's and the dialog's name: `New organization`. */
  label: string;
  /** The code field's label (`Code`, `Key`) and its rule, said under it. */
  codeLabel: string;
  codeHint: string;
  /** Keys are upper case (the board's): what is typed is shown as it will be stored. */
  upperCase?: boolean;
  /** Name required (the board's projects), else it defaults to the code. */
  nameRequired?: boolean;
  description?: boolean;
  create(values: NewTenant): Promise<unknown>;
  codeOf(result: unknown): string;
}): TenantCreate {
  return {
    label: options.label,
    codeOf: options.codeOf,
    form: form({
      title: options.label,
      submitLabel: 'Create',
      initial: { code: '', name: '', description: '' },
      fields: () => [
        {
          name: 'code',
          label: options.codeLabel,
          hint: options.codeHint,
          required: true,
          autoFocus: true,
          autoComplete: 'off',
          placeholder: options.upperCase ? 'DEMO' : 'acme',
        },
        {
          name: 'name',
          label: 'Name',
          required: options.nameRequired,
          maxLength: 200,
          hint: options.nameRequired ? undefined : `Optional: the ${options.codeLabel.toLowerCase()}, when left empty.`,
        },
        options.description ? { name: 'description', label: 'Description', kind: 'textarea', rows: 3 } : null,
      ],
      check: (values) => (values.code.trim() ? undefined : `Enter the ${options.codeLabel.toLowerCase()}.`),
      submit: (values) =>
        options
          .create({
            code: options.upperCase ? values.code.trim().toUpperCase() : values.code.trim(),
            name: values.name.trim(),
            description: values.description.trim(),
          })
          .catch((error: unknown) => {
            throw everyProblem(error);
          }),
      done: (_result, values) => `${values.name.trim() || values.code.trim()} created`,
    }),
  };
}

/**
 * A 422's problems said together, one a line, rather than the first and a count: the flows service lists them
 * in `error.details` (`[{"message"}]`), the board in `error.details.issues`; anything else as it came.
 */
function everyProblem(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 422) return error;
  const details = (error.body as { error?: { details?: unknown } } | null)?.error?.details;
  const list = Array.isArray(details) ? details : (details as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(list) || list.length < 2) return error;
  const messages = list.map((problem) => (problem as { message?: unknown }).message).filter((message): message is string => typeof message === 'string');
  return messages.length === list.length ? new ApiError(error.status, messages.join('\n'), error.code, error.body) : error;
}
