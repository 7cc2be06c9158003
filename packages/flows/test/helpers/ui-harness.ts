import { UserStore, openPlatformDatabase } from '@switchboard/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, signIn } from '@switchboard/web-kit/testing';
import { startHarness, type Harness } from './harness.ts';

/** The flows service on a fresh database (organization `acme`, tokens, provider `local` on a fake upstream) with a signed-up admin, and a browser. */
export interface UiHarness extends Harness {
  browser: Browser;
  email: string;
  password: string;
  /** Creates a user of the deployment (a member of nothing unless added). */
  createUser(email: string, options?: { admin?: boolean }): Promise<{ email: string; password: string; id: string }>;
  /** A new browser context (own cookies) at 1280×800 on the service. */
  context(): Promise<BrowserContext>;
  /** A new page in a new context, signed in as `email` (the admin by default), at `path`. */
  signedInPage(path?: string, as?: { email: string; password: string }): Promise<Page>;
}

/** Starts the service and Chromium; `close()` stops both. */
export async function startUiHarness(dialect: 'sqlite' | 'postgres' = 'sqlite', env: Record<string, string> = {}): Promise<UiHarness> {
  const harness = await startHarness(dialect, env);
  const platform = await openPlatformDatabase(harness.db.env);
  const users = new UserStore(platform.db);
  const password = 'correct horse battery';
  const email = 'admin@example.com';
  await users.create({ email, password, admin: true, name: 'Ada Admin' });
  const browser = await launchBrowser();
  const contexts: BrowserContext[] = [];
  const context = async () => {
    const created = await newContext(browser, harness.base);
    contexts.push(created);
    return created;
  };
  return {
    ...harness,
    browser,
    email,
    password,
    async createUser(userEmail, options = {}) {
      const created = await users.create({ email: userEmail, password: 'member password 1', admin: options.admin });
      return { email: created.user.email, password: created.password, id: created.user.id };
    },
    context,
    async signedInPage(path = '/', as = { email, password }) {
      const page = await (await context()).newPage();
      await page.goto(path);
      await signIn(page, as.email, as.password);
      return page;
    },
    async close() {
      for (const created of contexts) await created.close().catch(() => {});
      await browser.close();
      await platform.close();
      await harness.close();
    },
  };
}
