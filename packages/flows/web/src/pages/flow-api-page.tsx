import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ApiError, CodeBlock, CopyLine, ErrorState, Loading, NotFoundPage, PageHeader, Tabs, useResource, useTitle } from '@switchboard/web-kit';
import { useOrg } from '../api/use-org.ts';
import { flowApi, type Snippet } from '../api/flow-api.ts';
import { McpSection } from '../components/mcp-section.tsx';
import '../components/dashboard.css';

/** The model name a flow answers to in OpenAI clients. */
const OPENAI_MODEL = 'service-flow';

/** Snippets of one language or client, the plain call first and then its streaming variants. */
interface SnippetFamily {
  id: string;
  label: string;
  snippets: Snippet[];
}

/** Groups snippets by what calls the flow (`curl`, `javascript-fetch`, …): a streaming variant's id is its family's plus `-stream…`. */
export function snippetFamilies(snippets: Snippet[]): SnippetFamily[] {
  const families = new Map<string, SnippetFamily>();
  for (const snippet of snippets) {
    const id = snippet.id.replace(/-stream.*$/, '');
    const family = families.get(id) ?? { id, label: snippet.title, snippets: [] };
    if (snippet.id === id) family.label = snippet.title;
    family.snippets.push(snippet);
    families.set(id, family);
  }
  return [...families.values()];
}

/** The service's base URL as the snippets name it (it honours PUBLIC_BASE_URL); else this page's origin. */
export function serviceBaseUrl(snippets: Snippet[], fallback: string): string {
  for (const snippet of snippets) {
    const match = /(https?:\/\/[^\s'"`]+?)\/api\/llm\//.exec(snippet.code);
    if (match) return match[1];
  }
  return fallback;
}

/** **API** of one flow: its endpoint, the OpenAI client settings, the input JSON Schema and every snippet with **Copy**. */
export default function FlowApiPage() {
  const { slug = '' } = useParams();
  const { org, client, base } = useOrg();
  const api = useMemo(() => flowApi(client.base, slug), [client.base, slug]);
  const flow = useResource((signal) => client.flow(slug, signal), [org, slug]);
  const schema = useResource((signal) => api.schema(signal), [org, slug]);
  const snippets = useResource((signal) => api.snippets(signal), [org, slug]);
  const [tab, setTab] = useState('curl');
  useTitle(flow.data ? `API · ${flow.data.name}` : 'API', 'Switchboard Flows');

  const crumbs = (
    <>
      <Link to={`${base}/flows`}>Flows</Link>
      <span aria-hidden="true">/</span>
      {flow.data ? <Link to={`${base}/flows/${encodeURIComponent(slug)}`}>{flow.data.name}</Link> : <span className="mono">{slug}</span>}
      <span aria-hidden="true">/</span>
      <span>API</span>
    </>
  );

  const failed = flow.error ?? schema.error ?? snippets.error;
  if (failed) {
    if (failed instanceof ApiError && failed.status === 404) {
      return (
        <NotFoundPage title="Flow not found" crumbs={crumbs} back={{ to: `${base}/flows`, label: 'See all flows' }}>
          There is no flow <code className="inline-code">{slug}</code> in this organization.
        </NotFoundPage>
      );
    }
    return (
      <>
        <PageHeader title="API" crumbs={crumbs} />
        <ErrorState
          error={failed}
          onRetry={() => {
            flow.reload();
            schema.reload();
            snippets.reload();
          }}
        />
      </>
    );
  }
  if (!flow.data || !schema.data || !snippets.data) {
    return (
      <>
        <PageHeader title="API" crumbs={crumbs} />
        <Loading />
      </>
    );
  }

  const origin = serviceBaseUrl(snippets.data.snippets, window.location.origin);
  const flowUrl = `${origin}/api/llm/${org}/flows/${slug}`;
  const families = snippetFamilies(snippets.data.snippets);
  const tokenVar = snippets.data.token_variable;

  return (
    <>
      <PageHeader title={`API of ${flow.data.name}`} crumbs={crumbs}>
        <Link className="btn" to={`${base}/flows/${encodeURIComponent(slug)}`}>
          Open canvas
        </Link>
        <Link className="btn" to={`${base}/runs?flow=${encodeURIComponent(slug)}`}>
          Runs
        </Link>
      </PageHeader>
      <p className="muted page-intro">
        Call this flow with a token of the organization (scope <strong>run</strong>; create one under <Link to={`${base}/tokens`}>LLM Hub → Tokens</Link>). The
        snippets read it from the environment variable <code className="inline-code">{tokenVar}</code>; version {flow.data.version} is what runs now.
      </p>

      <div className="grid-2 api-top">
        <section className="card card-body" aria-labelledby="api-endpoint">
          <h2 id="api-endpoint" className="section-title">
            Endpoint
          </h2>
          <dl className="kv">
            <dt>Run</dt>
            <CopyLine text={`${flowUrl}/run`} what="run URL" before={<span className="badge accent">POST</span>} grow />
            <dt>Streaming</dt>
            <dd className="muted">
              <code className="inline-code">"stream": true</code> for JSON Lines, or <code className="inline-code">POST …/run/stream</code> for Server-Sent
              Events
            </dd>
          </dl>
        </section>
        <section className="card card-body" aria-labelledby="api-openai">
          <h2 id="api-openai" className="section-title">
            OpenAI client
          </h2>
          <dl className="kv">
            <dt>Base URL</dt>
            <CopyLine text={flowUrl} what="base URL" />
            <dt>Model</dt>
            <CopyLine text={OPENAI_MODEL} what="model" />
            <dt>API key</dt>
            <dd className="muted">a token of this organization</dd>
          </dl>
        </section>
      </div>

      <section className="section" aria-labelledby="api-snippets">
        <h2 id="api-snippets">Snippets</h2>
        {families.length === 0 ? (
          <div className="muted">No snippets for this flow.</div>
        ) : (
          <Tabs
            label="Snippet language"
            selected={tab}
            onSelect={setTab}
            items={families.map((family) => ({
              id: family.id,
              label: family.label,
              panel: (
                <div className="stack">
                  {family.snippets.map((snippet) => (
                    <CodeBlock key={snippet.id} title={snippet.title} code={snippet.code} language={snippet.language} />
                  ))}
                </div>
              ),
            }))}
          />
        )}
      </section>

      <McpSection apiBase={client.base} org={org} slug={slug} tokenVar={tokenVar} />

      <section className="section" aria-labelledby="api-schema">
        <h2 id="api-schema">Input schema</h2>
        <p className="muted">
          The JSON Schema of <code className="inline-code">input</code>, from the flow's Input node: unknown keys, missing required variables and wrong types
          are refused with 422.
        </p>
        <CodeBlock title="Input JSON Schema" code={JSON.stringify(schema.data, null, 2)} language="json" />
      </section>
    </>
  );
}
