import { localBaseUrl, type Env } from '@switchboard/core';
import { loadConfig } from './config.ts';
import { openFlowsStores } from './stores.ts';

/** The demo organization created on the deployment's first start. */
export const DEMO_ORG = 'demo';

/** The demo flow: input → template → chat_completion output. */
const DEMO_FLOW = {
  name: 'Hello',
  slug: 'hello',
  description: 'Demo flow without a model: answers with a template',
  nodes: [
    { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true, description: 'What to ask' }] } },
    { id: 'reply', type: 'template', data: { template: 'Hello! You asked: {{input.question}}' } },
    { id: 'output', type: 'output', data: { format: 'chat_completion' } },
  ],
  edges: [
    { from: 'input', to: 'reply' },
    { from: 'reply', to: 'output' },
  ],
};

/**
 * First start: creates the `demo` organization with a manage token and
 * returns what to print (org code, token, a curl example). Idempotent on the
 * organization: a second call only issues a new token.
 */
export async function bootstrap(env: Env): Promise<{ title: string; lines: string[] }> {
  const config = loadConfig(env);
  const stores = await openFlowsStores(config);
  try {
    const org = (await stores.orgs.findOrg(DEMO_ORG)) ?? (await stores.orgs.createOrg(DEMO_ORG, 'Demo organization'));
    const { token } = await stores.orgs.createToken(org.id, { name: 'bootstrap', scope: 'manage' });
    // A flow that needs no provider, so the printed curl line works before any provider is configured.
    if (!(await stores.flows.find(org.id, DEMO_FLOW.slug))) await stores.admin.save(org, DEMO_FLOW);
    const base = config.publicBaseUrl ?? localBaseUrl(config.host, config.port);
    return {
      title: 'Flow execution',
      lines: [
        `org_code: ${org.code}`,
        `token:    ${token}   (scope manage)`,
        `list flows:  curl ${base}/api/llm/${org.code}/flows -H "Authorization: Bearer ${token}"`,
        `run the demo flow: curl ${base}/api/llm/${org.code}/flows/hello/run -H "Authorization: Bearer ${token}" -H "Content-Type: application/json" -d '{"input": {"question": "Hi"}}'`,
        `add a provider:    npx switchboard flows provider set ${org.code} local --kind openai-compatible --base-url http://127.0.0.1:11434/v1`,
        `save a flow:       npx switchboard flows save ${org.code} flow.json`,
        `dashboard (canvas builder, runs, LLM Hub): ${base}/ (sign in as the admin user above)`,
      ],
    };
  } finally {
    await stores.close();
  }
}
