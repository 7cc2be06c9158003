import { loadConfig, openFlowsStores } from '@switchboard/flows';

/** An organization `acme` with tokens, a provider `local` at `upstreamUrl`, a one-LLM-node flow `bot` (model `gated`) and `mem` (model `history`, with memory). */
export interface FlowsFixture {
  manageToken: string;
  runToken: string;
  orgId: number;
}

/** Prepares the flows database of `env` (the CLI's way: straight through the stores) for the tests of this folder. */
export async function prepareFlows(env: Record<string, string>, upstreamUrl: string): Promise<FlowsFixture> {
  const stores = await openFlowsStores(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
  try {
    const org = await stores.orgs.createOrg('acme', 'Acme');
    const manage = await stores.orgs.createToken(org.id, { scope: 'manage', name: 'admin' });
    const run = await stores.orgs.createToken(org.id, { scope: 'run', name: 'runner' });
    await stores.orgs.setProvider(org.id, { name: 'local', kind: 'openai-compatible', baseUrl: upstreamUrl, apiKey: 'sk-upstream-0123456789' });
    const fresh = await stores.orgs.requireOrg('acme');
    await stores.admin.save(fresh, {
      name: 'Bot',
      slug: 'bot',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
        { id: 'answer', type: 'llm', data: { provider: 'local', model: 'gated', prompt: '{{input.question}}' } },
        { id: 'output', type: 'output', data: { format: 'raw' } },
      ],
      edges: [
        { from: 'input', to: 'answer' },
        { from: 'answer', to: 'output' },
      ],
    });
    await stores.admin.save(fresh, {
      name: 'Memory',
      slug: 'mem',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
        { id: 'answer', type: 'llm', data: { provider: 'local', model: 'history', prompt: '{{input.question}}', memory: { window: 10 } } },
        { id: 'output', type: 'output', data: { format: 'raw' } },
      ],
      edges: [
        { from: 'input', to: 'answer' },
        { from: 'answer', to: 'output' },
      ],
    });
    return { manageToken: manage.token, runToken: run.token, orgId: org.id };
  } finally {
    await stores.close();
  }
}

/** Starts a JSON Lines run of `bot` and returns the open response (the X-Run-Id header is there before the run ends). */
export async function startStreamingRun(
  url: string,
  runToken: string,
  question = 'hi',
): Promise<{ response: Response; runId: string; lines(): Promise<unknown[]> }> {
  const response = await fetch(`${url}/api/llm/acme/flows/bot/run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${runToken}`, 'content-type': 'application/json', accept: 'application/x-ndjson' },
    body: JSON.stringify({ input: { question }, stream: true }),
  });
  return {
    response,
    runId: response.headers.get('x-run-id')!,
    async lines() {
      const text = await response.text();
      return text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
    },
  };
}
