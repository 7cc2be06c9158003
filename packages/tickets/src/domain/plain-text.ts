/**
 * Markdown as the text a person reads, without its syntax: what summaries and search snippets show. Parsed with
 * marked's GFM lexer (the same parser the pages render with), so nested lists, tables, fences and escapes are read
 * as the page reads them, never guessed by patterns.
 */
import { Lexer, type Token, type Tokens } from 'marked';

/** How much of the text to keep. */
export interface PlainTextOptions {
  /**
   * Only the prose (paragraphs, list items, quotes): code blocks, headings, tables and HTML blocks are left out.
   * What a summary is made of; a snippet keeps everything (a search may match a heading or a code line).
   */
  prose?: boolean;
  /** false: code blocks are left out (a snippet prefers text to code, whose lines may read like Markdown). */
  code?: boolean;
}

// Beyond this, a text is cut before parsing: nothing reads further (a description holds at most 100,000 characters).
const MAX_SOURCE = 1_000_000;

/**
 * The plain text of a Markdown text: one line per block (paragraph, heading, list item, table row, code line),
 * inline syntax removed (`**`, `_`, `~~`, backticks, `[ ]`/`[x]`), links as their text, images dropped, HTML tags
 * stripped, table cells joined by " · ", entities decoded. Empty lines are dropped; whitespace inside a line is
 * collapsed.
 */
export function markdownToPlainText(markdown: string, options: PlainTextOptions = {}): string {
  const source = markdown.length > MAX_SOURCE ? markdown.slice(0, MAX_SOURCE) : markdown;
  const lines: string[] = [];
  blocksToLines(Lexer.lex(source, { gfm: true }), options, lines);
  return lines
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/**
 * Plain text's lines as running sentences: a line that does not end in punctuation gets a full stop, so list items
 * and headings do not run into each other ("Write docs. Ship.") where the lines are joined (summaries, snippets).
 */
export function asSentences(plain: string): string {
  return plain
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (/[.!?:;,…]$/.test(line) ? line : `${line}.`))
    .join(' ');
}

/** The plain text of inline Markdown (a title, a task item's first line), on one line. */
export function inlinePlainText(markdown: string): string {
  return markdownToPlainText(markdown).replace(/\n/g, ' ');
}

function blocksToLines(tokens: readonly Token[], options: PlainTextOptions, lines: string[]): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'space':
      case 'hr':
      case 'def':
      case 'checkbox':
        break;
      case 'code':
        if (!options.prose && options.code !== false) lines.push(...(token as Tokens.Code).text.split('\n'));
        break;
      case 'heading':
        if (!options.prose) lines.push(inline((token as Tokens.Heading).tokens));
        break;
      case 'table': {
        if (options.prose) break;
        const table = token as Tokens.Table;
        for (const row of [table.header, ...table.rows]) lines.push(row.map((cell) => inline(cell.tokens)).join(' · '));
        break;
      }
      case 'html':
        if (!options.prose) lines.push(...htmlText((token as Tokens.HTML).text).split('\n'));
        break;
      case 'list':
        // An item's text is a line; its nested lists and further paragraphs follow as their own lines.
        for (const item of (token as Tokens.List).items) {
          const first = lines.length;
          blocksToLines(item.tokens, options, lines);
          // A box with no text yet (`- [ ]`) is no task for the parser, but it is still no text.
          if (lines[first] !== undefined) lines[first] = lines[first]!.replace(/^\s*\[[ xX]\](?=\s|$)/, '');
        }
        break;
      case 'blockquote':
        blocksToLines((token as Tokens.Blockquote).tokens, options, lines);
        break;
      case 'paragraph':
      case 'text':
        lines.push(inline(tokensOf(token)));
        break;
      default:
        // An unknown block (an extension's): its nested tokens when it has them, else its text.
        lines.push('tokens' in token && token.tokens ? inline(token.tokens) : plainEntities(String((token as { text?: unknown }).text ?? '')));
    }
  }
}

function tokensOf(token: Token): Token[] {
  return 'tokens' in token && token.tokens ? token.tokens : [{ type: 'text', raw: token.raw, text: (token as Tokens.Text).text } as Tokens.Text];
}

function inline(tokens: readonly Token[]): string {
  let text = '';
  for (const token of tokens) {
    switch (token.type) {
      case 'image':
      case 'checkbox':
        break;
      case 'br':
        text += ' ';
        break;
      case 'codespan':
      case 'escape':
        text += (token as Tokens.Codespan).text;
        break;
      case 'html':
        text += htmlText((token as Tokens.HTML).text);
        break;
      default:
        text += 'tokens' in token && token.tokens ? inline(token.tokens) : plainEntities(String((token as { text?: unknown }).text ?? ''));
    }
  }
  return text;
}

/** The text of an HTML fragment: comments, scripts and styles dropped, tags removed, entities decoded. */
function htmlText(html: string): string {
  return plainEntities(
    html
      .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
      .replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, '')
      .replace(/<\/?[A-Za-z][^>]*>?/g, ''),
  );
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Decodes the entities marked leaves in text (`&amp;`, `&lt;`, numeric ones); an unknown name stays as written. */
function plainEntities(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[\da-f]{1,6}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
