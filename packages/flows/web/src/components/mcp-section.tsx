import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, CodeBlock, CopyLine, ErrorState, FormError, Loading, TextAreaField, TextField, useResource, useToast } from '@switchboard/web-kit';
import { mcpSettingsApi, type McpSettings } from '../api/flow-api.ts';
import { mcpClientLines } from './mcp-lines.ts';

/**
 * The **MCP** section of a flow's API page: the switch that makes the flow a tool of the organization's MCP
 * endpoint, its tool name and description, the endpoint's URL and the lines for Claude Code, Cursor and VS Code.
 */
export function McpSection({ apiBase, org, slug, tokenVar }: { apiBase: string; org: string; slug: string; tokenVar: string }) {
  const api = useMemo(() => mcpSettingsApi(apiBase, slug), [apiBase, slug]);
  const settings = useResource((signal) => api.get(signal), [apiBase, slug]);
  const [saved, setSaved] = useState<McpSettings | undefined>();
  const [toolName, setToolName] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const notify = useToast();
  const current = saved ?? settings.data;
  useEffect(() => {
    if (!settings.data) return;
    setToolName(settings.data.tool_name);
    setDescription(settings.data.description ?? '');
  }, [settings.data]);

  async function save(enabled: boolean) {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await api.put({ enabled, tool_name: toolName.trim() || undefined, description: description.trim() || null });
      setSaved(answer);
      notify(enabled ? `The flow is the MCP tool ${answer.tool_name}` : 'The flow is no longer an MCP tool');
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }

  let body: ReactNode;
  if (settings.error) body = <ErrorState error={settings.error} onRetry={settings.reload} />;
  else if (!current) body = <Loading />;
  else {
    const lines = mcpClientLines(current.mcp_url, org, tokenVar);
    body = (
      <div className="stack">
        <label className="checkbox">
          <input
            type="checkbox"
            role="switch"
            aria-checked={current.enabled}
            checked={current.enabled}
            disabled={busy}
            onChange={(event) => void save(event.target.checked)}
          />
          Offer this flow as an MCP tool
        </label>
        <div className="grid-2">
          <TextField label="Tool name" value={toolName} maxLength={64} onChange={(event) => setToolName(event.target.value)} hint="Letters, digits, _ . -" />
          <TextAreaField
            label="Tool description"
            value={description}
            rows={2}
            onChange={(event) => setDescription(event.target.value)}
            hint="Empty: the flow's own description"
          />
        </div>
        <div>
          <Button onClick={() => void save(current.enabled)} busy={busy}>
            Save tool settings
          </Button>
        </div>
        {error ? <FormError>{error}</FormError> : null}
        <dl className="kv">
          <dt>Endpoint</dt>
          <CopyLine text={current.mcp_url} what="MCP URL" grow />
          <dt>Tool</dt>
          <dd className="muted">
            {current.enabled ? (
              <>
                listed as <code className="inline-code">{current.tool_name}</code>, beside <code className="inline-code">get_flow_run</code>
              </>
            ) : (
              'not listed: switch it on to offer it'
            )}
          </dd>
        </dl>
        {lines.map((line) => (
          <CodeBlock key={line.id} title={line.title} code={line.code} language={line.language} />
        ))}
      </div>
    );
  }
  return (
    <section className="section" aria-labelledby="api-mcp">
      <h2 id="api-mcp">MCP</h2>
      <p className="muted">
        AI clients call the organization's enabled flows as tools at one endpoint, with a token of the organization (or by signing in, for clients that connect
        by URL alone).
      </p>
      {body}
    </section>
  );
}
