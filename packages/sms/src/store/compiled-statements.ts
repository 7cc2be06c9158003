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

// Rows per statement: PostgreSQL takes at most 65535 bind parameters and SQLite 32766.
const CHUNK_ROWS = 500;

/**
 * A multi-row insert (`head` VALUES (…), (…) `tail`) whose text is built once
 * per row count and kept: batches repeat the same few sizes.
 */
export class RowsStatement {
  private readonly texts = new Map<number, string>();
  private readonly row: string;
  private readonly perRow: number;

  constructor(
    private readonly dialect: DialectName,
    private readonly head: string,
    /** Parameters per row, or the row's own text (`(?, 'literal', ?)`). */
    row: number | string,
    private readonly tail: string,
  ) {
    this.row = typeof row === 'string' ? row : `(${Array.from({ length: row }, () => '?').join(', ')})`;
    this.perRow = typeof row === 'string' ? row.split('?').length - 1 : row;
  }

  /**
   * Runs the statement for `parameters`, flat in row order, and returns every
   * row it returns; large batches run as several statements of at most
   * CHUNK_ROWS rows, and no rows run none.
   */
  async run<Row>(runner: QueryRunner, parameters: unknown[]): Promise<Row[]> {
    const rows = parameters.length / this.perRow;
    if (rows <= CHUNK_ROWS) return rows === 0 ? [] : this.runRows<Row>(runner, rows, parameters);
    const returned: Row[] = [];
    for (let first = 0; first < rows; first += CHUNK_ROWS) {
      const count = Math.min(CHUNK_ROWS, rows - first);
      returned.push(...(await this.runRows<Row>(runner, count, parameters.slice(first * this.perRow, (first + count) * this.perRow))));
    }
    return returned;
  }

  private async runRows<Row>(runner: QueryRunner, rows: number, parameters: unknown[]): Promise<Row[]> {
    let text = this.texts.get(rows);
    if (text === undefined) {
      text = statementText(this.dialect, `${this.head} values ${Array.from({ length: rows }, () => this.row).join(', ')} ${this.tail}`);
      if (this.texts.size < 64) this.texts.set(rows, text);
    }
    return (await runner.executeQuery<Row>(CompiledQuery.raw(text, parameters))).rows;
  }
}
