import { localBaseUrl, type Env } from '@switchboard/core';
import { openSmsAdmin } from './admin.ts';
import { loadConfig } from './config.ts';

/** Demo organization created on the deployment's first start. */
export const DEMO_ORG = 'demo';

/** First start: creates the `demo` organization and returns its credentials with copy-paste curl examples. */
export async function bootstrap(env: Env): Promise<{ title: string; lines: string[] }> {
  const config = loadConfig(env);
  const base = config.publicBaseUrl ?? localBaseUrl(config.host, config.port);
  const admin = await openSmsAdmin(env);
  try {
    const now = new Date();
    let secretKey: string;
    try {
      secretKey = (await admin.orgs.createOrganization(DEMO_ORG, 'Demo organization', now)).secretKey;
    } catch {
      // The organization survived from an earlier deployment: give it a fresh key.
      secretKey = (await admin.orgs.createKey(DEMO_ORG, 'bootstrap', now)).secretKey;
    }
    const webhookBody = JSON.stringify({
      event: 'sms.received',
      message: { from: '+15550001111', to: '+15552223333', body: 'Hello from the demo', sim: 'sim1' },
    });
    return {
      title: `SMS message store (${base})`,
      lines: [
        `org id:     ${DEMO_ORG}`,
        `secret key: ${secretKey}`,
        `receive:    curl -X POST '${base}/webhook' -H 'X-Secret-Key: ${secretKey}' -H 'Content-Type: application/json' -d '${webhookBody}'`,
        `list:       curl '${base}/messages/${DEMO_ORG}/${secretKey}?since_id=0'`,
        `inbox:      ${base}/`,
      ],
    };
  } finally {
    await admin.close();
  }
}
