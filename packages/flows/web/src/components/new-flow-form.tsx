// **New flow**: Blank or a template, asking only for what the chosen one needs (a provider and model, a
// knowledge base, a URL, a secret), then version 1 is saved and its canvas opens.
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { form, type FormValues } from '@switchboard/web-kit';
import type { OrgApi } from '../api/client.ts';
import type { Flow, FlowTemplate } from '../api/types.ts';
import { starterDefinition } from '../canvas/starter.ts';
import './new-flow.css';

/** What the form chooses from: the organization's templates, connections, knowledge bases and secret names. */
export interface NewFlowChoices {
  templates: FlowTemplate[];
  providers: string[];
  knowledgeBases: string[];
  secrets: string[];
}

/** The flow made, and the template it came from (none: Blank). */
export interface NewFlow {
  flow: Flow;
  template?: string;
}

const BLANK = 'blank';

/** The secret names a template needs (`secret:NAME`). */
const secretsOf = (template: FlowTemplate | undefined) => (template?.needs ?? []).filter((n) => n.startsWith('secret:')).map((n) => n.slice('secret:'.length));

/** The New flow form for `client`'s organization. */
export function newFlowForm(client: OrgApi, choices: NewFlowChoices, base: string) {
  const find = (id: unknown) => choices.templates.find((t) => t.id === id);
  return form({
    title: 'New flow',
    submitLabel: 'Create',
    wide: true,
    initial: {
      template: BLANK,
      name: '',
      provider: choices.providers[0] ?? '',
      model: '',
      knowledgeBase: choices.knowledgeBases[0] ?? '',
      url: '',
      secret: '',
    },
    fields: (values) => {
      const template = find(values.template);
      const needs = new Set(template?.needs ?? []);
      const missingSecret = secretsOf(template).find((name) => !choices.secrets.includes(name));
      return [
        {
          kind: 'custom',
          name: 'template',
          render: (v, set) => <StartFrom templates={choices.templates} value={String(v.template)} onChange={(id) => set({ template: id })} />,
        },
        {
          name: 'name',
          label: 'Name',
          placeholder: template ? template.definition.name : 'Support bot',
          maxLength: 200,
          required: !template,
          autoFocus: true,
          hint: template ? `Leave empty for "${template.definition.name}".` : undefined,
        },
        needs.has('provider')
          ? [
              {
                name: 'provider',
                label: 'Provider',
                kind: 'select',
                options: choices.providers.map((p) => ({ value: p, label: p })),
                hint:
                  choices.providers.length === 0 ? (
                    <NoneYet what="provider connections" to={`${base}/providers`} page="LLM Hub → Providers" />
                  ) : (
                    template?.hints.provider
                  ),
              },
              {
                kind: 'custom',
                name: 'model',
                render: (v, set) => <ModelInput client={client} provider={String(v.provider)} value={String(v.model)} onChange={(model) => set({ model })} />,
              },
            ]
          : null,
        needs.has('knowledge_base')
          ? {
              name: 'knowledgeBase',
              label: 'Knowledge base',
              kind: 'select',
              options: choices.knowledgeBases.map((kb) => ({ value: kb, label: kb })),
              hint:
                choices.knowledgeBases.length === 0 ? (
                  <NoneYet what="knowledge bases" to={`${base}/knowledge`} page="Knowledge" />
                ) : (
                  template?.hints.knowledge_base
                ),
            }
          : null,
        needs.has('url') ? { name: 'url', label: 'URL', type: 'url', placeholder: 'https://…', required: true, hint: template?.hints.url } : null,
        missingSecret
          ? {
              name: 'secret',
              label: missingSecret,
              type: 'password',
              autoComplete: 'off',
              required: true,
              hint: `${template?.hints[`secret:${missingSecret}`] ?? ''} Stored encrypted as the secret ${missingSecret}; never shown again.`,
            }
          : null,
      ];
    },
    check: (values) => checkNewFlow(find(values.template), values, choices),
    submit: async (values): Promise<NewFlow> => {
      const template = find(values.template);
      if (!template) return { flow: await client.saveFlow({ ...starterDefinition(values.name.trim()), note: 'Created' }) };
      const missingSecret = secretsOf(template).find((name) => !choices.secrets.includes(name));
      if (missingSecret && values.secret) await client.setSecret(missingSecret, values.secret);
      const needs = new Set(template.needs);
      const bindings: Record<string, string> = {};
      if (needs.has('provider')) Object.assign(bindings, { provider: values.provider, model: values.model.trim() });
      if (needs.has('knowledge_base')) bindings.knowledge_base = values.knowledgeBase;
      if (needs.has('url')) bindings.url = values.url.trim();
      const flow = await client.fromTemplate({ ...(values.name.trim() ? { name: values.name.trim() } : {}), template: template.id, bindings });
      return { flow, template: template.name };
    },
  });
}

