import { CodeBlock, CopyButton, OAuthGrantsList, ResourceList, credentialColumns, dimRevoked, form, revokeAction, useResource } from '@switchboard/web-kit';
import type { TokenAccess } from '../api/types.ts';
import { useProject } from '../project-context.tsx';
import { defaultMcpUrl, mcpSnippets } from './mcp-snippets.ts';

/** How the list and the create form name a token's access (design/mcp.md, "Read-only access"). */
const ACCESS_LABELS: Record<TokenAccess, string> = { write: 'Read and write', read: 'Read only' };

/**
 * **MCP Connection**: the endpoint, the project's tokens (name, access, created, last used), **Create token**
 * (read and write, or read only; shown once with snippets) and **Revoke**, and beside them the clients people
 * signed in with (OAuth grants).
 */
export function McpTab() {
  const { api, key } = useProject();
  const tokens = useResource((signal) => api.tokens(signal).then((answer) => answer.tokens), [key]);
  const grants = useResource((signal) => api.grants(signal).then((answer) => answer.grants), [key]);
  const url = defaultMcpUrl(window.location.origin);
  return (
    <div className="stack">
      <p className="muted page-intro">
        AI agents (Claude Code, Cursor, VS Code, claude.ai, any MCP client) work on this project's board through MCP. Give a client the endpoint alone and it
        asks its user to sign in and pick the project (listed below under Signed-in clients); or give it the endpoint with a project token: the token decides
        the project. Give each agent or machine its own token, so one can be revoked without the others.
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
      <ResourceList
        noun="tokens"
        source={tokens}
        header={(create) => (
          <div className="row between">
            <h2>Tokens</h2>
            {create}
          </div>
        )}
        rowKey={(token) => token.id}
        rowClassName={dimRevoked}
        columns={[
          { header: 'Name', className: 'cell-name', cell: (token) => token.name },
          { header: 'Access', cell: (token) => ACCESS_LABELS[token.access] ?? ACCESS_LABELS.write },
          ...credentialColumns,
        ]}
        actions={[
          revokeAction(
            'token',
            'Every MCP or REST call with this token is refused from now on, on every instance. Agents using it need a new token.',
            (token) => api.revokeToken(token.id),
          ),
        ]}
        create={{
          label: 'Create token',
          form: form({
            initial: { name: '', access: 'write' },
            fields: () => [
              { name: 'name', label: 'Name', placeholder: 'claude-code-laptop', maxLength: 100, required: true },
              {
                name: 'access',
                kind: 'select',
                label: 'Access',
                options: [
                  { value: 'write', label: ACCESS_LABELS.write },
                  { value: 'read', label: ACCESS_LABELS.read },
                ],
                hint: 'A read-only token sees the board through the ten tools that read: it cannot create, change, move or delete anything.',
              },
            ],
            check: (values) => (values.name.trim() ? undefined : 'Give the token a name, for example the agent or machine that will use it.'),
            submit: (values) => api.createToken(values.name.trim(), values.access === 'read' ? 'read' : 'write'),
          }),
          reveal: (token) => ({
            title: token.access === 'read' ? `Read-only token "${token.name}" created` : `Token "${token.name}" created`,
            what: 'token',
            value: token.token,
            wide: true,
            children: <Snippets url={token.mcp_url ?? url} token={token.token} />,
          }),
        }}
        empty={{ title: 'No tokens yet', children: "Create a token, then paste its snippet into your agent's configuration." }}
      />
      <OAuthGrantsList source={grants} revoke={(grant) => api.revokeGrant(grant.id)} where={`project ${key}`} />
    </div>
  );
}

/** A ready-to-paste connection snippet per client, each with **Copy**. */
function Snippets({ url, token }: { url: string; token: string }) {
  return (
    <>
      {mcpSnippets(url, token).map((snippet) => (
        <div key={snippet.id} className="stack tight token-snippets">
          <div className="muted">
            <strong>{snippet.title}</strong> · {snippet.where}
          </div>
          <CodeBlock title={snippet.title} code={snippet.code} language={snippet.language} />
        </div>
      ))}
    </>
  );
}
