import { useMemo, useState, type FormEvent } from 'react';
import {
  Button,
  ConfirmDialog,
  Dialog,
  EmptyState,
  ErrorState,
  FormError,
  Loading,
  PageHeader,
  TextField,
  dateTime,
  timeAgo,
  useResource,
  useTitle,
  useToast,
  type ApiError,
} from '@switchboard/web-kit';
import { SECRET_NAME_PATTERN } from '../../../src/domain/secret-references.ts';
import { useOrg } from '../api/use-org.ts';
import { hubApi } from '../api/hub-api.ts';
import type { SecretInfo } from '../api/types.ts';
import { HubNav } from '../components/hub-nav.tsx';
import '../components/dashboard.css';

type Hub = ReturnType<typeof hubApi>;

/** How a flow names a secret. */
const reference = (name: string) => `{{secrets.${name}}}`;

/**
 * **LLM Hub → Secrets**: the organization's secrets by name (never a value,
 * not even here), **Set secret**, **Replace** and **Delete** (confirmed).
 */
export default function SecretsPage() {
  const { org } = useOrg();
  useTitle('Secrets', 'Switchboard Flows');
  const hub = useMemo(() => hubApi(`/api/llm/${encodeURIComponent(org)}`), [org]);
  const secrets = useResource((signal) => hub.secrets(signal), [org]);
  const [editing, setEditing] = useState<SecretInfo | 'new' | null>(null);
  const [deleting, setDeleting] = useState<SecretInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const notify = useToast();

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await hub.deleteSecret(deleting.name);
      notify(`Secret "${deleting.name}" deleted`);
      setDeleting(null);
      secrets.reload();
    } catch (reason) {
      notify((reason as ApiError).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  const list = secrets.data?.secrets;
  return (
    <>
      <HubNav />
      <PageHeader title="Secrets">
        <Button variant="primary" onClick={() => setEditing('new')}>
          Set secret
        </Button>
      </PageHeader>
      <p className="muted page-intro">
        Values that tools send to their own servers: an API key, a Bearer token. A flow names one as <code className="inline-code">{reference('NAME')}</code> in an
        HTTP tool's URL, headers or body, or an MCP tool's headers, and nowhere else, so it never reaches a model or a reply. Values are stored encrypted and never
        shown again, here or anywhere.
      </p>
      {secrets.error ? (
        <ErrorState error={secrets.error} onRetry={secrets.reload} />
      ) : !list ? (
        <Loading />
      ) : list.length === 0 ? (
        <div className="card">
          <EmptyState title="No secrets yet" action={<Button variant="primary" onClick={() => setEditing('new')}>Set secret</Button>}>
            Move the tokens your tools send out of your flows: set one here, then write <code className="inline-code">{reference('NAME')}</code> where the token was.
          </EmptyState>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Reference</th>
                <th>Updated</th>
                <th>Last used</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((secret) => (
                <tr key={secret.name}>
                  <td className="cell-name mono">{secret.name}</td>
                  <td className="mono">{reference(secret.name)}</td>
                  <td title={dateTime(secret.updated_at)}>{timeAgo(secret.updated_at)}</td>
                  <td title={secret.last_used_at ? dateTime(secret.last_used_at) : undefined}>{secret.last_used_at ? timeAgo(secret.last_used_at) : <span className="faint">Never</span>}</td>
                  <td className="actions-cell">
                    <Button small aria-label={`Replace ${secret.name}`} onClick={() => setEditing(secret)}>
                      Replace
                    </Button>
                    <Button small variant="danger" aria-label={`Delete ${secret.name}`} onClick={() => setDeleting(secret)}>
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
        <SecretDialog
          hub={hub}
          secret={editing === 'new' ? null : editing}
          taken={new Set(list?.map((s) => s.name))}
          onClose={() => setEditing(null)}
          onSaved={(name) => {
            notify(`Secret "${name}" saved`);
            setEditing(null);
            secrets.reload();
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete secret "${deleting.name}"?`}
          message={`Tool calls of flows that reference ${reference(deleting.name)} fail from then on (the model is told why), until a secret of that name is set again.`}
          confirmLabel="Delete"
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
    </>
  );
}

/**
 * **Set secret** (a **Name** and a **Value**) or **Replace** one (a new
 * **Value**). The value lives in this dialog's state only: closing it forgets it.
 */
function SecretDialog({ hub, secret, taken, onClose, onSaved }: { hub: Hub; secret: SecretInfo | null; taken: ReadonlySet<string>; onClose: () => void; onSaved: (name: string) => void }) {
  const [name, setName] = useState(secret?.name ?? '');
  const [value, setValue] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!SECRET_NAME_PATTERN.test(trimmed)) return setError('Give the secret a name of letters, digits and "_", not starting with a digit (e.g. GITHUB_TOKEN).');
    if (!secret && taken.has(trimmed)) return setError(`A secret named "${trimmed}" exists: use its Replace button to change its value.`);
    if (value === '') return setError('Enter the value.');
    setBusy(true);
    try {
      await hub.setSecret(trimmed, value);
      onSaved(trimmed);
    } catch (reason) {
      setError((reason as ApiError).message);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={secret ? `Replace secret "${secret.name}"` : 'Set secret'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-dialog-close>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="secret-form" busy={busy}>
            Save
          </Button>
        </>
      }
    >
      <form id="secret-form" className="stack" onSubmit={submit} noValidate>
        <FormError>{error}</FormError>
        {secret ? null : (
          <TextField
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="GITHUB_TOKEN"
            maxLength={64}
            autoComplete="off"
            hint={`Letters, digits and "_". Flows write ${reference(name.trim() || 'NAME')}.`}
            required
          />
        )}
        <TextField
          label="Value"
          type="password"
          autoComplete="new-password"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          hint={
            secret
              ? 'The new value replaces the stored one (never shown); flows use it from their next tool call.'
              : 'Stored encrypted; never shown again. For a value of several lines, use switchboard flows secret set.'
          }
          required
        />
      </form>
    </Dialog>
  );
}
