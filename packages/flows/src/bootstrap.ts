import type { Env } from '@switchboard/core';
import { loadConfig } from './config.ts';
import { openFlowsStores } from './stores.ts';

/** The demo organization created on the deployment's first start. */
export const DEMO_ORG = 'demo';

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
    const base = config.publicBaseUrl ?? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
    return {
      title: 'Flow execution',
      lines: [
        `org_code: ${org.code}`,
        `token:    ${token}   (scope manage)`,
        `list flows:  curl ${base}/api/llm/${org.code}/flows -H "Authorization: Bearer ${token}"`,
        `save a flow: npx switchboard flows save ${org.code} flow.json   (then POST ${base}/api/llm/${org.code}/flows/SLUG/run)`,
        `run a flow:  curl ${base}/api/llm/${org.code}/flows/SLUG/run -H "Authorization: Bearer ${token}" -H "Content-Type: application/json" -d '{"input": {"question": "Hello"}}'`,
      ],
    };
  } finally {
    await stores.close();
  }
}
