import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpServer, createLogger, packageDirOf, registerWebUi } from '../src/index.ts';

const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

async function appServing(dir: string) {
  const app = createHttpServer({ logger: createLogger({ service: 'test', level: 'silent' }), bodyLimit: 1024 });
  await registerWebUi(app, { dir, pages: ['/', '/orgs/*'] });
  app.get('/api/thing', async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('a service serving its web UI', () => {
  const root = mkdtempSync(join(tmpdir(), 'sb-web-ui-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('answers index.html for every page URL with a strict CSP, never cached, and hashed assets cached for a year', async () => {
    const dir = join(root, 'built');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>UI</title>');
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(join(dir, 'favicon.svg'), '<svg/>');
    const app = await appServing(dir);
    for (const url of ['/', '/orgs/acme', '/orgs/acme/flows/support-bot']) {
      const page = await app.inject({ url });
      expect([url, page.statusCode, page.headers['content-type'], page.body]).toEqual([url, 200, 'text/html; charset=utf-8', '<!doctype html><title>UI</title>']);
      expect(page.headers['content-security-policy']).toBe(CSP);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
    }
    const asset = await app.inject({ url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await app.inject({ url: '/favicon.svg' })).headers['content-type']).toBe('image/svg+xml');
    expect((await app.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/thing' })).json()).toEqual({ ok: true });
    expect((await app.inject({ url: '/elsewhere' })).statusCode).toBe(404);
    await app.close();
  });

  it('answers 503 with how to build it while the UI is not built, and serves it once built without a restart', async () => {
    const dir = join(root, 'later');
    const app = await appServing(dir);
    const before = await app.inject({ url: '/orgs/acme' });
    expect(before.statusCode).toBe(503);
    expect(before.body).toContain('The web UI is not built yet');
    expect((await app.inject({ url: '/assets/index.js' })).statusCode).toBe(404);
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Built</title>');
    writeFileSync(join(dir, 'assets', 'index.js'), 'x');
    const after = await app.inject({ url: '/orgs/acme' });
    expect([after.statusCode, after.body]).toEqual([200, '<!doctype html><title>Built</title>']);
    expect((await app.inject({ url: '/assets/index.js' })).body).toBe('x');
    await app.close();
  });

  it('finds the package directory of a module from src/ and from dist/', () => {
    expect(packageDirOf(new URL('../src/web-ui.ts', import.meta.url).href)).toBe(join(import.meta.dirname, '..'));
  });
});
