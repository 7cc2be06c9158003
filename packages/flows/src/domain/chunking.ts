/** Splitting documents into overlapping chunks for retrieval. Pure. */

/** Chunk sizes in characters. */
export interface ChunkOptions {
  /** Target length of a chunk. */
  size: number;
  /** Characters repeated from the end of one chunk at the start of the next. */
  overlap: number;
}

/** Defaults: about a paragraph or two per chunk, with a sentence or so of overlap. */
export const DEFAULT_CHUNKING: ChunkOptions = { size: 800, overlap: 150 };

/**
 * Splits text into chunks of about `size` characters that overlap by about
 * `overlap`: paragraphs (blank lines, Markdown headings) are kept whole when
 * they fit, longer ones are cut at sentence or word boundaries. A Markdown
 * heading starts a new chunk so that a section's text stays with its title.
 */
export function chunkText(text: string, options: ChunkOptions = DEFAULT_CHUNKING): string[] {
  const normalized = text.replace(/\r\n?/g, '\n').trim();
  if (normalized === '') return [];
  const blocks = normalized
    .split(/\n\s*\n|\n(?=#{1,6}\s)/)
    .map((b) => b.trim())
    .filter((b) => b !== '');
  const pieces = blocks.flatMap((block) => (block.length <= options.size ? [block] : splitLong(block, options.size)));
  const chunks: string[] = [];
  let current = '';
  for (const piece of pieces) {
    const heading = /^#{1,6}\s/.test(piece);
    // A chunk holding only headings (a document title) stays open: it joins the section that follows.
    const onlyHeadings = current !== '' && current.split('\n').every((line) => line.trim() === '' || /^#{1,6}\s/.test(line));
    if (current !== '' && !(heading && onlyHeadings) && (heading || current.length + piece.length + 2 > options.size)) {
      chunks.push(current);
      current = heading ? '' : tail(current, options.overlap);
    }
    current = current === '' ? piece : `${current}\n\n${piece}`;
  }
  if (current !== '') chunks.push(current);
  return chunks;
}

/** The last `overlap` characters of a chunk, starting at a word boundary. */
function tail(text: string, overlap: number): string {
  if (overlap <= 0) return '';
  if (text.length <= overlap) return text;
  const cut = text.slice(text.length - overlap);
  const space = cut.search(/\s/);
  return space < 0 ? cut : cut.slice(space + 1);
}

/** Cuts a block longer than `size` at sentence ends, else at spaces. */
function splitLong(block: string, size: number): string[] {
  const sentences = block.match(/[^.!?\n]+[.!?]*\s*|\n/g) ?? [block];
  const out: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    if (current.length + sentence.length > size && current !== '') {
      out.push(current.trim());
      current = '';
    }
    if (sentence.length > size) {
      for (let i = 0; i < sentence.length; i += size) out.push(sentence.slice(i, i + size).trim());
    } else current += sentence;
  }
  if (current.trim() !== '') out.push(current.trim());
  return out.filter((s) => s !== '');
}
