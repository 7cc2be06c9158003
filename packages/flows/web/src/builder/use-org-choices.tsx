// What the builder's settings offer from the organization: its connections (and adding one in place),
// a connection's models, its flows, knowledge bases and secret names; read again when the window regains focus.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { FormDialog, useResource } from '@switchboard/web-kit';
import type { BuilderApi } from '../api/builder-api.ts';
import { hubApi } from '../api/hub-api.ts';
import { providerForm } from '../components/provider-form.ts';
import type { SettingsChoices } from './settings/settings-props.ts';

/** The organization's choices for the open flow, the names validation checks against, and the providers dialog to render. */
export function useOrgChoices(
  client: BuilderApi,
  org: string,
): {
  choices: SettingsChoices;
  providerNames: ReadonlySet<string> | undefined;
  secretNames: ReadonlySet<string> | undefined;
  dialog: ReactNode;
} {
  const providers = useResource((signal) => client.providers(signal), [client]);
  const flows = useResource((signal) => client.flows(signal), [client]);
  const knowledgeBases = useResource((signal) => client.knowledgeBases(signal), [client]);
  const secrets = useResource((signal) => client.secrets(signal), [client]);
  const hub = useMemo(() => hubApi(`/api/llm/${encodeURIComponent(org)}`), [org]);

  // A connection added in another tab (LLM Hub → Providers) shows when the user comes back.
  const { reload: reloadProviders, setData: setProviders } = providers;
  useEffect(() => {
    const onFocus = () => {
      reloadProviders();
      knowledgeBases.reload();
      secrets.reload();
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [reloadProviders, knowledgeBases.reload, secrets.reload]);

  const [adding, setAdding] = useState<((name: string | undefined) => void) | undefined>(undefined);
  const addProvider = useCallback(() => new Promise<string | undefined>((resolve) => setAdding(() => resolve)), []);
  const models = useRef(new Map<string, Promise<string[]>>());
  const listModels = useCallback(
    (provider: string) => {
      let list = models.current.get(provider);
      if (!list) {
        list = client.models(provider).then((answer) => answer.models.map((m) => m.id));
        // A failure is not kept: the next look asks again.
        list.catch(() => models.current.delete(provider));
        models.current.set(provider, list);
      }
      return list;
    },
    [client],
  );

  const choices = useMemo<SettingsChoices>(
    () => ({
      providers: providers.data?.providers.map((p) => p.name) ?? [],
      flows: flows.data?.flows ?? [],
      knowledgeBases: knowledgeBases.data?.knowledge_bases.map((kb) => kb.name) ?? [],
      secrets: secrets.data?.secrets.map((s) => s.name) ?? [],
      addProvider,
      models: listModels,
    }),
    [providers.data, flows.data, knowledgeBases.data, secrets.data, addProvider, listModels],
  );
  // Until the connections are known (or could not be listed), no provider name is reported unknown.
  // `openai` and `anthropic` may be served by the service's environment (OPENAI_API_KEY…), which the
  // list does not show: only the server can tell, and a save it refuses shows its 422 the same way.
  const providerNames = useMemo<ReadonlySet<string> | undefined>(() => {
    if (providers.data) return new Set([...providers.data.providers.map((p) => p.name), 'openai', 'anthropic']);
    if (providers.error) return { has: () => true } as unknown as ReadonlySet<string>;
    return undefined;
  }, [providers.data, providers.error]);
  const secretNames = useMemo<ReadonlySet<string> | undefined>(
    () => (secrets.data ? new Set(secrets.data.secrets.map((s) => s.name)) : undefined),
    [secrets.data],
  );

  const close = (name: string | undefined) => {
    adding?.(name);
    setAdding(undefined);
  };
  const dialog = adding ? (
    <FormDialog
      spec={providerForm(hub, undefined)}
      onClose={() => close(undefined)}
      onDone={(saved, values) => {
        const name = String(values.name).trim();
        // Shown at once in every Provider select; the list is read again behind it.
        setProviders((current) => ({
          providers: [...(current?.providers ?? []).filter((p) => p.name !== name), { name, kind: (saved as { kind: string }).kind }],
        }));
        models.current.delete(name);
        reloadProviders();
        close(name);
      }}
    />
  ) : null;
  return { choices, providerNames, secretNames, dialog };
}
