import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { ConfigError, ensureDir } from './config.ts';
import { migrate, type DialectName, type VersionedMigration } from './migrations.ts';

/** An open database of one service. */
export interface Database<DB> {
  db: Kysely<DB>;
  dialect: DialectName;
  /** PostgreSQL schema, or `main` on SQLite. */
  schema: string;
  /** The pg pool on PostgreSQL, for LISTEN/NOTIFY and session-level locks; undefined on SQLite. */
  pool: pg.Pool | undefined;
  /** True when a trivial query answers within the timeout. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Where to open a service's database. */
export interface DatabaseOptions {
  /** PostgreSQL URL; a `schema_prefix` query parameter prefixes the schema name (used by tests). */
  url: string | undefined;
  /** Variable that supplied `url`, named in start-up errors. */
  urlVariable: string;
  /** SQLite file used when no URL is given. */
  sqliteFile: string;
  /** PostgreSQL schema (`sms`, `flows`, `tickets`). */
  schema: string;
  /** Migrations by name; names sort in application order. */
  migrations: Record<string, VersionedMigration>;
  /** Largest number of PostgreSQL connections. */
  poolSize?: number;
  /**
   * Longest a PostgreSQL statement may wait for its answer once migrations ran (default 10 s): past it the
   * connection is closed, so a database that stopped answering (a network partition) gets 503 instead of
   * requests that hang. Migrations are not limited.
   */
  queryTimeoutMs?: number;
}

// int8 (COUNT(*), bigserial ids) arrives from pg as a string by default; ids stay far below 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

/**
 * Splits `?schema_prefix=P` off a PostgreSQL URL: the service's schema becomes
 * `P_NAME` instead of `NAME`, so several deployments (or test runs) share one database.
 */
export function splitSchema(url: string, name: string): { url: string; schema: string } {
  const parsed = new URL(url);
  const prefix = parsed.searchParams.get('schema_prefix');
  parsed.searchParams.delete('schema_prefix');
  return { url: parsed.toString(), schema: prefix ? `${prefix}_${name}` : name };
}

/** Opens (and migrates) the database: PostgreSQL when a URL is given, else SQLite in WAL mode. */
export async function openDatabase<DB>(options: DatabaseOptions): Promise<Database<DB>> {
  const database = options.url ? await openPostgres<DB>(options) : openSqlite<DB>(options);
  try {
    await migrate(database, options.migrations);
  } catch (error) {
    await database.close();
    throw error;
  }
  if (database.pool) watchdogs.get(database.pool)?.start(options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS);
  return database;
}

/** See DatabaseOptions.queryTimeoutMs. */
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;

const watchdogs = new WeakMap<pg.Pool, QueryWatchdog>();

/**
 * Closes the connection of a statement that has waited longer than the limit
 * for its answer. A database that stops answering without closing the
 * connection (a network partition, a hung server) would otherwise hold each
 * request until the operating system gives up on the socket, minutes later.
 * pg then fails the statement ("Connection terminated"), the request gets
 * 503, and the pool opens a new connection for the next one. One timer per
 * pool looks at the connections' start times, instead of a timer per query.
 */
class QueryWatchdog {
  private readonly clients = new Set<CallbackQueryClient>();
  private timer: NodeJS.Timeout | undefined;

  constructor(pool: pg.Pool) {
    pool.on('connect', (client) => {
      const tracked = client as unknown as CallbackQueryClient;
      this.clients.add(tracked);
      tracked.once('end', () => this.clients.delete(tracked));
    });
  }

