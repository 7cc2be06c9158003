import { useEffect, useMemo, useState, type FormEvent } from 'react';
import {
  Badge,
  Button,
  CheckboxField,
  ConfirmDialog,
  Dialog,
  EmptyState,
  ErrorState,
  FormError,
  Loading,
  PageHeader,
  SelectField,
  TextField,
  dateTime,
  timeAgo,
  useResource,
  useTitle,
  useToast,
  type ApiError,
} from '@switchboard/web-kit';
import { useOrg } from '../api/use-org.ts';
import { hubApi, type ProviderInput, type ProviderTest } from '../api/hub-api.ts';
import type { ProviderInfo } from '../api/types.ts';
import { HubNav } from '../components/hub-nav.tsx';
import '../components/dashboard.css';

type Hub = ReturnType<typeof hubApi>;

// Labels short enough for the dialog's select; what each kind covers is its hint below it.
const KINDS: Array<{ value: ProviderInfo['kind']; label: string; hint: string }> = [
  { value: 'openai-compatible', label: 'OpenAI-compatible', hint: 'Ollama, vLLM, llama.cpp server, LM Studio, OpenRouter… (a base URL is needed)' },
  { value: 'openai', label: 'OpenAI', hint: "OpenAI's API (the base URL is optional)" },
  { value: 'anthropic', label: 'Anthropic', hint: "Anthropic's API (the base URL is optional)" },
];

