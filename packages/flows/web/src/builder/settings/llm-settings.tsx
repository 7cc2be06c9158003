// The LLM node's settings: connection, model, prompts, sampling, memory and the tool loop.
import { Link, useParams } from 'react-router-dom';
import { SelectField } from '@switchboard/web-kit';
import { NumberField, RefField } from '../fields.tsx';
import { ModelField } from './model-field.tsx';
import { str, withCurrent, type SettingsProps } from './settings-props.ts';

/** The Provider select's last option: opens the providers dialog instead of choosing. */
const ADD_PROVIDER = '__add_provider__';

/** The LLM node's settings. */
export function LlmSettings({ node, set, references, tools, choices }: SettingsProps) {
  const { org = '' } = useParams();
  const data = node.data;
  const memory = data.memory as { window?: unknown } | undefined;
  return (
    <div className="stack">
      <SelectField
        label="Provider"
        value={str(data.provider)}
        options={[...withCurrent(choices.providers, data.provider), ...(choices.addProvider ? [{ value: ADD_PROVIDER, label: 'Add provider…' }] : [])]}
        placeholder="Choose a connection"
        hint={
          choices.providers.length === 0 ? (
            <>
              No connections yet: choose <strong>Add provider…</strong>, or manage them under <Link to={`/orgs/${org}/providers`}>LLM Hub → Providers</Link>.
            </>
          ) : undefined
        }
        onChange={(e) => {
          if (e.target.value !== ADD_PROVIDER) return set({ provider: e.target.value }, 'provider');
          void choices.addProvider?.().then((name) => name && set({ provider: name }, 'provider'));
        }}
      />
      <ModelField provider={str(data.provider)} value={str(data.model)} models={choices.models} onChange={(model) => set({ model }, 'model')} />
      {/* Field declarations: each setting's field, alike in shape, bound to its own key. */}
      <RefField
        label="System prompt"
        multiline
        rows={3}
        value={str(data.system)}
        options={references}
        onChange={(v) => set({ system: v === '' ? undefined : v }, 'system')}
      />
      <RefField
        label="Prompt"
        multiline
        rows={3}
        value={str(data.prompt)}
        options={references}
        hint="Type {{ for the input, earlier nodes' outputs and metadata"
        onChange={(v) => set({ prompt: v === '' ? undefined : v }, 'prompt')}
      />
      <div className="grid-2">
        <NumberField label="Temperature" value={data.temperature} step={0.1} min={0} max={2} onChange={(v) => set({ temperature: v }, 'temperature')} />
        <NumberField label="Max tokens" value={data.max_tokens} integer min={1} onChange={(v) => set({ max_tokens: v }, 'max_tokens')} />
        <NumberField
          label="Memory window"
          value={memory?.window}
          integer
          min={1}
          hint="Messages of the session kept"
          onChange={(v) => set({ memory: v === undefined ? undefined : { ...(memory ?? {}), window: v } }, 'memory')}
        />
        <NumberField
          label="Max steps"
          value={data.max_steps}
          integer
          min={1}
          max={50}
          hint="Tool-calling rounds"
          onChange={(v) => set({ max_steps: v }, 'max_steps')}
        />
      </div>
      <div className="field">
        <span className="field-label">Tools</span>
        <div className="hint">
          {tools.length === 0 ? "None: wire HTTP tool, MCP tool or Agent nodes into this node's tools handle (below it)." : tools.join(', ')}
        </div>
      </div>
    </div>
  );
}
