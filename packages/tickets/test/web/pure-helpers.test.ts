import { describe, expect, it } from 'vitest';
import { dropAnnouncement, movedAnnouncement } from '../../web/src/board/announcements.ts';
import { isTypingTarget, shortcutOf } from '../../web/src/board/keyboard.ts';
import { isSafeUrl } from '../../web/src/markdown/safe-url.ts';
import { snippetParts } from '../../web/src/search/snippet.ts';
import { defaultMcpUrl, mcpSnippets } from '../../web/src/settings/mcp-snippets.ts';
import { normalTicketKey, projectOfTicketKey } from '../../web/src/routes.ts';

describe('board shortcuts', () => {
  const press = (key: string, target: { tagName?: string; isContentEditable?: boolean; inDialog?: boolean } | null = { tagName: 'BODY' }, mods = {}) =>
    shortcutOf({ key, ctrlKey: false, metaKey: false, altKey: false, target, ...mods });

  it('c opens New ticket and / focuses the filter', () => {
    expect(press('c')).toBe('new-ticket');
    expect(press('/')).toBe('focus-filter');
    expect(press('x')).toBeUndefined();
    expect(press('c', null)).toBe('new-ticket');
  });

  it('stay quiet while typing in a field, in a dialog, or with a modifier (Ctrl+C copies)', () => {
    for (const tagName of ['INPUT', 'textarea', 'SELECT']) expect(press('c', { tagName })).toBeUndefined();
    expect(press('c', { tagName: 'DIV', isContentEditable: true })).toBeUndefined();
    expect(press('/', { tagName: 'BUTTON', inDialog: true })).toBeUndefined();
    expect(press('c', { tagName: 'BODY' }, { ctrlKey: true })).toBeUndefined();
    expect(press('c', { tagName: 'BODY' }, { metaKey: true })).toBeUndefined();
    expect(isTypingTarget({ tagName: 'A' })).toBe(false);
  });
});

describe('isSafeUrl (links and images in rendered Markdown)', () => {
  it('keeps http(s), mailto, paths and fragments', () => {
    for (const url of ['https://example.com/a?b#c', 'http://x', 'mailto:a@b.c', '/tickets/DEMO-1', '#heading', 'docs/page', '?q=1'])
      expect(isSafeUrl(url), url).toBe(true);
  });

  it('drops javascript:, vbscript:, data: and their disguises', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:x',
      '\u0001javascript:x',
      'vbscript:msgbox',
      'data:text/html,<script>',
      'file:///etc/passwd',
      '',
    ])
      expect(isSafeUrl(url), JSON.stringify(url)).toBe(false);
  });

  it('allows data: pictures only as images', () => {
    expect(isSafeUrl('data:image/png;base64,AAAA', 'image')).toBe(true);
    expect(isSafeUrl('data:image/png;base64,AAAA', 'link')).toBe(false);
    expect(isSafeUrl('data:image/svg+xml;base64,AAAA', 'image')).toBe(false);
  });
});

describe('snippetParts (search highlights as text, never HTML)', () => {
  it('splits at the ** markers', () => {
    expect(snippetParts('fix the **login** page and **log**out')).toEqual([
      { text: 'fix the ', match: false },
      { text: 'login', match: true },
      { text: ' page and ', match: false },
      { text: 'log', match: true },
      { text: 'out', match: false },
    ]);
  });

  it('keeps HTML as text and an unpaired marker as text', () => {
    expect(snippetParts('<img src=x onerror=alert(1)> **x**')).toEqual([
      { text: '<img src=x onerror=alert(1)> ', match: false },
      { text: 'x', match: true },
    ]);
    expect(snippetParts('a **b')).toEqual([{ text: 'a **b', match: false }]);
    expect(snippetParts('**a** b **c')).toEqual([
      { text: 'a', match: true },
      { text: ' b **c', match: false },
    ]);
    expect(snippetParts('')).toEqual([]);
  });

  it('highlights a match inside Markdown bold once', () => {
    expect(snippetParts('The ****checkout**** service')).toEqual([
      { text: 'The ', match: false },
      { text: 'checkout', match: true },
      { text: ' service', match: false },
    ]);
  });
});

describe('MCP connection snippets', () => {
  const url = 'http://127.0.0.1:8103/api/mcp/v1/mcp';
  it('gives Claude Code, Cursor and VS Code their exact formats', () => {
    const [claude, cursor, vscode] = mcpSnippets(url, 'sbt_abc');
    expect(claude!.code).toBe(
      'claude mcp add --transport http switchboard-tickets http://127.0.0.1:8103/api/mcp/v1/mcp --header "Authorization: Bearer sbt_abc"',
    );
    expect(JSON.parse(cursor!.code)).toEqual({ mcpServers: { 'switchboard-tickets': { url, headers: { Authorization: 'Bearer sbt_abc' } } } });
    expect(JSON.parse(vscode!.code)).toEqual({ servers: { 'switchboard-tickets': { type: 'http', url, headers: { Authorization: 'Bearer sbt_abc' } } } });
    expect(defaultMcpUrl('https://board.example.com/')).toBe('https://board.example.com/api/mcp/v1/mcp');
  });
});

describe('ticket keys in URLs', () => {
  it('finds the project of a key, case-insensitively', () => {
    expect(projectOfTicketKey('DEMO-12')).toBe('DEMO');
    expect(projectOfTicketKey('shop2-3')).toBe('SHOP2');
    expect(projectOfTicketKey('DEMO')).toBeUndefined();
    expect(projectOfTicketKey('1AB-2')).toBeUndefined();
    expect(normalTicketKey('demo-3')).toBe('DEMO-3');
  });
});

describe('drag announcements (what a screen reader hears of a drop)', () => {
  it('says a drop on another lane asks for the move, whose outcome the service gives', () => {
    expect(dropAnnouncement('DEMO-2', 'Done', 'Backlog')).toBe('Moving DEMO-2 to Backlog…');
    expect(dropAnnouncement('DEMO-2', undefined, 'Backlog')).toBe('Moving DEMO-2 to Backlog…');
    expect(movedAnnouncement('DEMO-2', 'Backlog')).toBe('DEMO-2 moved to Backlog.');
  });

  it('says a card dropped on its own lane is being placed there, and one dropped on no lane stays', () => {
    expect(dropAnnouncement('DEMO-1', 'Review', 'review')).toBe('Placing DEMO-1 in Review…');
    expect(dropAnnouncement('DEMO-1', 'Review', undefined)).toBe('DEMO-1 dropped where it was.');
  });
});