/** **LLM Hub → Providers**: the organization's model connections (never their keys), add, edit, delete, **Test**. */
export default function ProvidersPage() {
  const { org } = useOrg();
  useTitle('Providers', 'Switchboard Flows');
  const hub = useMemo(() => hubApi(`/api/llm/${encodeURIComponent(org)}`), [org]);
  const providers = useResource((signal) => hub.providers(signal), [org]);
  const [editing, setEditing] = useState<ProviderInfo | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ProviderInfo | null>(null);
  const [testing, setTesting] = useState<ProviderInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const notify = useToast();

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await hub.deleteProvider(deleting.name);
      notify(`Provider "${deleting.name}" deleted`);
      setDeleting(null);
      providers.reload();
    } catch (reason) {
      notify((reason as ApiError).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  const list = providers.data?.providers;
  return (
    <>
      <HubNav />
      <PageHeader title="Providers">
        <Button variant="primary" onClick={() => setEditing('new')}>
          Add provider
        </Button>
      </PageHeader>
      <p className="muted page-intro">
        Model connections that LLM nodes name as their <strong>Provider</strong>. Keys are stored encrypted and never shown again. Without a connection named{' '}
        <code className="inline-code">openai</code> or <code className="inline-code">anthropic</code>, the service's environment variables serve as one.
      </p>
      {providers.error ? (
        <ErrorState error={providers.error} onRetry={providers.reload} />
      ) : !list ? (
        <Loading />
      ) : list.length === 0 ? (
        <div className="card">
          <EmptyState title="No providers yet" action={<Button variant="primary" onClick={() => setEditing('new')}>Add provider</Button>}>
            Add a connection to OpenAI, Anthropic or any OpenAI-compatible server (for example Ollama at <code className="inline-code">http://127.0.0.1:11434/v1</code>).
          </EmptyState>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Kind</th>
                <th>Base URL</th>
                <th>API key</th>
                <th>Updated</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((provider) => (
                <tr key={provider.name}>
                  <td className="cell-name mono">{provider.name}</td>
                  <td>{provider.kind}</td>
                  <td className="mono url-cell">{provider.base_url ?? <span className="faint">default</span>}</td>
                  <td>{provider.has_api_key ? <Badge kind="success">Set</Badge> : <Badge>Not set</Badge>}</td>
                  <td title={dateTime(provider.updated_at)}>{timeAgo(provider.updated_at)}</td>
                  <td className="actions-cell">
                    <Button small aria-label={`Test ${provider.name}`} onClick={() => setTesting(provider)}>
                      Test
                    </Button>
                    <Button small aria-label={`Edit ${provider.name}`} onClick={() => setEditing(provider)}>
                      Edit
                    </Button>
                    <Button small variant="danger" aria-label={`Delete ${provider.name}`} onClick={() => setDeleting(provider)}>
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing ? (
        <ProviderDialog
          hub={hub}
          provider={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(name) => {
            notify(`Provider "${name}" saved`);
            setEditing(null);
            providers.reload();
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete provider "${deleting.name}"?`}
          message="Flows whose LLM nodes use this connection fail on their next run until it is added again."
          confirmLabel="Delete"
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
      {testing ? <TestDialog hub={hub} provider={testing} onClose={() => setTesting(null)} /> : null}
    </>
  );
}

/** Add (with a **Name**) or edit a connection: **Kind**, **Base URL**, **API key**. */
function ProviderDialog({ hub, provider, onClose, onSaved }: { hub: Hub; provider: ProviderInfo | null; onClose: () => void; onSaved: (name: string) => void }) {
  const [name, setName] = useState(provider?.name ?? '');
  const [kind, setKind] = useState<ProviderInfo['kind']>(provider?.kind ?? 'openai-compatible');
  const [baseUrl, setBaseUrl] = useState(provider?.base_url ?? '');
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError('Give the connection a name: LLM nodes refer to it by this name.');
    if (kind === 'openai-compatible' && !baseUrl.trim()) return setError('An OpenAI-compatible connection needs a base URL.');
    const body: ProviderInput = { kind };
    if (baseUrl.trim()) body.base_url = baseUrl.trim();
    // No api_key keeps the stored key; null removes it.
    if (apiKey) body.api_key = apiKey;
    else if (removeKey) body.api_key = null;
    setBusy(true);
    try {
      await hub.saveProvider(trimmed, body);
      onSaved(trimmed);
    } catch (reason) {
      setError((reason as ApiError).message);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={provider ? `Edit provider "${provider.name}"` : 'Add provider'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-dialog-close>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="provider-form" busy={busy}>
            Save
          </Button>
        </>
      }
    >
      <form id="provider-form" className="stack" onSubmit={submit} noValidate>
        <FormError>{error}</FormError>
        {provider ? null : (
          <TextField
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="local"
            maxLength={40}
            pattern="[a-z0-9_\-]+"
            hint="1 to 40 characters of a-z, 0-9, _ and -. LLM nodes name the connection by it."
            required
          />
        )}
        <SelectField label="Kind" value={kind} onChange={(e) => setKind(e.target.value as ProviderInfo['kind'])} options={KINDS} hint={KINDS.find((k) => k.value === kind)?.hint} />
        <TextField
          label="Base URL"
          type="url"
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
          placeholder={kind === 'openai-compatible' ? 'http://127.0.0.1:11434/v1' : 'Leave empty for the official API'}
          required={kind === 'openai-compatible'}
        />
        <TextField
          label="API key"
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          disabled={removeKey}
          placeholder={provider?.has_api_key ? 'Leave empty to keep the stored key' : 'Optional for local servers'}
          hint={provider?.has_api_key ? 'A key is stored (never shown). Enter a new one to replace it.' : 'Stored encrypted; never shown again.'}
        />
        {provider?.has_api_key ? <CheckboxField label="Remove the stored key" checked={removeKey} onChange={(e) => setRemoveKey(e.target.checked)} /> : null}
      </form>
    </Dialog>
  );
}

/** **Test**: the provider's models, or its error. */
function TestDialog({ hub, provider, onClose }: { hub: Hub; provider: ProviderInfo; onClose: () => void }) {
  const [result, setResult] = useState<ProviderTest | { failed: Error } | null>(null);
  const [attempt, setAttempt] = useState(0);

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
            <strong>Connected.</strong> {result.models.length === 0 ? 'The provider lists no models.' : `${result.models.length} ${result.models.length === 1 ? 'model' : 'models'} available:`}
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
