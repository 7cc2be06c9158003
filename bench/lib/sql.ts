import SQLite from 'better-sqlite3';
import pg from 'pg';

/** A minimal SQL client for the baselines and seeding: the same database the service uses, without the service's layers. */
export interface SqlClient {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs raw SQL (several statements allowed). */
  exec(text: string): Promise<void>;
  /** Runs `work` in one transaction on one connection. */
  transaction<T>(work: (client: Pick<SqlClient, 'query'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

pg.types.setTypeParser(20, (value) => Number(value));

/** Opens SQLite at `file`, or PostgreSQL at `url` with `search_path` set to `schema`. `?` placeholders work on both. */
export function openSql(target: { file: string } | { url: string; schema: string }): SqlClient {
  if ('file' in target) {
    const db = new SQLite(target.file);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    const statements = new Map<string, SQLite.Statement>();
    const prepare = (text: string) => {
      let statement = statements.get(text);
      if (!statement) {
        statement = db.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    };
    const client = {
      async query<T>(text: string, params: unknown[] = []) {
        const statement = prepare(text);
        if (statement.reader) return statement.all(...params) as T[];
        statement.run(...params);
        return [];
      },
    };
    return {
      query: client.query,
      async exec(text: string) {
        db.exec(text);
      },
      // Awaiting already-settled promises yields only to microtasks, so no other request's statements interleave.
      async transaction(work) {
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(client);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      },
      async close() {
        db.close();
      },
    };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: 10, options: `-c search_path="${target.schema}"` });
  const numbered = new Map<string, string>();
  const toPg = (text: string) => {
    let out = numbered.get(text);
    if (!out) {
      let n = 0;
      out = text.replace(/\?/g, () => `$${++n}`);
      numbered.set(text, out);
    }
    return out;
  };
  return {
    async query<T>(text: string, params: unknown[] = []) {
      return (await pool.query({ text: toPg(text), values: params })).rows as T[];
    },
    async exec(text: string) {
      await pool.query(text);
    },
    async transaction(work) {
      const connection = await pool.connect();
      try {
        await connection.query('BEGIN');
        const result = await work({
          async query<T>(text: string, params: unknown[] = []) {
            return (await connection.query({ text: toPg(text), values: params })).rows as T[];
          },
        });
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        await connection.query('ROLLBACK');
        throw error;
      } finally {
        connection.release();
      }
    },
    close: () => pool.end(),
  };
}
