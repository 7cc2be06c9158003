import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import { sqliteReaderOf } from './database.ts';

/** How to build one query and which values it binds, in the order the built query binds them. */
export interface PreparedQuerySpec<DB, A extends unknown[], R> {
  build(db: Kysely<DB>, ...args: A): Compilable<R>;
  params(...args: NoInfer<A>): unknown[];
  /** Distinguishes builds whose SQL text differs (e.g. the length of an `in` list); one shape when absent. */
  shape?(...args: NoInfer<A>): string;
}

/**
 * A query Kysely builds and compiles once per database handle and shape; later
 * calls only bind their parameters. Building and compiling cost a fifth of a
 * ticket read (several small queries per request) and 7% of an SMS listing on
 * PostgreSQL. The first compile checks that `params` lists exactly the values
 * the built query binds, so a mismatch fails the first call (and the tests)
 * instead of binding wrong values.
 * A transaction is a new handle each time, so inside one queries compile as usual.
 * Outside a transaction on SQLite, a compiled query runs straight on the read
 * connection (see sqliteReaderOf): Kysely's executor cost a ticket read more
 * than a quarter of its CPU.
 */
export function preparedQuery<DB, A extends unknown[], R>(spec: PreparedQuerySpec<DB, A, R>): (db: Kysely<DB>, ...args: A) => Promise<R[]> {
  const compiledByDb = new WeakMap<Kysely<DB>, Map<string, string>>();
  return async (db, ...args) => {
    let compiled = compiledByDb.get(db);
    if (!compiled) {
      compiled = new Map();
      compiledByDb.set(db, compiled);
    }
    const shape = spec.shape ? spec.shape(...args) : '';
    const params = spec.params(...args);
    const text = compiled.get(shape);
    if (text !== undefined) {
      const reader = sqliteReaderOf(db);
      return reader ? reader.all<R>(text, params) : (await db.executeQuery<R>(CompiledQuery.raw(text, params))).rows;
    }
    const query = spec.build(db, ...args).compile();
    if (query.parameters.length !== params.length || query.parameters.some((value, i) => value !== params[i])) {
      throw new Error(`preparedQuery: params() ${JSON.stringify(params)} differ from the built query's ${JSON.stringify(query.parameters)} (${query.sql})`);
    }
    compiled.set(shape, query.sql);
    return (await db.executeQuery<R>(query)).rows;
  };
}

/**
 * Runs `read` in one read transaction of SQLite's read connection (see SqliteReader.snapshot): the prepared
 * queries `read` starts before its first await (they run at once on that connection) share one snapshot and
 * one transaction. Elsewhere (PostgreSQL, a transaction's handle) it only runs `read`.
 */
export function readSnapshot<DB, T>(db: Kysely<DB>, read: () => T): T {
  const reader = sqliteReaderOf(db);
  return reader ? reader.snapshot(read) : read();
}
