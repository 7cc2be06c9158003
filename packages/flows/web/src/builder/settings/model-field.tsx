// The LLM node's Model: a text field that suggests the connection's models and still takes any name.
import { useEffect, useId, useState } from 'react';
import { TextField } from '@switchboard/web-kit';

/** **Model**: a combobox of the provider's models (asked once per connection); any text is kept as typed. */
export function ModelField({
  provider,
  value,
  models,
  onChange,
}: {
  provider: string;
  value: string;
  models?: (provider: string) => Promise<string[]>;
  onChange: (model: string) => void;
}) {
  const listId = useId();
  const [known, setKnown] = useState<{ provider: string; ids: string[]; error?: string } | undefined>(undefined);
  useEffect(() => {
    if (!provider || !models) return;
    let current = true;
    models(provider).then(
      (ids) => current && setKnown({ provider, ids }),
      (reason: Error) => current && setKnown({ provider, ids: [], error: reason.message }),
    );
    return () => {
      current = false;
    };
  }, [provider, models]);
  const shown = known?.provider === provider ? known : undefined;
  const hint = !provider
    ? 'Choose a provider to see its models, or type a model name.'
    : shown?.error
      ? `Its models could not be listed (${shown.error}); type the name.`
      : shown
        ? `${shown.ids.length} model${shown.ids.length === 1 ? '' : 's'} of ${provider}; any other name works too.`
        : `Listing the models of ${provider}…`;
  return (
    <>
      <TextField
        label="Model"
        className="code"
        role="combobox"
        aria-autocomplete="list"
        list={listId}
        value={value}
        placeholder="gpt-4o-mini, llama3.2…"
        hint={hint}
        autoComplete="off"
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id={listId}>
        {(shown?.ids ?? []).map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
    </>
  );
}
