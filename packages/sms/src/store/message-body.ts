/**
 * How a message body is stored so that any Unicode text comes back exactly as
 * it was sent, U+0000 included, on both engines.
 *
 * PostgreSQL `text` cannot hold U+0000. A body that holds one keeps its exact
 * UTF-8 bytes in `body_utf8` (bytea / blob), and `body` holds a readable copy
 * with each U+0000 shown as U+FFFD (for people and SQL that read the column).
 * Every other body (nearly all of them) is plain `text` with `body_utf8` null,
 * so the listing reads and sends what it always did: one extra null column,
 * no decoding, no bytea to parse. The same rule runs on SQLite, which could
 * hold U+0000 in text, so that both engines share one write and read path.
 */

/** The `body` and `body_utf8` columns of a message with this text. */
export function bodyColumns(body: string): { body: string; body_utf8: Buffer | null } {
  if (!body.includes('\u0000')) return { body, body_utf8: null };
  return { body: body.replaceAll('\u0000', '\uFFFD'), body_utf8: Buffer.from(body, 'utf8') };
}

/** The text of a stored message: its exact bytes when it has them, else its `body`. */
export function bodyOfRow(row: { body: string; body_utf8: Uint8Array | null }): string {
  return row.body_utf8 === null ? row.body : Buffer.from(row.body_utf8.buffer, row.body_utf8.byteOffset, row.body_utf8.byteLength).toString('utf8');
}
