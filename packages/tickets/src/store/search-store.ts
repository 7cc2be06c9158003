import { sql } from 'kysely';
import type { DialectName } from '@switchboard/core';
import type { Db } from './project-store.ts';

/** One ranked full-text hit; higher score ranks first. */
export interface SearchHit {
  kind: 'ticket' | 'document';
  id: string;
  score: number;
  /** The title and the body (description or content) with every matched word between `MARK.start` and `MARK.stop`. */
  title: string;
  body: string;
}

/**
 * Marks the engines put around matched words (control characters no text is written with); the service reads
 * them to know which words matched and makes the snippet from the plain text.
 */
export const MARK = { start: '\u0002', stop: '\u0003' } as const;

/** The words of a query: letters and digits only, so no user text reaches the query syntax. */
export function queryTerms(query: string): string[] {
  return (query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 16);
}

/** Full-text search over one kind of record of a project: FTS5 + bm25 on SQLite, tsvector + ts_rank on PostgreSQL. */
export async function searchIndex(
  db: Db,
  dialect: DialectName,
  projectId: string,
  kind: 'ticket' | 'document',
  terms: string[],
  limit: number,
): Promise<SearchHit[]> {
  if (terms.length === 0) return [];
  const table = kind === 'ticket' ? 'tickets' : 'documents';
  const body = kind === 'ticket' ? 'description' : 'content';
  if (dialect === 'sqlite') {
    const match = terms.map((term) => `"${term}"*`).join(' ');
    const fts = sql.raw(`${table}_fts`);
    const rows = await sql<{ id: string; rank: number; title: string; body: string }>`
      SELECT r.id AS id, bm25(${fts}, 4.0, 1.0) AS rank,
             highlight(${fts}, 0, ${MARK.start}, ${MARK.stop}) AS title,
             highlight(${fts}, 1, ${MARK.start}, ${MARK.stop}) AS body
      FROM ${fts} JOIN ${sql.raw(table)} r ON r.seq = ${fts}.rowid
      WHERE ${fts} MATCH ${match} AND r.project_id = ${projectId}
      ORDER BY rank LIMIT ${limit}`.execute(db);
    return rows.rows.map((row) => ({ kind, id: row.id, score: -row.rank, title: row.title, body: row.body }));
  }
  const tsquery = terms.map((term) => `${term}:*`).join(' & ');
  const options = `StartSel="${MARK.start}", StopSel="${MARK.stop}", HighlightAll=true`;
  const rows = await sql<{ id: string; score: number; title: string; body: string }>`
    SELECT r.id, ts_rank(r.search_vector, q) AS score,
           ts_headline('english', r.title, q, ${options}) AS title,
           ts_headline('english', r.${sql.raw(body)}, q, ${options}) AS body
    FROM ${sql.raw(table)} r, to_tsquery('english', ${tsquery}) q
    WHERE r.project_id = ${projectId} AND r.search_vector @@ q
    ORDER BY score DESC, r.seq DESC LIMIT ${limit}`.execute(db);
  return rows.rows.map((row) => ({ kind, id: row.id, score: Number(row.score), title: row.title, body: row.body }));
}
