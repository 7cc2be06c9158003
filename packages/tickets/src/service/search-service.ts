import type { BoardContext } from './board-context.ts';
import type { SearchScope } from '../domain/vocabulary.ts';
import { ticketKey } from '../domain/ticket-rules.ts';
import { projectColumns } from '../store/project-store.ts';
import { MARK, queryTerms, searchIndex, type SearchHit } from '../store/search-store.ts';
import { ticketsByIds } from '../store/ticket-store.ts';
import { documentsByIds } from '../store/document-store.ts';
import { clip } from '../domain/text-rules.ts';
import { asSentences, markdownToPlainText } from '../domain/plain-text.ts';
import { SNIPPET_WORDS, markedWords, openingSnippet, plainSnippet, snippetRegion, wordMatcher } from '../domain/search-snippet.ts';
import { AnswerRoom, answerCost, entryCost } from '../domain/answer-budget.ts';

/** Default and largest number of search results (100 results of ordinary titles take about 30,000 characters). */
export const SEARCH_LIMIT = { default: 20, max: 100 } as const;

/**
 * Longest snippet: a snippet is cut around the matches by words, so only a text with a giant "word" (a pasted
 * blob without spaces) makes a longer one.
 */
export const SNIPPET_CLIP = 600;

/**
 * search: ranked full-text over the project's tickets and documents, with highlighted snippets. The results
 * stop early, dropping the lowest ranked, where the next would pass the answer budget (only titles of hundreds
 * of characters make 100 results that long).
 */
export async function search(ctx: BoardContext, input: { query: string; scope?: SearchScope; limit?: number }) {
  const scope = input.scope ?? 'all';
  const limit = input.limit ?? SEARCH_LIMIT.default;
  const terms = queryTerms(input.query);
  const [ticketHits, documentHits] = await Promise.all([
    scope === 'documents' ? [] : searchIndex(ctx.db, ctx.dialect, ctx.project.id, 'ticket', terms, limit),
    scope === 'tickets' ? [] : searchIndex(ctx.db, ctx.dialect, ctx.project.id, 'document', terms, limit),
  ]);
  const [tickets, columns, documents] = await Promise.all([
    ticketsByIds(
      ctx.db,
      ctx.project.id,
      ticketHits.map((hit) => hit.id),
    ),
    ticketHits.length > 0 ? projectColumns(ctx.db, ctx.project.id) : [],
    documentsByIds(
      ctx.db,
      ctx.project.id,
      documentHits.map((hit) => hit.id),
    ),
  ]);
  const ticketById = new Map(tickets.map((row) => [row.id, row]));
  const documentById = new Map(documents.map((row) => [row.id, row]));
  const columnName = new Map(columns.map((column) => [column.id, column.name]));
  const ranked = [...ticketHits, ...documentHits]
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((hit) => {
      if (hit.kind === 'ticket') {
        const row = ticketById.get(hit.id)!;
        return {
          kind: 'ticket' as const,
          key: ticketKey(ctx.project.key, row.number),
          title: row.title,
          ticket_type: row.ticket_type,
          column: columnName.get(row.column_id) ?? null,
          score: round(hit.score),
          snippet: snippetOf(hit, terms),
        };
      }
      const row = documentById.get(hit.id)!;
      return { kind: 'document' as const, slug: row.slug, title: row.title, doc_type: row.doc_type, score: round(hit.score), snippet: snippetOf(hit, terms) };
    });
  const answer = { results: [] as typeof ranked };
  const room = new AnswerRoom(answerCost(answer));
  for (const result of ranked) {
    if (!room.take(entryCost(result))) break;
    answer.results.push(result);
  }
  return answer;
}

/**
 * A hit's snippet, from the plain text of its body (no Markdown syntax) around the words the engine matched: its
 * text outside code blocks, else its code, else its title when the match is only there; the opening of the body
 * when the match is in what plain text leaves out (a link's address, an image).
 */
function snippetOf(hit: SearchHit, terms: readonly string[]): string {
  const isMatch = wordMatcher(markedWords(`${hit.title}\n${hit.body}`, MARK.start, MARK.stop), terms);
  const region = snippetRegion(hit.body, MARK.start);
  const source = unmarked(region.source);
  const text = asSentences(markdownToPlainText(source, { code: false }));
  const title = unmarked(hit.title);
  const snippet =
    plainSnippet(text, isMatch, SNIPPET_WORDS, region) ??
    plainSnippet(markdownToPlainText(source), isMatch, SNIPPET_WORDS, region) ??
    plainSnippet(title, isMatch) ??
    openingSnippet(text || title);
  const clipped = clip(snippet, SNIPPET_CLIP);
  return clipped.truncated ? `${clipped.text}…` : clipped.text;
}

function unmarked(text: string): string {
  return text.replaceAll(MARK.start, '').replaceAll(MARK.stop, '');
}

function round(score: number): number {
  return Number(score.toPrecision(6));
}
