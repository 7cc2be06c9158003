// What the UI benchmarks share: Debian's Chromium (as the browser tests start it), an admin who signs in over
// the API, and a page in a fresh context (empty cache) holding that session.
import type { Browser, Page } from 'playwright-core';
import { UserStore, openPlatformDatabase } from '../../packages/core/src/index.ts';

export { browserSkipReason, launchBrowser } from '../../packages/web-kit/testing/chromium.ts';

/** The password of every benchmark's admin. */
const PASSWORD = 'bench password 123';

/** Creates the admin a UI benchmark signs in as, in the deployment's platform database. */
export async function createAdmin(env: Record<string, string>, email: string): Promise<void> {
  const platform = await openPlatformDatabase(env);
  try {
    await new UserStore(platform.db).create({ email, password: PASSWORD, admin: true });
  } finally {
    await platform.close();
  }
}

/** Signs the admin in over the API; answers the session cookie's value. `suite` names the benchmark in an error. */
export async function signIn(base: string, email: string, suite: string): Promise<string> {
  const response = await fetch(`${base}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const cookie = /sb_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  if (response.status !== 200 || !cookie) throw new Error(`${suite}: sign-in answered ${response.status}`);
  return cookie;
}

/** A page in a fresh context (empty cache) with the session, at 1280×800. */
export async function freshPage(browser: Browser, base: string, cookie: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'sb_session', value: cookie, url: base }]);
  return context.newPage();
}
