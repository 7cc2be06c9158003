import type { Browser, BrowserContext, Page } from 'playwright-core';
import { listen } from '@switchboard/core';
import { launchBrowser, newContext, signIn } from '@switchboard/web-kit/testing';
import { startService, type TestService } from '../helpers.ts';

/** The SMS service on a fresh database (organization `acme` and its key), an admin user and Chromium. */
export interface UiHarness {
  service: TestService;
  /** The service's base URL (the pages are served from here). */
  base: string;
  browser: Browser;
  email: string;
  password: string;
  /** Creates a user of the deployment (a member of `memberOf`). */
  createUser(email: string, options?: { admin?: boolean; memberOf?: string[] }): Promise<{ email: string; password: string; id: string }>;
  /** A new browser context (own cookies) on `base`, 1280×800 or the size given. */
  context(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  /** A new page signed in (the admin unless `as`) through the form, at `path`. */
  signedInPage(path?: string, as?: { email: string; password: string }, viewport?: { width: number; height: number }): Promise<Page>;
  /** Posts messages through the native webhook with the organization's key; answers their ids. */
  receive(messages: Array<{ from: string; body: string; sim?: string; to?: string }>, orgKey?: string): Promise<number[]>;
  /** Posts any webhook body with the organization's key. */
  webhook(body: unknown): Promise<Response>;
  close(): Promise<void>;
}

/** Starts the service (listening on a free port) and Chromium; `close()` stops them. */
export async function startUiHarness(options: { dialect?: 'sqlite' | 'postgres'; env?: Record<string, string> } = {}): Promise<UiHarness> {
  const service = await startService(options.dialect ?? 'sqlite', options.env);
  const base = await listen(service.app, '127.0.0.1', 0);
  const { web } = service.context;
  const email = 'admin@example.com';
  const password = 'correct horse battery';
  await web.users.create({ email, password, admin: true, name: 'Ada Admin' });
  const browser = await launchBrowser();
  const contexts: BrowserContext[] = [];
  const webhook = (body: unknown) =>
    fetch(`${base}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-secret-key': service.key }, body: JSON.stringify(body) });
  return {
    service,
    base,
    browser,
    email,
    password,
    async createUser(userEmail, userOptions = {}) {
      const created = await web.users.create({ email: userEmail, password: 'member password 1', admin: userOptions.admin });
      for (const orgId of userOptions.memberOf ?? []) await web.memberships.add('sms', orgId, created.user.id);
      return { email: created.user.email, password: 'member password 1', id: created.user.id };
    },
    async context(viewport) {
      const created = await newContext(browser, base);
      if (viewport) await created.pages()[0]?.setViewportSize(viewport);
      contexts.push(created);
      return created;
    },
    async signedInPage(path = '/login', as = { email, password }, viewport) {
      const context = await newContext(browser, base);
      contexts.push(context);
      const page = await context.newPage();
      if (viewport) await page.setViewportSize(viewport);
      await page.goto(path);
      await signIn(page, as.email, as.password);
      return page;
    },
    async receive(messages) {
      const response = await webhook({
        events: messages.map((message) => ({ event: 'sms.received', message: { to: '+15550009999', sim: 'sim1', ...message } })),
      });
      if (response.status !== 200) throw new Error(`webhook answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { stored: number[] }).stored;
    },
    webhook,
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close().catch(() => {});
      // Open event streams would hold close() until they time out.
      service.app.server.closeAllConnections();
      await service.close();
    },
  };
}
