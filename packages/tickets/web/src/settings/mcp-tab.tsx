import { useState, type FormEvent } from 'react';
import { Badge, Button, CodeBlock, ConfirmDialog, CopyButton, Dialog, EmptyState, ErrorState, FormError, Loading, TextField, dateTime, timeAgo, useResource, useToast } from '@switchboard/web-kit';
import type { CreatedToken, ProjectToken } from '../api/types.ts';
import { useProject } from '../project-context.tsx';
import { defaultMcpUrl, mcpSnippets } from './mcp-snippets.ts';

/** **MCP Connection**: the endpoint, the project's tokens (name, created, last used), **Create token** (shown once with snippets) and **Revoke**. */
export function McpTab() {
  const { api, key } = useProject();
  const notify = useToast();
  const tokens = useResource((signal) => api.tokens(signal), [key]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedToken | undefined>(undefined);
  const [revoking, setRevoking] = useState<ProjectToken | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const url = defaultMcpUrl(window.location.origin);

  const revoke = async () => {
    if (!revoking) return;
    setBusy(true);
    try {
      await api.revokeToken(revoking.id);
      notify(`Token "${revoking.name}" revoked`);
      setRevoking(undefined);
      tokens.reload();
    } catch (reason) {
      notify((reason as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  const list = tokens.data?.tokens;
  return (
    <div className="stack">
      <p className="muted page-intro">
        AI agents (Claude Code, Cursor, VS Code, any MCP client) work on this project's board through MCP with a project token: the token decides the project. Give each agent or machine its own token, so one can be revoked
        without the others.
      </p>
      <div className="card">
        <div className="card-body stack tight">
          <div className="field-label">MCP endpoint (Streamable HTTP)</div>
          <div className="secret-row">
            <code className="secret">{url}</code>
            <CopyButton text={url} what="MCP endpoint" small={false} />
          </div>
        </div>
      </div>
      <div className="row between">
        <h2>Tokens</h2>
        <Button variant="primary" onClick={() => setCreating(true)}>
          Create token
        </Button>
      </div>
      {tokens.error ? (
        <ErrorState error={tokens.error} onRetry={tokens.reload} />
      ) : !list ? (
        <Loading />
      ) : list.length === 0 ? (
        <div className="card">
          <EmptyState title="No tokens yet">Create a token, then paste its snippet into your agent's configuration.</EmptyState>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
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
                  <td title={dateTime(token.created_at)}>{timeAgo(token.created_at)}</td>
                  <td title={dateTime(token.last_used_at)}>{token.last_used_at ? timeAgo(token.last_used_at) : <span className="faint">Never</span>}</td>
                  <td>{token.revoked_at ? <Badge kind="danger">Revoked</Badge> : <Badge kind="success">Active</Badge>}</td>
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
          onCreated={(token) => {
            setCreating(false);
            setCreated(token);
            tokens.reload();
          }}
        />
      ) : null}
      {created ? <NewTokenDialog token={created} url={created.mcp_url ?? url} onClose={() => setCreated(undefined)} /> : null}
      {revoking ? (
        <ConfirmDialog
          title={`Revoke token "${revoking.name}"?`}
          message="Every MCP or REST call with this token is refused from now on, on every instance. Agents using it need a new token."
          confirmLabel="Revoke"
          busy={busy}
          onConfirm={() => void revoke()}
          onCancel={() => setRevoking(undefined)}
        />
      ) : null}
    </div>
  );
}

/** **Create token**: field **Name**. */
function CreateTokenDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (token: CreatedToken) => void }) {
  const { api } = useProject();
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Give the token a name, for example the agent or machine that will use it.');
      return;
    }
    setBusy(true);
    try {
      onCreated(await api.createToken(name.trim()));
    } catch (reason) {
      setError((reason as Error).message);
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
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} placeholder="claude-code-laptop" maxLength={100} required />
      </form>
    </Dialog>
  );
}

/** The new token in full, shown this once, with a snippet per client, each with **Copy**. */
function NewTokenDialog({ token, url, onClose }: { token: CreatedToken; url: string; onClose: () => void }) {
  const snippets = mcpSnippets(url, token.token);
  return (
    <Dialog title={`Token "${token.name}" created`} wide onClose={onClose} footer={<Button variant="primary" onClick={onClose}>Done</Button>}>
      <div className="notice warning" role="note">
        Copy the token now. It is shown only this once: Switchboard keeps only a hash of it.
      </div>
      <div className="secret-row">
        <code className="secret">{token.token}</code>
        <CopyButton text={token.token} what="token" small={false} />
      </div>
      {snippets.map((snippet) => (
        <div key={snippet.id} className="stack tight token-snippets">
          <div className="muted">
            <strong>{snippet.title}</strong> · {snippet.where}
          </div>
          <CodeBlock title={snippet.title} code={snippet.code} language={snippet.language} />
        </div>
      ))}
    </Dialog>
  );
}
