import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpServer, createLogger, packageDirOf, registerWebUi } from '../src/index.ts';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

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
      expect([url, page.statusCode, page.headers['content-type'], page.body]).toEqual([
        url,
        200,
        'text/html; charset=utf-8',
        '<!doctype html><title>UI</title>',
      ]);
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

describe('a page served with what it needs first', () => {
  const root = mkdtempSync(join(tmpdir(), 'sb-web-ui-preload-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("names the page's chunks, the chunks they import and their CSS, and its first API reads, in the page's head", async () => {
    const dir = join(root, 'built');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    mkdirSync(join(dir, '.vite'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><head><script type="module" crossorigin src="/assets/index-1.js"></script></head><body></body>');
    writeFileSync(
      join(dir, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-1.js', imports: ['_shared-2.js'] },
        '_shared-2.js': { file: 'assets/shared-2.js' },
        'src/pages/canvas.tsx': { file: 'assets/canvas-3.js', imports: ['index.html', '_shared-2.js', '_graph-4.js'], css: ['assets/canvas-5.css'] },
        '_graph-4.js': { file: 'assets/graph-4.js', css: ['assets/graph-6.css'] },
      }),
    );
    const seen: Array<{ segments: string[]; query: string; cookies: Readonly<Record<string, string | undefined>>; signedIn: boolean }> = [];
    const app = createHttpServer({ logger: createLogger({ service: 'test', level: 'silent' }), bodyLimit: 1024 });
    await registerWebUi(app, {
      dir,
      pages: ['/', '/orgs/*'],
      preloads: (page) => {
        seen.push({ ...page, query: page.query.toString() });
        if (page.segments[2] !== 'canvas') return { fetches: ['/api/session'] };
        return {
          modules: ['src/pages/canvas.tsx', 'src/pages/unknown.tsx'],
          fetches: ['/api/session', `/api/orgs/${encodeURIComponent(page.segments[1])}/graph`, '//elsewhere.example/x', 'https://elsewhere.example/y'],
        };
      },
    });
    await app.ready();

    const canvas = await app.inject({ url: '/orgs/a%22b%3Cc/canvas?x=1&y=%20z', headers: { cookie: 'sb_session=abc; sb_board_A=Sprint%20%232' } });
    expect(canvas.statusCode).toBe(200);
    expect(canvas.body).toBe(
      '<!doctype html><head><script type="module" crossorigin src="/assets/index-1.js"></script>' +
        '<link rel="preload" as="fetch" crossorigin href="/api/session">' +
        '<link rel="preload" as="fetch" crossorigin href="/api/orgs/a%22b%3Cc/graph">' +
        '<link rel="modulepreload" crossorigin href="/assets/canvas-3.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/shared-2.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/graph-4.js">' +
        '<link rel="preload" as="style" crossorigin href="/assets/canvas-5.css">' +
        '<link rel="preload" as="style" crossorigin href="/assets/graph-6.css">' +
        '</head><body></body>',
    );
    const home = await app.inject({ url: '/' });
    expect(home.body).toBe(
      '<!doctype html><head><script type="module" crossorigin src="/assets/index-1.js"></script><link rel="preload" as="fetch" crossorigin href="/api/session"></head><body></body>',
    );
    expect(seen).toEqual([
      { segments: ['orgs', 'a"b<c', 'canvas'], query: 'x=1&y=+z', cookies: { sb_session: 'abc', sb_board_A: 'Sprint #2' }, signedIn: true },
      { segments: [], query: '', cookies: {}, signedIn: false },
    ]);
    await app.close();
  });
});
