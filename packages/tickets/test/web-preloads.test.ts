// What each board page asks for with its HTML (packages/tickets/src/app.ts): the session check, the page's
// chunks as the real build's manifest names them, and, signed in, the board's read at the URL the page's entry
// asks for it (src/domain/board-page.ts), for the board the query or the page's cookie names.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webUiOutput } from '../../cli/src/web-build.ts';
import { ticketsPagePreloads } from '../src/app.ts';
import { FIRST_CARDS, boardCookie, boardUrlFor } from '../src/domain/board-page.ts';

const page = (path: string, { cookies = {}, signedIn = true }: { cookies?: Record<string, string>; signedIn?: boolean } = {}) => {
  const [pathname, search = ''] = path.split('?');
  return ticketsPagePreloads({ segments: pathname!.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search), cookies, signedIn });
};

describe('the board pages preloads', () => {
  it("names each page's chunks, and a board's or ticket's board read when signed in", () => {
    expect(page('/projects/ACME/board')).toEqual({ fetches: ['/api/session', '/api/projects/ACME/board?cards=50'], modules: ['src/board/board-page.tsx'] });
    expect(page('/projects/acme/board', { signedIn: false })).toEqual({ fetches: ['/api/session'], modules: ['src/board/board-page.tsx'] });
    expect(page('/tickets/acme-12')).toEqual({
      fetches: ['/api/session', '/api/projects/ACME/board?cards=50'],
      modules: ['src/board/board-page.tsx', 'src/ticket/ticket-panel.tsx'],
    });
    expect(page('/tickets/not-a-key')).toEqual({ fetches: ['/api/session'], modules: ['src/board/board-page.tsx', 'src/ticket/ticket-panel.tsx'] });
    expect(page('/projects/ACME/documents/handbook')).toEqual({ fetches: ['/api/session'], modules: ['src/pages/documents-page.tsx'] });
    expect(page('/projects/ACME/search')).toEqual({ fetches: ['/api/session'], modules: ['src/pages/search-page.tsx'] });
    expect(page('/projects/ACME/settings/labels')).toEqual({ fetches: ['/api/session'], modules: ['src/settings/settings-page.tsx'] });
    expect(page('/projects/ACME/elsewhere')).toEqual({ fetches: ['/api/session'], modules: [] });
    expect(page('/')).toEqual({ fetches: ['/api/session'], modules: [] });
  });

  it("reads each lane's first cards of the board the query names, else the one the cookie remembers, at exactly the URL the page asks for", () => {
    const cookies = { [boardCookie('ACME')]: 'Sprint #2 & "more"', [boardCookie('OTHER')]: 'Elsewhere' };
    expect(FIRST_CARDS).toBe(50);
    expect(page('/projects/ACME/board', { cookies }).fetches).toEqual(['/api/session', boardUrlFor('ACME', 'Sprint #2 & "more"', FIRST_CARDS)]);
    expect(boardUrlFor('ACME', 'Sprint #2 & "more"', FIRST_CARDS)).toBe('/api/projects/ACME/board?board=Sprint%20%232%20%26%20%22more%22&cards=50');
    expect(page('/tickets/ACME-3', { cookies }).fetches).toEqual(['/api/session', boardUrlFor('ACME', 'Sprint #2 & "more"', FIRST_CARDS)]);
    expect(page('/projects/ACME/board?board=Ops%2FOn-call', { cookies }).fetches).toEqual(['/api/session', boardUrlFor('ACME', 'Ops/On-call', FIRST_CARDS)]);
    expect(page('/projects/NEW/board', { cookies }).fetches).toEqual(['/api/session', boardUrlFor('NEW', undefined, FIRST_CARDS)]);
    expect(boardUrlFor('NEW', undefined)).toBe('/api/projects/NEW/board');
  });

  it('names only modules the built UI has (a renamed page would otherwise lose its preload unnoticed)', () => {
    const manifest = JSON.parse(readFileSync(join(webUiOutput('tickets'), '.vite', 'manifest.json'), 'utf8')) as Record<string, unknown>;
    const modules = ['/projects/A/board', '/tickets/A-1', '/projects/A/documents', '/projects/A/search', '/projects/A/settings/boards'].flatMap(
      (path) => page(path).modules ?? [],
    );
    expect(modules).toHaveLength(6);
    for (const module of modules) expect(Object.keys(manifest)).toContain(module);
  });
});
