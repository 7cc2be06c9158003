// The Retrieval, Agent, Template and Output nodes' settings.
import { SelectField, TextField } from '@switchboard/web-kit';
import { OUTPUT_FORMATS } from '../../../../src/domain/flow-definition.ts';
import { JsonField, NumberField, PairsField, RefField } from '../fields.tsx';
import { ChoiceField } from './choice-field.tsx';
import { str, withCurrent, type SettingsProps } from './settings-props.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The Retrieval node's settings. */
export function RetrievalSettings({ node, set, references, choices }: SettingsProps) {
  const data = node.data;
  return (
    <div className="stack">
      <ChoiceField
        label="Knowledge base"
        field="knowledge_base"
        data={data}
        names={choices.knowledgeBases}
        placeholder="Choose a knowledge base"
        set={set}
        none="No knowledge bases yet: create one under Knowledge."
      />
      <RefField label="Query" value={str(data.query)} options={references} onChange={(v) => set({ query: v }, 'query')} />
      {/* Field declarations: each setting's field, alike in shape, bound to its own key. */}
      <NumberField
        label="Top K"
        value={data.top_k}
        integer
        min={1}
        max={50}
        hint="How many chunks (1-50, default 4)"
        onChange={(v) => set({ top_k: v }, 'top_k')}
      />
    </div>
  );
}

/** The Agent node's settings: the flow it runs and what it passes; as a tool, its name and description. */
export function AgentSettings({ node, set, references, choices, slug }: SettingsProps) {
  const data = node.data;
  const flows = choices.flows.map((f) => ({ value: f.slug, label: f.slug === slug ? `${f.name} (${f.slug}, this flow)` : `${f.name} (${f.slug})` }));
  if (typeof data.flow === 'string' && data.flow !== '' && !flows.some((f) => f.value === data.flow))
    flows.unshift({ value: data.flow, label: `${data.flow} (not found)` });
  return (
    <div className="stack">
      <SelectField label="Flow" value={str(data.flow)} options={flows} placeholder="Choose a flow" onChange={(e) => set({ flow: e.target.value }, 'flow')} />
      {/* Field declarations, like the Tool node's: alike in shape, each bound to its own key. */}
      <PairsField
        label="Input mapping"
        addLabel="Add input"
        namePlaceholder="Variable"
        value={isObject(data.input) ? data.input : undefined}
        options={references}
        onChange={(v) => set({ input: v }, 'input')}
      />
      <TextField
        label="Tool name"
        className="code"
        value={str(data.name)}
        hint="When wired into an LLM node: the tool's name (default: the flow's slug)"
        onChange={(e) => set({ name: e.target.value || undefined }, 'name')}
      />
      <TextField label="Tool description" value={str(data.description)} onChange={(e) => set({ description: e.target.value || undefined }, 'description')} />
    </div>
  );
}

/** The Template node's settings. */
export function TemplateSettings({ node, set, references }: SettingsProps) {
  return (
    <RefField
      label="Template"
      multiline
      rows={6}
      value={str(node.data.template)}
      options={references}
      hint="Text with {{references}}"
      onChange={(v) => set({ template: v }, 'template')}
    />
  );
}

/** Each response shape as the Format select names and explains it (the definition keeps the value). */
const FORMATS: Record<string, { label: string; hint: string }> = {
  raw: { label: 'Plain text', hint: 'The reply alone, as text (raw)' },
  chat_completion: { label: 'Chat completion (OpenAI)', hint: "OpenAI's ChatCompletion object (chat_completion)" },
  json_template: { label: 'JSON template', hint: 'Your own JSON (json_template)' },
};

/** The Output node's settings: the response's shape. */
export function OutputSettings({ node, set }: SettingsProps) {
  const format = str(node.data.format);
  return (
    <div className="stack">
      <SelectField
        label="Format"
        value={format}
        options={withCurrent(OUTPUT_FORMATS, format).map((option) => ({ ...option, label: FORMATS[option.value]?.label ?? option.label }))}
        hint={FORMATS[format]?.hint}
        onChange={(e) =>
          set({ format: e.target.value, template: e.target.value === 'json_template' ? (node.data.template ?? { answer: '' }) : undefined }, 'format')
        }
      />
      {format === 'json_template' ? (
        <JsonField
          label="Template (JSON)"
          value={node.data.template}
          rows={6}
          hint="A string that is exactly one {{reference}} keeps its JSON type"
          onChange={(v) => set({ template: v }, 'template')}
        />
      ) : null}
    </div>
  );
}
