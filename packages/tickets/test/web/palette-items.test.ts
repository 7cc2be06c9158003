import { describe, expect, it } from 'vitest';
import type { DocumentMeta } from '../../web/src/api/types.ts';
import { isPaletteShortcut, matchScore, paletteGroups, ticketKeyOf, type PaletteSources } from '../../web/src/palette/palette-items.ts';

const doc = (slug: string, title: string): DocumentMeta => ({ id: slug, slug, title, doc_type: 'wiki', created_at: '', updated_at: '' });

const sources: PaletteSources = {
  project: 'DEMO',
  projects: [
    { key: 'DEMO', name: 'Demo' },
    { key: 'OPS', name: 'Operations' },
  ],
  documents: [doc('readme', 'README'), doc('deploy-guide', 'How we deploy')],
};

/** Each group's heading and its entries' labels, as the palette shows them. */
const shown = (query: string, extra: Partial<PaletteSources> = {}) =>
  paletteGroups(query, { ...sources, ...extra }).map(({ group, items }) => [
    group,
    items.map((item) => (item.detail ? `${item.label} · ${item.detail}` : item.label)),
  ]);

describe('the command palette', () => {
  it('opens on Ctrl+K or ⌘K only', () => {
    const press = { key: 'k', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false };
    expect(isPaletteShortcut({ ...press, ctrlKey: true })).toBe(true);
    expect(isPaletteShortcut({ ...press, metaKey: true, key: 'K' })).toBe(true);
    expect(isPaletteShortcut(press)).toBe(false);
    expect(isPaletteShortcut({ ...press, ctrlKey: true, shiftKey: true })).toBe(false);
    expect(isPaletteShortcut({ ...press, ctrlKey: true, altKey: true })).toBe(false);
    expect(isPaletteShortcut({ ...press, ctrlKey: true, key: 'j' })).toBe(false);
  });

  it('reads a ticket key in any case, or a bare number in the current project', () => {
    expect(ticketKeyOf('demo-12', 'DEMO')).toBe('DEMO-12');
    expect(ticketKeyOf(' OPS-3 ', 'DEMO')).toBe('OPS-3');
    expect(ticketKeyOf('12', 'DEMO')).toBe('DEMO-12');
    expect(ticketKeyOf('#007', 'DEMO')).toBe('DEMO-7');
    expect(ticketKeyOf('demo 12', 'DEMO')).toBeUndefined();
    expect(ticketKeyOf('login', 'DEMO')).toBeUndefined();
  });

  it('ranks a match at the start above one at a word’s start above one inside a word; every word must be there', () => {
    expect(matchScore('new', 'New ticket')).toBe(3);
    expect(matchScore('tick', 'New ticket')).toBe(2);
    expect(matchScore('icke', 'New ticket')).toBe(1);
    expect(matchScore('new board', 'New ticket')).toBe(0);
    expect(matchScore('', 'anything')).toBe(1);
  });

  it('offers New ticket, the pages, the other projects and the documents before anything is typed', () => {
    expect(shown('')).toEqual([
      ['Actions', ['New ticket']],
      [
        'Pages',
        [
          'Board',
          'List',
          'Documents',
          'Search',
          'Settings: Boards and columns',
          'Settings: Labels',
          'Settings: Members',
          'Settings: Auto-Summary',
          'Settings: MCP Connection',
        ],
      ],
      ['Projects', ['Switch to Operations · OPS']],
      ['Documents', ['README · wiki', 'How we deploy · wiki']],
    ]);
  });

  it('puts a typed key first, with its title once looked up, and drops it when there is no such ticket', () => {
    expect(shown('demo-12')[0]).toEqual(['Tickets', ['DEMO-12']]);
    expect(shown('demo-12', { named: { key: 'DEMO-12', title: 'Fix login' } })[0]).toEqual(['Tickets', ['DEMO-12 · Fix login']]);
    expect(shown('demo-12', { named: { key: 'DEMO-12', missing: true } }).map(([group]) => group)).not.toContain('Tickets');
    // A lookup of another key does not name this one.
    expect(shown('demo-13', { named: { key: 'DEMO-12', title: 'Fix login' } })[0]).toEqual(['Tickets', ['DEMO-13']]);
    const item = paletteGroups('ops-3', sources)[0]!.items[0]!;
    expect(item.command).toEqual({ kind: 'go', to: '/tickets/OPS-3' });
  });

  it('shows the tickets the search found, and Search for the text, after what the words match', () => {
    const found = [
      { key: 'DEMO-4', title: 'Deploy to staging' },
      { key: 'DEMO-9', title: 'Rollback plan' },
    ];
    // The groups with the best match come first: Search for the text is the last resort.
    expect(shown('deploy', { found })).toEqual([
      ['Tickets', ['DEMO-4 · Deploy to staging', 'DEMO-9 · Rollback plan']],
      ['Documents', ['How we deploy · wiki']],
      ['Pages', ['Search for “deploy”']],
    ]);
    expect(shown('deploy')[0]).toEqual(['Documents', ['How we deploy · wiki']]);
    const search = paletteGroups('deploy', sources).find((group) => group.group === 'Pages')!.items[0]!;
    expect(search.command).toEqual({ kind: 'go', to: '/projects/DEMO/search?q=deploy' });
  });

  it('finds a project by name or key, a page by a word of its name, and New ticket by create', () => {
    expect(shown('oper')).toEqual([
      ['Projects', ['Switch to Operations · OPS']],
      ['Pages', ['Search for “oper”']],
    ]);
    expect(paletteGroups('ops', sources).find((group) => group.group === 'Projects')!.items[0]!.command).toEqual({ kind: 'switch-project', project: 'OPS' });
    // A page whose name holds the word ranks above Search for it.
    expect(shown('labels')).toEqual([['Pages', ['Settings: Labels', 'Search for “labels”']]]);
    expect(shown('create')).toEqual([
      ['Actions', ['New ticket']],
      ['Pages', ['Search for “create”']],
    ]);
    expect(
      paletteGroups('list', sources)
        .find((group) => group.group === 'Pages')!
        .items.map((item) => item.command),
    ).toContainEqual({
      kind: 'go',
      to: '/projects/DEMO/board?view=list',
    });
  });
});
