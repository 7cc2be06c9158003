import { describe, expect, it } from 'vitest';
import { WHOLE_BODY, markedWords, openingSnippet, plainSnippet, snippetRegion, wordMatcher } from '../../src/domain/search-snippet.ts';
import { markdownToPlainText } from '../../src/domain/plain-text.ts';

describe('search snippets from plain text', () => {
  it('reads the words an engine marked, lower case, a marked stretch split into words', () => {
    expect([...markedWords('a \u0002Retry\u0003 b \u0002sign-in\u0003 \u0002x', '\u0002', '\u0003')]).toEqual(['retry', 'sign', 'in']);
  });

  it('matches the marked words and words starting with a query term', () => {
    const isMatch = wordMatcher(new Set(['retry']), ['webhook']);
    expect(['Retry', 'Webhooks', 'hook', 'retrying'].map(isMatch)).toEqual([true, true, false, false]);
  });

  it('shows a short text whole with its matches marked', () => {
    expect(plainSnippet('Retry failed webhook deliveries.', (word) => word === 'webhook')).toBe('Retry failed **webhook** deliveries.');
  });

  it('cuts a long text around the passage with the most matched words, a few words before it, with … on both sides', () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    words[10] = 'alpha';
    words[40] = 'alpha';
    words[43] = 'beta';
    const snippet = plainSnippet(words.join(' '), (word) => word === 'alpha' || word === 'beta', 10);
    expect(snippet).toBe('…w36 w37 w38 w39 **alpha** w41 w42 **beta** w44 w45…');
  });

  it('answers null when nothing matches; the opening of a text otherwise', () => {
    expect(plainSnippet('nothing here', () => false)).toBeNull();
    expect(openingSnippet('one two three', 2)).toBe('one two…');
    expect(openingSnippet('one\ntwo', 5)).toBe('one two');
  });

  it('takes a short body whole, and of a long one only the block around its first match (not split inside a fence)', () => {
    expect(snippetRegion('short \u0002match\u0003', '\u0002')).toEqual({ source: 'short \u0002match\u0003' });
    const filler = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} of filler text.`).join('\n\n');
    const fence = '```\n# step one\n\nrun \u0002deploy\u0003\n```';
    const region = snippetRegion(`${filler}\n\n${fence}\n\n| a |\n|---|\n| b |`, '\u0002');
    expect(filler.length).toBeGreaterThan(WHOLE_BODY);
    expect(region).toEqual({ source: fence, before: true, after: true });
    const plain = markdownToPlainText(region.source.replaceAll('\u0002', '').replaceAll('\u0003', ''));
    expect(plainSnippet(plain, (word) => word === 'deploy', 24, region)).toBe('…# step one run **deploy**…');
  });

  it('cuts a giant line around the match', () => {
    const line = `${'a '.repeat(10_000)}\u0002needle\u0003${' b'.repeat(10_000)}`;
    const region = snippetRegion(line, '\u0002');
    expect([region.source.length, region.before, region.after, region.source.includes('needle')]).toEqual([4000, true, true, true]);
  });
});
