// Debian's Chromium as the browser tests and the UI benchmarks start it (playwright-core, never a downloaded browser).
// No test runner here: the benchmarks, run by tsx, import it too.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** The Chromium the tests drive: CHROMIUM_PATH, else Debian's package. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Why the browser cannot run here, or undefined when it can. */
export function browserSkipReason(): string | undefined {
  return existsSync(CHROMIUM_PATH) ? undefined : `Chromium not found at ${CHROMIUM_PATH} (install Debian's package: apt-get install chromium)`;
}

/** Starts headless Chromium with the flags this machine needs (no sandbox as root, no background networking). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}
