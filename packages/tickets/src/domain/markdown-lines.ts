/** Line-level facts about Markdown that need no parser: cheap enough for any length of text. */

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
