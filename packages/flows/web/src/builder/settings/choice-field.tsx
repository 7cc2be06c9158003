// A select of one of the organization's named things: a provider connection, a knowledge base.
import type { ReactNode } from 'react';
import { SelectField } from '@switchboard/web-kit';
import { str, withCurrent, type SettingsProps } from './settings-props.ts';

/**
 * The `field` of the node's data as a select of `names`: a value no longer
 * among them stays, marked not found; `none` is its hint while there are none.
 */
export function ChoiceField({
  label,
  field,
  data,
  names,
  placeholder,
  none,
  set,
}: {
  label: string;
  field: string;
  data: Record<string, unknown>;
  names: readonly string[];
  placeholder: string;
  none: ReactNode;
  set: SettingsProps['set'];
}) {
  return (
    <SelectField
      label={label}
      value={str(data[field])}
      options={withCurrent(names, data[field])}
      placeholder={placeholder}
      hint={names.length === 0 ? none : undefined}
      onChange={(e) => set({ [field]: e.target.value }, field)}
    />
  );
}
