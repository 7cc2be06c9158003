import { createTestDatabase, type TestDatabase } from '@switchboard/core/testing';
import { listen, type App } from '@switchboard/core';
import { buildApp, loadConfig, openFlowsStores, type FlowsStores } from '../../src/index.ts';
import { FakeUpstream } from './fake-upstream.ts';

/** A running flows service on a fresh database, with an organization, tokens and a provider pointing at a fake upstream. */
export interface Harness {
  base: string;
  app: App;
  db: TestDatabase;
  stores: FlowsStores;
  upstream: FakeUpstream;
  orgCode: string;
  manageToken: string;
  runToken: string;
  /** Saves a flow through the management API and returns its slug. */
  save(definition: unknown): Promise<string>;
  /** POSTs JSON with a token. */
  post(path: string, body: unknown, token?: string): Promise<Response>;
  /** GETs with a token. */
  get(path: string, token?: string): Promise<Response>;
  /** PUTs JSON with a token. */
  put(path: string, body: unknown, token?: string): Promise<Response>;
  /** DELETEs with a token. */
  del(path: string, token?: string): Promise<Response>;
  /** Runs a flow of `acme` with JSON Lines streaming (run token) and returns the parsed events. */
  streamLines(slug: string, body: unknown): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

/** Starts the service for a dialect; `env` adds variables (FLOWS_RUN_TIMEOUT_MS, FLOWS_RATE_LIMIT…). */
export async function startHarness(dialect: 'sqlite' | 'postgres', env: Record<string, string> = {}): Promise<Harness> {
  const db = await createTestDatabase(dialect);
  const upstream = await new FakeUpstream().start();
  const config = loadConfig({ ...db.env, FLOWS_PORT: '0', LOG_LEVEL: 'silent', ...env });
  const stores = await openFlowsStores(config);
  const org = await stores.orgs.createOrg('acme', 'Acme');
  const manage = await stores.orgs.createToken(org.id, { scope: 'manage', name: 'admin' });
  const run = await stores.orgs.createToken(org.id, { scope: 'run', name: 'runner' });
  await stores.orgs.setProvider(org.id, { name: 'local', kind: 'openai-compatible', baseUrl: upstream.url, apiKey: 'sk-upstream-secret-123456' });
  const app = await buildApp(config);
  const base = await listen(app, '127.0.0.1', 0);
  const send = (method: string, path: string, body: unknown, token = manage.token) =>
    fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const post = (path: string, body: unknown, token?: string) => send('POST', path, body, token);
  const get = (path: string, token = manage.token) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return {
    base,
    app,
    db,
    stores,
    upstream,
    orgCode: 'acme',
    manageToken: manage.token,
    runToken: run.token,
    post,
    get,
    put: (path, body, token) => send('PUT', path, body, token),
    del: (path, token = manage.token) => fetch(`${base}${path}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }),
    async streamLines(slug, body) {
      const response = await post(`/api/llm/acme/flows/${slug}/run`, { ...(body as object), stream: true }, run.token);
      return (await response.text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    async save(definition) {
      const response = await post('/api/llm/acme/flows', definition);
      const body = (await response.json()) as { slug: string };
      if (response.status !== 201 && response.status !== 200) throw new Error(`save failed: ${JSON.stringify(body)}`);
      return body.slug;
    },
    async close() {
      // The test client's aborted stream leaves a keep-alive connection that would hold close() for its 4 s timeout.
      app.server.closeAllConnections();
      await app.close();
      await stores.close();
      await upstream.close();
      await db.cleanup();
    },
  };
}

/** A flow definition as tests build it. */
export interface TestFlow {
  name: string;
  slug?: string;
  description?: string;
  nodes: Array<{ id: string; type: string; data: Record<string, unknown> }>;
  edges: Array<{ from: string; to: string }>;
}

/** A one-llm-node flow: input(question) → llm(local, model) → output(format). */
export function simpleFlow(
  options: { name?: string; slug?: string; model?: string; format?: string; template?: unknown; extraVariables?: unknown[] } = {},
): TestFlow {
  return {
    name: options.name ?? 'Support bot',
    ...(options.slug ? { slug: options.slug } : {}),
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }, ...(options.extraVariables ?? [])] } },
      { id: 'answer', type: 'llm', data: { provider: 'local', model: options.model ?? 'echo', system: 'Be brief.', prompt: '{{input.question}}' } },
      { id: 'output', type: 'output', data: { format: options.format ?? 'chat_completion', ...(options.template ? { template: options.template } : {}) } },
    ],
    edges: [
      { from: 'input', to: 'answer' },
      { from: 'answer', to: 'output' },
    ],
  };
}
