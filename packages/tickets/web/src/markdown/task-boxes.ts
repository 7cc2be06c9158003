/**
 * Which source line each rendered task checkbox comes from: the parser's task items (in document order) paired
 * with the lines that look like task items (taskLineCandidates) by their text. A checkbox that cannot be paired
 * (Markdown the line scan reads differently) has no line and stays read-only; the service checks the line anyway.
 */
import { taskLineCandidates } from '../../../src/domain/markdown-lines.ts';

// What a line or an item's first raw line reads after quote markers and indentation.
function content(line: string): string {
  return line.replace(/^(?:[ \t]*>)*[ \t]*/, '').trimEnd();
}

/**
 * The 1-based line of each task item, given the first raw line of each item as the parser saw it (quote markers
 * and indentation of nested blocks removed); undefined where no line matches.
 */
export function taskItemLines(markdown: string, itemFirstLines: readonly string[]): Array<number | undefined> {
  const candidates = taskLineCandidates(markdown);
  let next = 0;
  return itemFirstLines.map((first) => {
    const wanted = content(first);
    for (let at = next; at < candidates.length; at++) {
      if (content(candidates[at]!.source) === wanted) {
        next = at + 1;
        return candidates[at]!.line;
      }
    }
    return undefined;
  });
}
