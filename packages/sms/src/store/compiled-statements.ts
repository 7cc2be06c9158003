import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { DialectName } from '@switchboard/core';
import type { SmsTables } from './schema.ts';

/** Anything that runs a compiled query: the database or a transaction. */
export type QueryRunner = Kysely<SmsTables> | Transaction<SmsTables>;

/**
 * A hot-path statement written once as SQL text: building and compiling it
 * with Kysely on every webhook cost more CPU than SQLite spent running it.
 * `?` placeholders become `$1…$n` on PostgreSQL. Texts must hold no other `?`.
 */
export function statementText(dialect: DialectName, text: string): string {
  if (dialect !== 'postgres') return text;
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/**
 * A multi-row insert (`head` VALUES (…), (…) `tail`) whose text is built once
 * per row count and kept: batches repeat the same few sizes.
 */
export class RowsStatement {
  private readonly texts = new Map<number, string>();
  private readonly row: string;

  constructor(
    private readonly dialect: DialectName,
    private readonly head: string,
    /** Parameters per row, or the row's own text (`(?, 'literal', ?)`). */
    row: number | string,
    private readonly tail: string,
  ) {
    this.row = typeof row === 'string' ? row : `(${Array.from({ length: row }, () => '?').join(', ')})`;
  }

  /** Runs the statement for `rows` rows, `parameters` flat in row order. */
  async run<Row>(runner: QueryRunner, rows: number, parameters: unknown[]): Promise<Row[]> {
    let text = this.texts.get(rows);
    if (text === undefined) {
      text = statementText(this.dialect, `${this.head} values ${Array.from({ length: rows }, () => this.row).join(', ')} ${this.tail}`);
      if (this.texts.size < 64) this.texts.set(rows, text);
    }
    return (await runner.executeQuery<Row>(CompiledQuery.raw(text, parameters))).rows;
  }
}
