// Browser tests of the web UIs: Debian's Chromium driven by playwright-core (never a downloaded browser).
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe } from 'vitest';
import { browserSkipReason } from './chromium.ts';

export { CHROMIUM_PATH, browserSkipReason, launchBrowser } from './chromium.ts';

/** Where the tests write their screenshots (1280×800): `test-results/screenshots/` at the repository root, not committed. */
export const SCREENSHOTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test-results', 'screenshots');

let warned = false;

/** `describe` for browser tests: skipped, with the reason in the test name and on stderr, when Chromium is missing. */
export function describeInBrowser(name: string, body: () => void): void {
  const reason = browserSkipReason();
  if (!reason) {
    describe(name, body);
    return;
  }
  if (!warned) {
    warned = true;
    process.stderr.write(`\nbrowser tests skipped: ${reason}\n`);
  }
  describe.skip(`${name} [browser tests skipped: ${reason}]`, body);
}

/** A fresh browser context (its own cookies) at 1280×800 whose relative URLs resolve against `baseURL`. */
export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(10_000);
  return context;
}

/** Writes a 1280×800 screenshot of the page as `SCREENSHOTS_DIR/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const path = join(SCREENSHOTS_DIR, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Signs in through the form, as a person does, and waits for the page behind it. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}
