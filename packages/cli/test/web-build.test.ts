import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildWebUi, webUiOutput, webUiSourceHash, webUiUpToDate } from '../src/web-build.ts';

describe('the web UI build', () => {
  it('builds the flows UI once, skips it while its sources are unchanged, and rebuilds when they change', async () => {
    await buildWebUi('flows');
    const output = webUiOutput('flows');
    expect(existsSync(join(output, 'index.html'))).toBe(true);
    expect(readFileSync(join(output, '.source-hash'), 'utf8').trim()).toBe(webUiSourceHash('flows'));
    expect(await webUiUpToDate('flows')).toBe(true);
    // What a second `npm start` does: nothing to build.
    expect(await buildWebUi('flows')).toBe(false);
    // Sources that differ from the last build's (the hash recorded with it) are built again.
    writeFileSync(join(output, '.source-hash'), 'sources-of-an-older-build\n');
    expect(await webUiUpToDate('flows')).toBe(false);
    expect(await buildWebUi('flows')).toBe(true);
    expect(await webUiUpToDate('flows')).toBe(true);
    const html = readFileSync(join(output, 'index.html'), 'utf8');
    // No CDN: every script and stylesheet the page loads is the service's own.
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(1);
    for (const source of sources) expect(source.startsWith('/')).toBe(true);
  });

  it('does nothing for a service without a UI', async () => {
    expect(await buildWebUi('sms')).toBe(false);
  });
});
