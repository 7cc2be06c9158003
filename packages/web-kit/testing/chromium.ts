// Debian's Chromium as the browser tests and the UI benchmarks start it (playwright-core, never a downloaded browser).
// No test runner here: the benchmarks, run by tsx, import it too.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserServer, type LaunchOptions } from 'playwright-core';

/** The Chromium the tests drive: CHROMIUM_PATH, else Debian's package. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Why the browser cannot run here, or undefined when it can. */
export function browserSkipReason(): string | undefined {
  return existsSync(CHROMIUM_PATH) ? undefined : `Chromium not found at ${CHROMIUM_PATH} (install Debian's package: apt-get install chromium)`;
}

/**
 * Set by the tests' global setup to the endpoint of the one Chromium it started: each test file then connects in
 * tens of milliseconds instead of starting its own (1–3 s of a busy machine's CPU, 38 times a run).
 */
export const SHARED_CHROMIUM_VARIABLE = 'SWITCHBOARD_CHROMIUM_ENDPOINT';

// The flags this machine needs: no sandbox as root, no background networking.
const LAUNCH_OPTIONS: LaunchOptions = {
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
};

/**
 * Headless Chromium: the shared one when the global setup started it (its `close()` then closes this caller's
 * contexts and disconnects, leaving it to the other files), else one of its own.
 */
export function launchBrowser(): Promise<Browser> {
  const endpoint = process.env[SHARED_CHROMIUM_VARIABLE];
  return endpoint ? chromium.connect(endpoint) : chromium.launch(LAUNCH_OPTIONS);
}

/** Starts the Chromium that `launchBrowser()` connects to once its endpoint is in SHARED_CHROMIUM_VARIABLE. */
export function launchSharedBrowser(): Promise<BrowserServer> {
  return chromium.launchServer(LAUNCH_OPTIONS);
}
