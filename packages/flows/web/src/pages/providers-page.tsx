import { useEffect, useMemo, useState } from 'react';
import { Badge, Button, Dialog, Loading, PageHeader, ResourceList, useResource, useTitle } from '@switchboard/web-kit';
import { useOrg } from '../api/use-org.ts';
import { hubApi, type ProviderTest } from '../api/hub-api.ts';
import { providerForm } from '../components/provider-form.ts';
import type { ProviderInfo } from '../api/types.ts';
import { HubNav } from '../components/hub-nav.tsx';
import { PricesDialog } from '../cost/prices-dialog.tsx';
import '../components/dashboard.css';

type Hub = ReturnType<typeof hubApi>;

/** **LLM Hub → Providers**: the organization's model connections (never their keys), add, edit, delete, **Test**, **Prices**. */
export default function ProvidersPage() {
  const { org } = useOrg();
  useTitle('Providers', 'Switchboard Flows');
  const hub = useMemo(() => hubApi(`/api/llm/${encodeURIComponent(org)}`), [org]);
  const providers = useResource((signal) => hub.providers(signal).then((answer) => answer.providers), [org]);
  return (
    <ResourceList
      noun="providers"
      source={providers}
      header={(create) => (
        <>
          <HubNav />
          <PageHeader title="Providers">{create}</PageHeader>
          <p className="muted page-intro">
            Model connections that LLM nodes name as their <strong>Provider</strong>. Keys are stored encrypted and never shown again. Without a connection
            named <code className="inline-code">openai</code> or <code className="inline-code">anthropic</code>, the service's environment variables serve as
            one. <strong>Prices</strong> sets what each model costs, so runs show their cost.
          </p>
        </>
      )}
      rowKey={(provider) => provider.name}
      columns={[
        { header: 'Name', className: 'cell-name mono', cell: (provider) => provider.name },
        { header: 'Kind', cell: (provider) => provider.kind },
        { header: 'Base URL', className: 'mono url-cell', cell: (provider) => provider.base_url ?? <span className="faint">default</span> },
        { header: 'API key', cell: (provider) => (provider.has_api_key ? <Badge kind="success">Set</Badge> : <Badge>Not set</Badge>) },
        { header: 'Updated', time: (provider) => provider.updated_at },
      ]}
      actions={[
        {
          label: 'Test',
          name: (provider) => `Test ${provider.name}`,
          dialog: (provider, close) => <TestDialog hub={hub} provider={provider} onClose={close} />,
        },
        {
          label: 'Prices',
          name: (provider) => `Prices of ${provider.name}`,
          dialog: (provider, close) => <PricesDialog base={`/api/llm/${encodeURIComponent(org)}`} name={provider.name} onClose={close} />,
        },
        { label: 'Edit', name: (provider) => `Edit ${provider.name}`, form: (provider) => providerForm(hub, provider) },
        {
          label: 'Delete',
          name: (provider) => `Delete ${provider.name}`,
          variant: 'danger',
          confirm: {
            title: (provider) => `Delete provider "${provider.name}"?`,
            message: () => 'Flows whose LLM nodes use this connection fail on their next run until it is added again.',
            confirmLabel: 'Delete',
            run: (provider) => hub.deleteProvider(provider.name),
            done: (provider) => `Provider "${provider.name}" deleted`,
          },
        },
      ]}
      create={{ label: 'Add provider', form: providerForm(hub, undefined) }}
      empty={{
        title: 'No providers yet',
        offerCreate: true,
        children: (
          <>
            Add a connection to OpenAI, Anthropic or any OpenAI-compatible server (for example Ollama at{' '}
            <code className="inline-code">http://127.0.0.1:11434/v1</code>).
          </>
        ),
      }}
    />
  );
}

/** **Test**: the provider's models, or its error. */
function TestDialog({ hub, provider, onClose }: { hub: Hub; provider: ProviderInfo; onClose: () => void }) {
  const [result, setResult] = useState<ProviderTest | { failed: Error } | null>(null);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is how Test again asks for another test.
  useEffect(() => {
    const controller = new AbortController();
    setResult(null);
    hub
      .testProvider(provider.name, controller.signal)
      .then((answer) => setResult(answer))
      .catch((reason: Error) => {
        if (reason.name !== 'AbortError') setResult({ failed: reason });
      });
    return () => controller.abort();
  }, [hub, provider.name, attempt]);

  return (
    <Dialog
      title={`Test of "${provider.name}"`}
      onClose={onClose}
      footer={
        <>
          <Button onClick={() => setAttempt((n) => n + 1)} disabled={result === null}>
            Test again
          </Button>
          <Button variant="primary" onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      {result === null ? (
        <Loading label={`Asking ${provider.name} for its models…`} />
      ) : 'failed' in result ? (
        <div className="notice danger" role="alert">
          The test could not run: {result.failed.message}
        </div>
      ) : result.ok ? (
        <div className="stack tight" role="status">
          <div className="notice">
            <strong>Connected.</strong>{' '}
            {result.models.length === 0
              ? 'The provider lists no models.'
              : `${result.models.length} ${result.models.length === 1 ? 'model' : 'models'} available:`}
          </div>
          {result.models.length > 0 ? (
            <ul className="model-list" aria-label="Models">
              {result.models.map((model) => (
                <li key={model} className="mono">
                  {model}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : (
        <div className="notice danger" role="alert">
          <strong>The test failed:</strong> <span className="provider-error">{result.error}</span>
        </div>
      )}
    </Dialog>
  );
}
