/** A search snippet's highlights: the service marks matches as `**word**`; the page shows them as <mark> without ever parsing HTML. */

/** One piece of a snippet: plain text or a match. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

/**
 * Splits a snippet at its `**` markers: the text between an opening and a
 * closing marker is a match. An unpaired marker stays as text.
 */
export function snippetParts(snippet: string): SnippetPart[] {
  // A match inside Markdown bold (`**word**` in the text) comes as `****word****`: one highlight.
  const pieces = snippet.replace(/\*{4}/g, '**').split('**');
  // An even number of pieces means one marker has no partner: keep the last one as text.
  const paired = pieces.length % 2 === 1 ? pieces : [...pieces.slice(0, -2), `${pieces[pieces.length - 2]}**${pieces[pieces.length - 1]}`];
  const parts: SnippetPart[] = [];
  paired.forEach((text, index) => {
    if (text === '') return;
    const match = index % 2 === 1;
    const last = parts[parts.length - 1];
    if (last && last.match === match) last.text += text;
    else parts.push({ text, match });
  });
  return parts;
}
