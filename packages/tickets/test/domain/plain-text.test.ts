import { describe, expect, it } from 'vitest';
import { inlinePlainText, markdownToPlainText } from '../../src/domain/plain-text.ts';
import { extractiveSummary } from '../../src/domain/text-rules.ts';

describe('markdownToPlainText', () => {
  it('drops task boxes and bullets of every GFM list form, nested lists on their own lines', () => {
    const markdown = [
      '- [ ] Write the docs',
      '- [x] Ship **it**',
      '  - [ ] nested `code`',
      '    1. [X] deep',
      '* [ ] star',
      '+ [ ] plus',
      '3) [ ] numbered',
    ].join('\n');
    expect(markdownToPlainText(markdown)).toBe(['Write the docs', 'Ship it', 'nested code', 'deep', 'star', 'plus', 'numbered'].join('\n'));
  });

  it('reads a task list in a quote; an empty box is dropped too, a box glued to its text is text', () => {
    expect(markdownToPlainText('> - [ ] quoted\n>\n> more')).toBe('quoted\nmore');
    expect(markdownToPlainText('- [ ]\n- [x]\n- [ ]no space')).toBe('[ ]no space');
  });

  it('writes a table as its rows, cells joined by " · ", without pipes or the |---| row', () => {
    const markdown = '| Name | **Status** |\n|---|:-:|\n| Cart | done |\n| Pipe | `a \\| b` |';
    expect(markdownToPlainText(markdown)).toBe('Name · Status\nCart · done\nPipe · a | b');
  });

  it('keeps the code of a fence without the fence, a # inside it being code, not a heading', () => {
    const markdown = '## Setup\n\n```sh\n# install\nnpm ci\n```\n\n~~~\n~~~\n\n    indented code\n\nDone.';
    expect(markdownToPlainText(markdown)).toBe('Setup\n# install\nnpm ci\nindented code\nDone.');
  });

  it('removes inline syntax: emphasis, strike, inline code, links as their text, images dropped, escapes resolved', () => {
    const markdown = 'A **bold** _em_ ~~gone~~ `x < y` [the *guide*](https://example.com) ![diagram](d.png) \\*not bold\\* \\# not heading <https://auto.link>';
    expect(markdownToPlainText(markdown)).toBe('A bold em gone x < y the guide *not bold* # not heading https://auto.link');
  });

  it('strips HTML tags, comments and scripts, decoding entities', () => {
    const markdown =
      '<div class="note">Read <b>this</b></div>\n\n<!-- hidden -->\n\n<script>alert(1)</script>\n\nTom &amp; Jerry &lt;3 &#169; &#x263A; &nbsp;x &unknown; <span title="t">inline</span>';
    expect(markdownToPlainText(markdown)).toBe('Read this\nTom & Jerry <3 © ☺ x &unknown; inline');
  });

  it('in prose mode leaves out code, headings, tables and HTML blocks', () => {
    const markdown = '# Title\n\nFirst.\n\n```\ncode\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<div>html</div>\n\n- item\n\n> quote';
    expect(markdownToPlainText(markdown, { prose: true })).toBe('First.\nitem\nquote');
  });

  it('joins soft and hard line breaks of a paragraph with spaces and drops rules and link definitions', () => {
    expect(markdownToPlainText('one\ntwo  \nthree\n\n---\n\n[ref]: https://example.com\n\nafter [ref]')).toBe('one two three\nafter ref');
  });

  it('reads long text whole: 5,000 list items in order', () => {
    const markdown = Array.from({ length: 5000 }, (_, i) => `- [${i % 2 ? 'x' : ' '}] item ${i}`).join('\n');
    const plain = markdownToPlainText(markdown).split('\n');
    expect([plain.length, plain[0], plain[4999]]).toEqual([5000, 'item 0', 'item 4999']);
  });

  it('answers empty text for empty or blank input; inline text on one line', () => {
    expect(markdownToPlainText('')).toBe('');
    expect(markdownToPlainText('\n\n   \n')).toBe('');
    expect(inlinePlainText('Fix `parse()` in **two**\nfiles')).toBe('Fix parse() in two files');
  });
});

describe('extractiveSummary (plain text)', () => {
  it('summarizes the prose without Markdown syntax: no boxes, pipes, fences or #', () => {
    const description = [
      '## Goal',
      'Users pay with a **card**.',
      '',
      '- [ ] Add the form',
      '- [x] Store [tokens](https://example.com)',
      '',
      '| Step | State |',
      '|---|---|',
      '| 1 | done |',
      '',
      '```',
      '# not a heading',
      '```',
    ].join('\n');
    expect(extractiveSummary('Checkout', description)).toBe('Checkout. Users pay with a card. Add the form. Store tokens.');
  });

  it('keeps the old behaviour for plain sentences and the 200-character bound', () => {
    expect(extractiveSummary('Add login', `## Goal\nUsers sign in with **email**. Then more. ${'x'.repeat(300)}`)).toBe(
      'Add login. Users sign in with email. Then more.',
    );
    expect(extractiveSummary('T', 'y'.repeat(500)).length).toBeLessThanOrEqual(200);
    expect(extractiveSummary('Short', '', '- [x] Done the `deploy`')).toBe('Short. Latest: Done the deploy.');
  });
});
