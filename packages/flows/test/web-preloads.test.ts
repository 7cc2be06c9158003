// What each dashboard page asks for with its HTML (packages/flows/src/app.ts): the session check, the page's
// chunk as the real build's manifest names it, and on a flow's canvas the flow and its draft (only with a session cookie).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webUiOutput } from '../../cli/src/web-build.ts';
import { flowsPagePreloads } from '../src/app.ts';

const page = (path: string, signedIn = true) => flowsPagePreloads({ segments: path.split('/').filter(Boolean), signedIn });

describe('the dashboard pages preloads', () => {
  it("names each page's chunk and a canvas's flow, exactly as the page's code reads it", () => {
    expect(page('/orgs/acme/flows/support-bot')).toEqual({
      fetches: ['/api/session', '/api/llm/acme/flows/support-bot', '/api/llm/acme/flows/support-bot/draft'],
      modules: ['src/pages/builder-page.tsx'],
    });
    expect(page('/orgs/acme/flows/support-bot', false)).toEqual({ fetches: ['/api/session'], modules: ['src/pages/builder-page.tsx'] });
    expect(page('/orgs/a b/flows/x?y')).toEqual({
      fetches: ['/api/session', '/api/llm/a%20b/flows/x%3Fy', '/api/llm/a%20b/flows/x%3Fy/draft'],
      modules: ['src/pages/builder-page.tsx'],
    });
    expect(page('/orgs/acme/flows/support-bot/api')).toEqual({ fetches: ['/api/session'], modules: ['src/pages/flow-api-page.tsx'] });
    expect(page('/orgs/acme/flows/support-bot/other')).toEqual({ fetches: ['/api/session'], modules: [] });
    expect(page('/orgs/acme/runs/run_1')).toEqual({ fetches: ['/api/session'], modules: ['src/pages/run-page.tsx'] });
    expect(page('/orgs/acme')).toEqual({ fetches: ['/api/session'], modules: ['src/pages/overview-page.tsx'] });
    expect(page('/orgs/acme/unknown')).toEqual({ fetches: ['/api/session'], modules: [] });
    expect(page('/')).toEqual({ fetches: ['/api/session'] });
    expect(page('/login')).toEqual({ fetches: ['/api/session'] });
  });

  it('names only modules the built UI has (a renamed page would otherwise lose its preload unnoticed)', () => {
    const manifest = JSON.parse(readFileSync(join(webUiOutput('flows'), '.vite', 'manifest.json'), 'utf8')) as Record<string, unknown>;
    const sections = ['', 'flows', 'runs', 'knowledge', 'tokens', 'providers', 'secrets', 'flows/x', 'flows/x/api', 'runs/y'];
    const modules = sections.flatMap((section) => page(`/orgs/acme/${section}`).modules ?? []);
    expect(modules).toHaveLength(sections.length);
    for (const module of modules) expect(Object.keys(manifest)).toContain(module);
  });
});
