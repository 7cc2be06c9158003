/** BM25 ranking over tokenized chunks, and reciprocal rank fusion for hybrid search. Pure. */

// Common English words carry no signal for ranking; dropping them keeps short questions focused.
const STOP_WORDS = new Set(
  'a an and are as at be but by can do does for from has have how i if in into is it its me my no not of on or our so that the their then there these this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);

/** Lower-cased word tokens without stop words, lightly stemmed (plural and -ing/-ed endings). */
export function tokenize(text: string): string[] {
  const words =
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .match(/[a-z0-9]+/g) ?? [];
  return words.filter((w) => !STOP_WORDS.has(w)).map(stem);
}

function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** One scored document (index into the searched list). */
export interface Scored {
  index: number;
  score: number;
}

/** Okapi BM25 (k1 = 1.2, b = 0.75) of every document with a positive score, best first. */
export function bm25(query: string, documents: string[][], k1 = 1.2, b = 0.75): Scored[] {
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0 || documents.length === 0) return [];
  const n = documents.length;
  const avgLength = documents.reduce((sum, d) => sum + d.length, 0) / n || 1;
  const documentFrequency = new Map<string, number>();
  for (const doc of documents) for (const term of new Set(doc)) if (terms.includes(term)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const scored: Scored[] = [];
  documents.forEach((doc, index) => {
    const frequency = new Map<string, number>();
    for (const token of doc) if (documentFrequency.has(token)) frequency.set(token, (frequency.get(token) ?? 0) + 1);
    let score = 0;
    for (const term of terms) {
      const tf = frequency.get(term) ?? 0;
      if (tf === 0) continue;
      const df = documentFrequency.get(term)!;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / avgLength));
    }
    if (score > 0) scored.push({ index, score });
  });
  return scored.sort((x, y) => y.score - x.score || x.index - y.index);
}

/** Cosine similarity of two vectors of the same length. */
export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Reciprocal rank fusion (k = 60) of several rankings: a document ranked well
 * by either the keyword or the vector search comes first, with no need to
 * put BM25 scores and cosine similarities on one scale.
 */
export function reciprocalRankFusion(rankings: Scored[][], k = 60): Scored[] {
  const fused = new Map<number, number>();
  for (const ranking of rankings) for (const [rank, item] of ranking.entries()) fused.set(item.index, (fused.get(item.index) ?? 0) + 1 / (k + rank + 1));
  return [...fused.entries()].map(([index, score]) => ({ index, score })).sort((x, y) => y.score - x.score || x.index - y.index);
}
