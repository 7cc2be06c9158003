// Before the browser tests: one Chromium for the whole run, which each file's launchBrowser() connects to.
import { browserSkipReason, launchSharedBrowser, SHARED_CHROMIUM_VARIABLE } from './packages/web-kit/testing/chromium.ts';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  // Without Chromium the files skip themselves (describeInBrowser says why).
  if (browserSkipReason()) return undefined;
  const server = await launchSharedBrowser();
  // The workers start after the global setup and take the environment as it is then.
  process.env[SHARED_CHROMIUM_VARIABLE] = server.wsEndpoint();
  return async () => {
    delete process.env[SHARED_CHROMIUM_VARIABLE];
    await server.close();
  };
}
