import { useMemo, useState, type FormEvent } from 'react';
import {
  Badge,
  Button,
  ConfirmDialog,
  CopyButton,
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
import { Link } from 'react-router-dom';
import { useOrg } from '../api/use-org.ts';
import { hubApi, type CreatedToken } from '../api/hub-api.ts';
import type { TokenInfo } from '../api/types.ts';
import { HubNav } from '../components/hub-nav.tsx';
import '../components/dashboard.css';

/** **LLM Hub → Tokens**: the organization's tokens, **Create token** (shown once) and **Revoke**. */
export default function TokensPage() {
  const { org, base } = useOrg();
  useTitle('Tokens', 'Switchboard Flows');
  const hub = useMemo(() => hubApi(`/api/llm/${encodeURIComponent(org)}`), [org]);
  const tokens = useResource((signal) => hub.tokens(signal), [org]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoking, setRevoking] = useState<TokenInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const notify = useToast();

  const revoke = async () => {
    if (!revoking) return;
    setBusy(true);
    try {
      await hub.revokeToken(revoking.id);
      notify(`Token "${revoking.name}" revoked`);
      setRevoking(null);
      tokens.reload();
    } catch (reason) {
      notify((reason as ApiError).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  const list = tokens.data?.tokens;
  return (
    <>
      <HubNav />
      <PageHeader title="Tokens">
        <Button variant="primary" onClick={() => setCreating(true)}>
          Create token
        </Button>
      </PageHeader>
      <p className="muted page-intro">
        Tokens call this organization's flows (<strong>run</strong>) or also manage its flows, tokens, providers, knowledge and runs (<strong>manage</strong>). Send one as{' '}
        <code className="inline-code">Authorization: Bearer …</code>; the <Link to={`${base}/flows`}>API page of each flow</Link> has ready-made snippets.
      </p>
      {tokens.error ? (
        <ErrorState error={tokens.error} onRetry={tokens.reload} />
      ) : !list ? (
        <Loading />
      ) : list.length === 0 ? (
        <div className="card">
          <EmptyState title="No tokens yet" action={<Button variant="primary" onClick={() => setCreating(true)}>Create token</Button>}>
            Create a <strong>run</strong> token for each application that calls your flows, so you can revoke one without the others.
          </EmptyState>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Scope</th>
                <th>Token</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Status</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((token) => (
                <tr key={token.id} className={token.revoked_at ? 'dimmed' : undefined}>
                  <td className="cell-name">{token.name}</td>
                  <td>
                    <Badge kind={token.scope === 'manage' ? 'warning' : undefined}>{token.scope}</Badge>
                  </td>
                  <td className="mono faint" title="The start of the token: the rest is never shown again">
                    {token.hint}
                  </td>
                  <td title={dateTime(token.created_at)}>{timeAgo(token.created_at)}</td>
                  <td title={dateTime(token.last_used_at)}>{token.last_used_at ? timeAgo(token.last_used_at) : <span className="faint">Never</span>}</td>
                  <td>{token.revoked_at ? <Badge kind="danger">Revoked {timeAgo(token.revoked_at)}</Badge> : <Badge kind="success">Active</Badge>}</td>
                  <td className="actions-cell">
                    {token.revoked_at ? null : (
                      <Button small variant="danger" aria-label={`Revoke ${token.name}`} onClick={() => setRevoking(token)}>
                        Revoke
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {creating ? (
        <CreateTokenDialog
          onClose={() => setCreating(false)}
          create={hub.createToken}
          onCreated={(token) => {
            setCreating(false);
            setCreated(token);
            tokens.reload();
          }}
        />
      ) : null}
      {created ? <NewTokenDialog token={created} onClose={() => setCreated(null)} /> : null}
      {revoking ? (
        <ConfirmDialog
          title={`Revoke token "${revoking.name}"?`}
          message={
            <>
              Every request that sends this token is refused from now on. This cannot be undone: applications using it need a new token.
            </>
          }
          confirmLabel="Revoke"
          busy={busy}
          onConfirm={() => void revoke()}
          onCancel={() => setRevoking(null)}
        />
      ) : null}
    </>
  );
}

/** **Create token**: **Name** and **Scope**. */
function CreateTokenDialog({ onClose, create, onCreated }: { onClose: () => void; create: (body: { name: string; scope: 'run' | 'manage' }) => Promise<CreatedToken>; onCreated: (token: CreatedToken) => void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'run' | 'manage'>('run');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Give the token a name, for example the application that will use it.');
      return;
    }
    setBusy(true);
    try {
      onCreated(await create({ name: name.trim(), scope }));
    } catch (reason) {
      setError((reason as ApiError).message);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="Create token"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-dialog-close>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="create-token" busy={busy}>
            Create token
          </Button>
        </>
      }
    >
      <form id="create-token" className="stack" onSubmit={submit} noValidate>
        <FormError>{error}</FormError>
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} placeholder="website" maxLength={100} required />
        <SelectField
          label="Scope"
          value={scope}
          onChange={(e) => setScope(e.target.value as 'run' | 'manage')}
          options={[
            { value: 'run', label: 'run: call flows' },
            { value: 'manage', label: 'manage: also change flows, tokens, providers, knowledge; read runs' },
          ]}
          hint="Give applications run tokens; manage tokens are for automation that changes the organization."
        />
      </form>
    </Dialog>
  );
}

/** The new token, in full, with **Copy**: shown this once; closing the dialog forgets it. */
function NewTokenDialog({ token, onClose }: { token: CreatedToken; onClose: () => void }) {
  return (
    <Dialog title={`Token "${token.name}" created`} onClose={onClose} footer={<Button variant="primary" onClick={onClose}>Done</Button>}>
      <div className="notice warning" role="note">
        Copy the token now. It is shown only this once: Switchboard keeps only a hash of it.
      </div>
      <div className="secret-row">
        <code className="secret">{token.token}</code>
        <CopyButton text={token.token} small={false} />
      </div>
      <div className="muted">
        Scope <strong>{token.scope}</strong>. Send it as <code className="inline-code">Authorization: Bearer {'<token>'}</code>.
      </div>
    </Dialog>
  );
}