  start(limitMs: number): void {
    if (limitMs <= 0 || this.timer) return;
    this.timer = setInterval(
      () => {
        const now = performance.now();
        for (const client of this.clients) {
          if (client.waitingSince > 0 && now - client.waitingSince > limitMs) {
            client.waitingSince = 0;
            (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
          }
        }
      },
      Math.max(50, Math.min(1000, limitMs / 4)),
    );
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.clients.clear();
  }
}

function openSqlite<DB>(options: DatabaseOptions): Database<DB> {
  ensureDir(join(options.sqliteFile, '..'));
  const connection = openSqliteConnection(options.sqliteFile);
  // foreign_keys is per connection and only the writer changes rows.
  connection.pragma('foreign_keys = ON');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  // Opened lazily: migrations run on the writer first, and a service that never asks for it keeps one connection.
  let reader: { statements: ReturnType<typeof withStatementCache<RowReader>>; connection: SQLite.Database } | undefined;
  const openReader = () => {
    if (!reader) {
      const readConnection = openSqliteConnection(options.sqliteFile);
      readConnection.pragma('query_only = ON');
      reader = { statements: withStatementCache(readConnection, STATEMENT_CACHE_SIZE, rowReader), connection: readConnection };
    }
    return reader;
  };
  readers.set(db, {
    all<R>(text: string, parameters: readonly unknown[]): R[] {
      return openReader().statements.prepare(text)(parameters) as R[];
    },
    snapshot<T>(read: () => T): T {
      const { connection: readConnection } = openReader();
      if (readConnection.inTransaction) return read();
      readConnection.exec('begin');
      try {
        return read();
      } finally {
        readConnection.exec('commit');
      }
    },
  });
  return {
    db,
    dialect: 'sqlite',
    schema: 'main',
    pool: undefined,
    async ping() {
      try {
        connection.prepare('SELECT 1').get();
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      readers.delete(db);
      reader?.statements.close();
      await db.destroy();
    },
  };
}

function openSqliteConnection(file: string): SQLite.Database {
  let connection: SQLite.Database;
  try {
    connection = new SQLite(file);
  } catch (error) {
    throw new ConfigError('DATA_DIR', `cannot open ${file}: ${(error as Error).message}`);
  }
  connection.pragma('journal_mode = WAL');
  connection.pragma('busy_timeout = 5000');
  // NORMAL in WAL mode keeps every commit through a process crash; only power loss can drop the last ones.
  connection.pragma('synchronous = NORMAL');
  return connection;
}

/** Runs a read statement at once, outside Kysely, on SQLite's read connection. */
export interface SqliteReader {
  /** The rows of one statement (`?` placeholders), run synchronously. */
  all<R>(text: string, parameters: readonly unknown[]): R[];
  /**
   * Runs `read` with the statements it runs at once on this connection in one read transaction: one snapshot
   * of them all, and the transaction begun once where each statement alone begins and ends its own (taking
   * and dropping the database's shared lock and the log's read mark each time): a ticket read's eight
   * statements cost half as much in one transaction (measured with better-sqlite3 alone on a 10,000-ticket
   * board). The transaction ends when `read` returns, so it never spans an await: statements `read` runs
   * after one run alone, and no other request's read ever joins its snapshot.
   */
  snapshot<T>(read: () => T): T;
}

// Keyed by the Kysely instance itself, whatever its tables.
const readers = new WeakMap<object, SqliteReader>();

/** Runs one read statement with its parameters and returns its rows as objects. */
type RowReader = (parameters: readonly unknown[]) => object[];

/**
 * A read statement switched to raw rows (arrays), each made into its row
 * object by a function compiled once per statement. On Node 20
 * better-sqlite3 builds each row object through V8's API, one property at a
 * time with the column name looked up for every value; an object literal
 * compiled by V8 costs less (a ticket read's eight statements ~7 µs less per
 * request, `npm run bench`). Later columns of the same name win, as in
 * better-sqlite3's own objects.
 */
function rowReader(statement: SQLite.Statement): RowReader {
  statement.raw(true);
  // The names are the statement's own columns, each quoted by JSON.stringify into a property key.
  const fields = statement.columns().map((column, i) => `${JSON.stringify(column.name)}: values[${i}]`);
  const toObject = new Function('values', `return { ${fields.join(', ')} };`) as (values: unknown[]) => object;
  return (parameters) => {
    const rows = statement.all(parameters as unknown[]) as unknown[];
    for (let i = 0; i < rows.length; i += 1) rows[i] = toObject(rows[i] as unknown[]);
    return rows as object[];
  };
}

/**
 * The read connection of a SQLite database handle, or undefined on
 * PostgreSQL and for a transaction (which must read on its own connection).
 * Kysely runs every query through one connection behind a mutex, a few
 * promise hops per query; hot reads that run several small statements per
 * request go faster straight to a second connection. In WAL mode that
 * connection reads the last committed state: never another request's
 * transaction in progress, which a read on the writer's connection would see.
 */
export function sqliteReaderOf<DB>(db: Kysely<DB>): SqliteReader | undefined {
  return readers.get(db);
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew, about a tenth of a small read; this keeps
 * prepared statements by SQL text. Safe because Kysely runs one query at a
 * time on the single SQLite connection (a stream holds it to the end). When
 * full, the statement prepared first goes: a service runs a few dozen
 * statements, far below the bound, which only stops unbounded growth.
 * (Moving each hit to the end of the Map, as a strict LRU does, rebuilt the
 * Map's table every few requests, garbage that outlived young-generation
 * collections.)
 */
export function withStatementCache<T = SQLite.Statement>(
  connection: SQLite.Database,
  capacity = STATEMENT_CACHE_SIZE,
  /** What is kept for each statement (the statement itself unless given), made once when it is prepared. */
  wrap: (statement: SQLite.Statement) => T = (statement) => statement as T,
): { prepare(sql: string): T; close(): void } {
  const cache = new Map<string, T>();
  return {
    prepare(text: string) {
      let entry = cache.get(text);
      if (entry === undefined) {
        entry = wrap(connection.prepare(text));
        if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
        cache.set(text, entry);
      }
      return entry;
    },
    close: () => connection.close(),
  };
}

async function openPostgres<DB>(options: DatabaseOptions): Promise<Database<DB>> {
  const { url, schema } = splitSchema(options.url!, options.schema);
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new ConfigError(options.urlVariable, `invalid schema name "${schema}"`);
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await probe.connect();
    await probe.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (error) {
    await probe.end().catch(() => undefined);
    const message = (error as Error).message || String(error);
    // A concurrent CREATE SCHEMA from a sibling process is harmless.
    if (!/already exists|duplicate key/.test(message)) {
      throw new ConfigError(options.urlVariable, `cannot connect to PostgreSQL: ${message}`);
    }
  }
  await probe.end().catch(() => undefined);
  const pool = new pg.Pool({
    Client: CallbackQueryClient,
    connectionString: url,
    max: options.poolSize ?? 10,
    options: `-c search_path="${schema}"`,
    connectionTimeoutMillis: 5000,
  });
  // A client losing its server (a database restart, a network cut) emits 'error', and an 'error' event without a
  // listener ends the process. The pool listens only while a client is idle; a client in use (a query or a
  // transaction in flight, or one between two of its statements) gets a listener of its own for its whole life.
  // Either way the query that used it reports the loss, answered 503 (errors.ts, databaseUnavailable), and the
  // pool drops the client and opens a new one when the database is back.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const watchdog = new QueryWatchdog(pool);
  watchdogs.set(pool, watchdog);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    schema,
    pool,
    async ping(timeoutMs = 2000) {
      try {
        await withTimeout(sql`SELECT 1`.execute(db), timeoutMs);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      watchdog.stop();
      await db.destroy();
    },
  };
}

const clientQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;

/**
 * A pg client whose promise-form `query(text, values)` (the form Kysely
 * calls) hands pg a callback instead. pg's own promise form sets the query's
 * callback after constructing it, and with that V8 (Node 20) starts
 * pretenuring: every result's rows went to the old generation, 2.3 MB per
 * young-generation collection on a 100-message SMS listing, pauses of
 * 1.5-2.6 ms instead of 0.3. With the callback given up front (or with
 * --no-allocation-site-pretenuring) nothing is promoted. Results and errors
 * are pg's own.
 */
export class CallbackQueryClient extends pg.Client {
  /** performance.now() when the statement now waiting for its answer was sent; 0 when none waits (QueryWatchdog). */
  waitingSince = 0;

  // biome-ignore lint/suspicious/noExplicitAny: one override stands for all of pg's query() overloads (a promise, void, the submittable passed in), which only `any` satisfies.
  override query(...args: unknown[]): any {
    const [text, values, callback] = args;
    // Only query text: a config object would get pg's callback written into it.
    if (typeof text !== 'string' || typeof values === 'function' || typeof callback === 'function') return clientQuery.apply(this, args);
    return new Promise((resolve, reject) => {
      this.waitingSince = performance.now();
      clientQuery.call(this, text, values, (error: Error | null, result: pg.QueryResult) => {
        this.waitingSince = 0;
        if (error) reject(error);
        else resolve(result);
      });
    });
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), ms);
    }),
  ]);
}

/** The current time as stored everywhere: ISO 8601 UTC with milliseconds (sorts as text on both engines). */
export function isoNow(now: Date = new Date()): string {
  return now.toISOString();
}