/** What is missing before a request is worth sending. */
function checkNewFlow(template: FlowTemplate | undefined, values: FormValues, choices: NewFlowChoices): string | undefined {
  const text = (key: string) => String(values[key] ?? '').trim();
  if (!template) return text('name') ? undefined : 'Give the flow a name.';
  const needs = new Set(template.needs);
  if (needs.has('provider') && !text('provider')) return 'Choose a provider connection (add one under LLM Hub → Providers).';
  if (needs.has('provider') && !text('model')) return 'Choose or type a model.';
  if (needs.has('knowledge_base') && !text('knowledgeBase')) return 'Choose a knowledge base (create one under Knowledge).';
  if (needs.has('url') && !text('url')) return 'Give the URL the tool calls.';
  const missingSecret = secretsOf(template).find((name) => !choices.secrets.includes(name));
  if (missingSecret && !text('secret')) return `Give the value of the secret ${missingSecret}.`;
  return undefined;
}

/** **Start from**: Blank or one of the templates, as radio buttons with what each does. */
function StartFrom({ templates, value, onChange }: { templates: FlowTemplate[]; value: string; onChange: (id: string) => void }) {
  const options = [{ id: BLANK, name: 'Blank', description: 'An Input wired to an Output: build the rest on the canvas.' }, ...templates];
  return (
    <fieldset className="start-from">
      <legend>Start from</legend>
      {options.map((option) => (
        <label key={option.id} className={`start-option${value === option.id ? ' chosen' : ''}`}>
          <input type="radio" name="start-from" value={option.id} checked={value === option.id} onChange={() => onChange(option.id)} />
          <span>
            <strong>{option.name}</strong>
            <span className="faint small">{option.description}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** **Model**: the connection's models as suggestions; any name may be typed. */
function ModelInput({ client, provider, value, onChange }: { client: OrgApi; provider: string; value: string; onChange: (model: string) => void }) {
  const [models, setModels] = useState<{ provider: string; ids: string[]; error?: string } | undefined>(undefined);
  useEffect(() => {
    if (!provider) return;
    const controller = new AbortController();
    client.models(provider, controller.signal).then(
      (ids) => setModels({ provider, ids }),
      (reason: Error) => reason.name !== 'AbortError' && setModels({ provider, ids: [], error: reason.message }),
    );
    return () => controller.abort();
  }, [client, provider]);
  const id = useId();
  const shown = models?.provider === provider ? models : undefined;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        Model
      </label>
      <input
        id={id}
        className="input code"
        aria-autocomplete="list"
        aria-describedby={`${id}-hint`}
        list={`${id}-list`}
        value={value}
        autoComplete="off"
        placeholder="gpt-4o-mini, llama3.2…"
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id={`${id}-list`}>
        {(shown?.ids ?? []).map((model) => (
          <option key={model} value={model} />
        ))}
      </datalist>
      <span className="hint" id={`${id}-hint`}>
        {shown?.error
          ? `The models could not be listed (${shown.error}); type the name.`
          : shown
            ? `${shown.ids.length} models of ${provider}; any other name works too.`
            : ''}
      </span>
    </div>
  );
}

function NoneYet({ what, to, page }: { what: string; to: string; page: string }) {
  return (
    <>
      No {what} yet: add one under <Link to={to}>{page}</Link>.
    </>
  );
}
