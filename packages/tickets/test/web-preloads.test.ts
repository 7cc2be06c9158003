// What each board page asks for with its HTML (packages/tickets/src/app.ts): the session check and the
// page's chunks as the real build's manifest names them (the board's own read starts in the page's entry).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webUiOutput } from '../../cli/src/web-build.ts';
import { ticketsPagePreloads } from '../src/app.ts';

const page = (path: string) => ticketsPagePreloads({ segments: path.split('/').filter(Boolean) });

describe('the board pages preloads', () => {
  it("names each page's chunks", () => {
    expect(page('/projects/ACME/board')).toEqual({ fetches: ['/api/session'], modules: ['src/board/board-page.tsx'] });
    expect(page('/tickets/ACME-12')).toEqual({ fetches: ['/api/session'], modules: ['src/board/board-page.tsx', 'src/ticket/ticket-panel.tsx'] });
    expect(page('/projects/ACME/documents/handbook')).toEqual({ fetches: ['/api/session'], modules: ['src/pages/documents-page.tsx'] });
    expect(page('/projects/ACME/search')).toEqual({ fetches: ['/api/session'], modules: ['src/pages/search-page.tsx'] });
    expect(page('/projects/ACME/settings/labels')).toEqual({ fetches: ['/api/session'], modules: ['src/settings/settings-page.tsx'] });
    expect(page('/projects/ACME/elsewhere')).toEqual({ fetches: ['/api/session'], modules: [] });
    expect(page('/')).toEqual({ fetches: ['/api/session'], modules: [] });
  });

  it('names only modules the built UI has (a renamed page would otherwise lose its preload unnoticed)', () => {
    const manifest = JSON.parse(readFileSync(join(webUiOutput('tickets'), '.vite', 'manifest.json'), 'utf8')) as Record<string, unknown>;
    const modules = ['/projects/A/board', '/tickets/A-1', '/projects/A/documents', '/projects/A/search', '/projects/A/settings/boards'].flatMap((path) => page(path).modules ?? []);
    expect(modules).toHaveLength(6);
    for (const module of modules) expect(Object.keys(manifest)).toContain(module);
  });
});
