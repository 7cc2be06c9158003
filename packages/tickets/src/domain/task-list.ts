/**
 * Task lists (`- [ ] item`, `- [x] item`, GFM) in descriptions and documents: the rule that checks or unchecks ONE
 * item in a text that may have changed since the caller read it (which lines are items: markdown-lines.ts).
 */
import { AppError } from '@switchboard/core';
import { parseTaskLine, setTaskLine } from './markdown-lines.ts';

/** One toggle as a caller sends it: line N changes from `expected` to the box `checked`. */
export interface TaskToggle {
  /** 1-based line number in the text as the caller read it. */
  line: number;
  /** That line exactly as the caller read it, e.g. `- [ ] Write the docs`. */
  expected: string;
  /** The box afterwards: true `[x]`, false `[ ]`. */
  checked: boolean;
}

/** What a toggle did. */
export interface ToggleResult {
  text: string;
  /** The 1-based line that changed (not the one sent when the text had moved). */
  line: number;
  /** The item's plain text, for the activity. */
  item: string;
}

/**
 * Applies a toggle to the stored text, changing that one line and nothing else:
 * - the line at `line` still reads `expected`: it changes there, unless the caller's copy is known to be older
 *   (`unchangedSinceRead` false) and the same line also appears elsewhere, which makes the place unclear;
 * - else exactly one line anywhere reads `expected` (the text was edited meanwhile and the line moved): it changes
 *   there, the other edit kept;
 * - else (the line is gone, was changed, or now appears several times) a 409 saying so, the text untouched.
 * `unchangedSinceRead`: true when the caller's version is the stored one, false when it is older, undefined when
 * the caller did not say which version it read.
 * `where` names the text in messages ("description", "document").
 */
export function applyTaskToggle(stored: string, toggle: TaskToggle, unchangedSinceRead: boolean | undefined, where: 'description' | 'document'): ToggleResult {
  const expected = withoutCr(toggle.expected);
  const task = parseTaskLine(expected);
  if (!task) {
    throw new AppError(
      'invalid_request',
      `toggle_task.expected must be the task list line as you read it, e.g. "- [ ] Write the docs"; got "${shorten(expected)}".`,
    );
  }
  if (task.checked === toggle.checked) {
    throw new AppError(
      'invalid_request',
      `toggle_task.expected is already ${toggle.checked ? 'checked' : 'unchecked'}: send checked: ${!toggle.checked} to ${toggle.checked ? 'uncheck' : 'check'} it.`,
    );
  }
  const lines = stored.split('\n');
  const same: number[] = [];
  lines.forEach((line, index) => {
    if (withoutCr(line) === expected) same.push(index);
  });
  const at = toggle.line - 1;
  const atLine = at >= 0 && at < lines.length && same.includes(at);
  let target: number | undefined;
  if (atLine && (unchangedSinceRead !== false || same.length === 1)) target = at;
  else if (same.length === 1) target = same[0];
  if (target === undefined) throw new AppError('conflict', refusal(lines, toggle.line, expected, same, where));
  lines[target] = setTaskLine(lines[target]!, toggle.checked);
  return { text: lines.join('\n'), line: target + 1, item: task.text };
}

function refusal(lines: string[], line: number, expected: string, same: number[], where: 'description' | 'document'): string {
  const start = `This item changed since you opened it: "${shorten(expected)}"`;
  const again = `Read the ${where === 'description' ? 'ticket' : 'document'} again and toggle the item as it reads now.`;
  if (same.length > 1) {
    const numbers = same.map((index) => String(index + 1));
    const listed = `${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
    return `${start} is now on lines ${listed} of the ${where}, so which one you meant is unclear. ${again}`;
  }
  const now = line >= 1 && line <= lines.length ? ` (line ${line} now reads "${shorten(withoutCr(lines[line - 1]!))}")` : '';
  return `${start} is no longer in the ${where}${now}. ${again}`;
}

function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function shorten(text: string): string {
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** A toggle as the tools take it: the line, and which version of the text the caller read. */
export interface TaskToggleRequest extends TaskToggle {
  /** The record's `updated_at` when the caller read the text (optional). */
  seen_updated_at?: string;
}

/**
 * applyTaskToggle for a stored record: whether the caller's copy is the stored one comes from `seen_updated_at`
 * against the record's `updated_at`; `replacing` is true when the call also sends the whole text, which a toggle
 * cannot be combined with. Answers the new text and the activity note (`description (checked "Write docs")`).
 */
export function toggleTaskIn(
  stored: { text: string; updatedAt: string },
  request: TaskToggleRequest,
  where: 'description' | 'document',
  replacing: boolean,
): ToggleResult & { note: string } {
  const field = where === 'description' ? 'description' : 'content';
  if (replacing) throw new AppError('invalid_request', `Send either ${field} or toggle_task, not both: toggle_task changes one line of the ${field}.`);
  let unchanged: boolean | undefined;
  if (request.seen_updated_at !== undefined) {
    const seen = Date.parse(request.seen_updated_at);
    if (Number.isNaN(seen)) throw new AppError('invalid_request', 'toggle_task.seen_updated_at must be the updated_at you read (ISO 8601), or left out.');
    unchanged = seen === Date.parse(stored.updatedAt);
  }
  const result = applyTaskToggle(stored.text, request, unchanged, where);
  return { ...result, note: `${field} (${request.checked ? 'checked' : 'unchecked'} "${shorten(result.item)}")` };
}
