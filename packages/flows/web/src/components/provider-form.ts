// The form that adds or edits a provider connection: on LLM Hub → Providers, and in place from an LLM node's Provider select.
import { form } from '@switchboard/web-kit';
import type { hubApi, ProviderInput } from '../api/hub-api.ts';
import type { ProviderInfo } from '../api/types.ts';

type Hub = Pick<ReturnType<typeof hubApi>, 'saveProvider'>;

// Labels short enough for the dialog's select; what each kind covers is its hint below it.
const KINDS: Array<{ value: ProviderInfo['kind']; label: string; hint: string }> = [
  { value: 'openai-compatible', label: 'OpenAI-compatible', hint: 'Ollama, vLLM, llama.cpp server, LM Studio, OpenRouter… (a base URL is needed)' },
  { value: 'openai', label: 'OpenAI', hint: "OpenAI's API (the base URL is optional)" },
  { value: 'anthropic', label: 'Anthropic', hint: "Anthropic's API (the base URL is optional)" },
];

/** Add (with a **Name**) or edit a connection: **Kind**, **Base URL**, **API key** (and, when one is stored, **Remove the stored key**). */
export function providerForm(hub: Hub, provider: ProviderInfo | undefined) {
  return form({
    title: provider ? `Edit provider "${provider.name}"` : 'Add provider',
    submitLabel: 'Save',
    initial: { name: provider?.name ?? '', kind: provider?.kind ?? 'openai-compatible', baseUrl: provider?.base_url ?? '', apiKey: '', removeKey: false },
    fields: (values) => [
      provider
        ? null
        : {
            name: 'name',
            label: 'Name',
            placeholder: 'local',
            maxLength: 40,
            pattern: '[a-z0-9_\\-]+',
            hint: '1 to 40 characters of a-z, 0-9, _ and -. LLM nodes name the connection by it.',
            required: true,
          },
      { name: 'kind', label: 'Kind', kind: 'select', options: KINDS, hint: KINDS.find((k) => k.value === values.kind)?.hint },
      {
        name: 'baseUrl',
        label: 'Base URL',
        type: 'url',
        placeholder: values.kind === 'openai-compatible' ? 'http://127.0.0.1:11434/v1' : 'Leave empty for the official API',
        required: values.kind === 'openai-compatible',
      },
      {
        name: 'apiKey',
        label: 'API key',
        type: 'password',
        autoComplete: 'off',
        disabled: values.removeKey,
        placeholder: provider?.has_api_key ? 'Leave empty to keep the stored key' : 'Optional for local servers',
        hint: provider?.has_api_key ? 'A key is stored (never shown). Enter a new one to replace it.' : 'Stored encrypted; never shown again.',
      },
      provider?.has_api_key ? { name: 'removeKey', label: 'Remove the stored key', kind: 'checkbox' } : null,
    ],
    check: (values) => {
      if (!values.name.trim()) return 'Give the connection a name: LLM nodes refer to it by this name.';
      if (values.kind === 'openai-compatible' && !values.baseUrl.trim()) return 'An OpenAI-compatible connection needs a base URL.';
      return undefined;
    },
    submit: (values) => {
      const body: ProviderInput = { kind: values.kind as ProviderInfo['kind'] };
      if (values.baseUrl.trim()) body.base_url = values.baseUrl.trim();
      // No api_key keeps the stored key; null removes it.
      if (values.apiKey) body.api_key = values.apiKey;
      else if (values.removeKey) body.api_key = null;
      return hub.saveProvider(values.name.trim(), body);
    },
    done: (_saved, values) => `Provider "${values.name.trim()}" saved`,
  });
}
