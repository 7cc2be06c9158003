/**
 * Search snippets made from the plain text of a record (markdownToPlainText), with the matched words marked as
 * `**word**`: the engines say which words matched (their stemming included), this picks the passage to show.
 */

import { fencedLines } from './markdown-lines.ts';

/** Marks around matched words in snippets (Markdown bold, readable by people and models). */
export const HIGHLIGHT = { start: '**', stop: '**' } as const;

/** Words of a snippet: letters, digits and underscores, as the engines' tokenizers see them. */
const WORD = /[\p{L}\p{N}_]+/gu;

/** Words in a snippet before its first match, for context. */
const LEAD_WORDS = 4;

/** Words in a snippet (about what SQLite's snippet() gave). */
export const SNIPPET_WORDS = 24;

/**
 * The words an engine marked in a text it highlighted between `start` and `stop` (lower case), each marked
 * stretch split into words.
 */
export function markedWords(highlighted: string, start: string, stop: string): Set<string> {
  const words = new Set<string>();
  let from = highlighted.indexOf(start);
  while (from !== -1) {
    const end = highlighted.indexOf(stop, from + start.length);
    if (end === -1) break;
    for (const word of highlighted.slice(from + start.length, end).match(WORD) ?? []) words.add(word.toLowerCase());
    from = highlighted.indexOf(start, end + stop.length);
  }
  return words;
}

/** Whether a word of the text matches: the engine marked it, or it starts with a query term (prefixes count). */
export function wordMatcher(marked: ReadonlySet<string>, terms: readonly string[]): (word: string) => boolean {
  return (word) => {
    const lower = word.toLowerCase();
    return marked.has(lower) || terms.some((term) => lower.startsWith(term));
  };
}

/** Whether more of the record comes before or after the text a snippet is made from. */
export interface Around {
  before?: boolean;
  after?: boolean;
}

/** Longest body converted to plain text whole for its snippet (a few milliseconds); a longer one only around its first match. */
export const WHOLE_BODY = 4000;
/** Lines taken on each side of the first match in a longer body, at most (a paragraph or list around it). */
const REGION_LINES = 20;
/** Characters taken on each side of the first match when those lines are longer still. */
const REGION_CHARS = 2000;

/**
 * The part of a long body its snippet is made from: the block around its first marked word (from the blank line
 * before it to the one after it, outside code fences, at most `REGION_LINES` lines each way), so that converting it
 * to plain text costs little however long the body is. A short body is taken whole.
 */
export function snippetRegion(body: string, mark: string): Around & { source: string } {
  if (body.length <= WHOLE_BODY) return { source: body };
  const lines = body.split('\n');
  const fenced = fencedLines(lines);
  const blank = (index: number) => !fenced[index] && lines[index]!.trim() === '';
  const first = Math.max(
    0,
    lines.findIndex((line) => line.includes(mark)),
  );
  let start = first;
  while (start > 0 && first - start < REGION_LINES && !blank(start - 1)) start--;
  let end = first;
  while (end + 1 < lines.length && end - first < REGION_LINES && !blank(end + 1)) end++;
  let source = lines.slice(start, end + 1).join('\n');
  let before = start > 0;
  let after = end + 1 < lines.length;
  if (source.length > 2 * REGION_CHARS) {
    const at = Math.max(0, source.indexOf(mark));
    const from = Math.max(0, at - REGION_CHARS);
    const to = Math.min(source.length, at + REGION_CHARS);
    before ||= from > 0;
    after ||= to < source.length;
    source = source.slice(from, to);
  }
  return { source, before, after };
}

/**
 * The passage of a plain text around its matches, about `SNIPPET_WORDS` words, each match marked `**word**`,
 * "…" where the text goes on; null when no word of the text matches. The passage is the one with the most
 * different matched words (then the most matches, then the earliest), starting a few words before its first match.
 */
export function plainSnippet(text: string, isMatch: (word: string) => boolean, size = SNIPPET_WORDS, around: Around = {}): string | null {
  const words = [...text.matchAll(WORD)].map((found) => ({ start: found.index, end: found.index + found[0].length, match: isMatch(found[0]) }));
  const matches = words.flatMap((word, index) => (word.match ? [index] : []));
  if (matches.length === 0) return null;
  let best = { from: 0, distinct: -1, count: -1 };
  matches.forEach((first, k) => {
    const from = Math.max(0, first - LEAD_WORDS);
    // The matches inside the passage: a few before this one (within the lead), and those up to its end.
    let low = k;
    while (low > 0 && matches[low - 1]! >= from) low--;
    let high = k;
    while (high + 1 < matches.length && matches[high + 1]! < from + size) high++;
    const inside = matches.slice(low, high + 1);
    const distinct = new Set(inside.map((index) => text.slice(words[index]!.start, words[index]!.end).toLowerCase())).size;
    if (distinct > best.distinct || (distinct === best.distinct && inside.length > best.count)) best = { from, distinct, count: inside.length };
  });
  const last = Math.min(words.length, best.from + size) - 1;
  const begin = best.from === 0 ? 0 : words[best.from]!.start;
  // The passage runs to the end of the text when only punctuation follows its last word.
  const end = last === words.length - 1 ? text.length : words[last]!.end;
  let snippet = '';
  let at = begin;
  for (let index = best.from; index <= last; index++) {
    const word = words[index]!;
    if (!word.match) continue;
    snippet += `${text.slice(at, word.start)}${HIGHLIGHT.start}${text.slice(word.start, word.end)}${HIGHLIGHT.stop}`;
    at = word.end;
  }
  snippet += text.slice(at, end);
  const flat = snippet.replace(/\s+/g, ' ').trim();
  return `${begin > 0 || around.before ? '…' : ''}${flat}${end < text.length || around.after ? '…' : ''}`;
}

/** The opening of a plain text, `size` words, "…" when it goes on: the snippet of a record whose match is not in its text. */
export function openingSnippet(text: string, size = SNIPPET_WORDS): string {
  const words = [...text.matchAll(WORD)];
  if (words.length <= size) return text.replace(/\s+/g, ' ').trim();
  const cut = words[size - 1]!;
  return `${text
    .slice(0, cut.index + cut[0].length)
    .replace(/\s+/g, ' ')
    .trim()}…`;
}
