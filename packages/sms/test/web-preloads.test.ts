// What each console page asks for with its HTML (packages/sms/src/app.ts): the session check, the page's chunk
// as the real build's manifest names it, and, signed in, the inbox's first conversations at the URL the page
// asks for them (src/domain/console-pages.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webUiOutput } from '../../cli/src/web-build.ts';
import { smsPagePreloads } from '../src/app.ts';
import { FIRST_CONVERSATIONS, firstConversationsUrl } from '../src/domain/console-pages.ts';

const page = (path: string, signedIn = true) =>
  smsPagePreloads({ segments: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(), cookies: {}, signedIn });

describe('the console pages preloads', () => {
  it("names each page's chunk, and the inbox's first conversations when signed in", () => {
    expect(page('/orgs/acme/inbox')).toEqual({ fetches: ['/api/session', '/api/orgs/acme/conversations?limit=50'], modules: ['src/pages/inbox-page.tsx'] });
    expect(page('/orgs/acme')).toEqual(page('/orgs/acme/inbox'));
    expect(page('/orgs/acme/inbox/%2B15550000001')).toEqual(page('/orgs/acme/inbox'));
    expect(page('/orgs/acme/inbox', false)).toEqual({ fetches: ['/api/session'], modules: ['src/pages/inbox-page.tsx'] });
    expect(page('/orgs/a%20b/inbox').fetches).toEqual(['/api/session', '/api/orgs/a%20b/conversations?limit=50']);
    expect(page('/orgs/acme/keys')).toEqual({ fetches: ['/api/session'], modules: ['src/pages/keys-page.tsx'] });
    expect(page('/orgs/acme/elsewhere')).toEqual({ fetches: ['/api/session'], modules: [] });
    expect(page('/')).toEqual({ fetches: ['/api/session'], modules: ['src/pages/inbox-page.tsx'] });
    expect(page('/login')).toEqual({ fetches: ['/api/session'], modules: [] });
    expect(firstConversationsUrl('acme')).toBe(`/api/orgs/acme/conversations?limit=${FIRST_CONVERSATIONS}`);
  });

  it('names only modules the built UI has (a renamed page would otherwise lose its preload unnoticed)', () => {
    const manifest = JSON.parse(readFileSync(join(webUiOutput('sms'), '.vite', 'manifest.json'), 'utf8')) as Record<string, unknown>;
    const modules = ['inbox', 'send', 'gateway', 'sims', 'keys'].flatMap((section) => page(`/orgs/acme/${section}`).modules ?? []);
    expect(modules).toHaveLength(5);
    for (const module of modules) expect(Object.keys(manifest)).toContain(module);
  });

  it("serves the inbox's HTML with those preloads once built", async () => {
    const { startService } = await import('./helpers.ts');
    const service = await startService('sqlite');
    try {
      const { web } = service.context;
      await web.users.create({ email: 'a@example.com', password: 'a-password-1', admin: true });
      const signedIn = await service.app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: { email: 'a@example.com', password: 'a-password-1' },
      });
      const cookie = /sb_session=[^;]+/.exec(String(signedIn.headers['set-cookie']))![0];
      const html = (await service.app.inject({ method: 'GET', url: '/orgs/acme/inbox', headers: { cookie } })).body;
      expect(html).toContain('<link rel="preload" as="fetch" crossorigin href="/api/orgs/acme/conversations?limit=50">');
      expect(html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/inbox-page-[\w-]+\.js">/);
    } finally {
      await service.close();
    }
  });
});
