/**
 * Line-level facts about Markdown that need no parser (cheap enough for any length of text): fenced code, task list
 * items. Free of the service's imports, so the page uses it too.
 */
import { inlinePlainText } from './plain-text.ts';

// A fence opener or closer after quote markers, indentation and list bullets: ``` or ~~~ (three or more).
const FENCE = /^(`{3,}|~{3,})(.*)$/;
const LEAD = /^(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*/;

/**
 * For each line, whether it belongs to a fenced code block (its fence lines included). A fence is closed by a
 * fence of the same character at least as long with nothing after it; a backtick fence whose info has a backtick is
 * inline code, not a fence; an unclosed fence runs to the end.
 */
export function fencedLines(lines: readonly string[]): boolean[] {
  const fenced: boolean[] = [];
  let open: { char: string; length: number } | undefined;
  for (const line of lines) {
    const marker = FENCE.exec(line.replace(/\r$/, '').replace(LEAD, ''));
    if (open) {
      fenced.push(true);
      if (marker && marker[1]![0] === open.char && marker[1]!.length >= open.length && marker[2]!.trim() === '') open = undefined;
    } else if (marker && !(marker[1]![0] === '`' && marker[2]!.includes('`'))) {
      open = { char: marker[1]![0]!, length: marker[1]!.length };
      fenced.push(true);
    } else {
      fenced.push(false);
    }
  }
  return fenced;
}

// Quote markers, indentation, a bullet (-, *, +) or number (1. or 1)), the box, then the item's text (GFM asks for
// a space or tab after the box and some text).
const TASK_LINE = /^((?:[ \t]*>)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\[([ xX])\]([ \t]+\S.*)$/;

/** A task item line taken apart. */
export interface TaskLine {
  checked: boolean;
  /** The item's text as plain text (its accessible name, its activity note). */
  text: string;
}

/** The task item of one line of Markdown, or null when the line is not one. */
export function parseTaskLine(line: string): TaskLine | null {
  const match = TASK_LINE.exec(line.replace(/\r$/, ''));
  if (!match) return null;
  return { checked: match[2] !== ' ', text: inlinePlainText(match[3]!.trim()) };
}

/** The line with its box set to `checked` (`[x]` or `[ ]`), all else kept (a trailing \r included). */
export function setTaskLine(line: string, checked: boolean): string {
  return line.replace(/^((?:[ \t]*>)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\[[ xX]\]/, `$1[${checked ? 'x' : ' '}]`);
}

/** A line of a text that looks like a task item, outside fenced code: where a rendered checkbox may come from. */
export interface TaskLineCandidate {
  /** 1-based line number. */
  line: number;
  /** The line as written. */
  source: string;
}

/**
 * The lines that look like task items, outside fenced code blocks, in order. The page pairs them with the
 * checkboxes its Markdown parser made (by content), so a checkbox knows its line; one it cannot pair stays read-only.
 */
export function taskLineCandidates(markdown: string): TaskLineCandidate[] {
  const lines = markdown.split('\n').map((line) => line.replace(/\r$/, ''));
  const fenced = fencedLines(lines);
  return lines.flatMap((line, index) => (!fenced[index] && TASK_LINE.test(line) ? [{ line: index + 1, source: line }] : []));
}
