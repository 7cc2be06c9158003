import { describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { AppError, databaseUnavailable, fromFrameworkError, openDatabase } from '../src/index.ts';
import { createTestDatabase, startFaultProxy } from '../src/testing.ts';

const postgres = process.env.TEST_DATABASE_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('database faults as errors', () => {
  it('maps a lost or unreachable database to 503 unavailable with Retry-After, and SQLite disk faults to their own messages', () => {
    const cases: Array<[unknown, string]> = [
      [Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'The database is unavailable; retry shortly.'],
      [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'The database is unavailable; retry shortly.'],
      [new Error('Connection terminated unexpectedly'), 'The database is unavailable; retry shortly.'],
      [new Error('timeout exceeded when trying to connect'), 'The database is unavailable; retry shortly.'],
      [new Error('Client has encountered a connection error and is not queryable'), 'The database is unavailable; retry shortly.'],
      [Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), 'The database is unavailable; retry shortly.'],
      [Object.assign(new Error('the database system is starting up'), { code: '57P03' }), 'The database is unavailable; retry shortly.'],
      [Object.assign(new Error('sorry, too many clients already'), { code: '53300' }), 'The database is unavailable; retry shortly.'],
      [new Error('wrapped', { cause: Object.assign(new Error('x'), { code: '08006' }) }), 'The database is unavailable; retry shortly.'],
      [
        Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
        'The database cannot store anything more: its disk is full. Reads still work; retry writes later.',
      ],
      [
        Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' }),
        'The database is read-only (DATA_DIR cannot be written). Reads still work; retry writes later.',
      ],
      [
        Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }),
        'The database is read-only (DATA_DIR cannot be written). Reads still work; retry writes later.',
      ],
    ];
    for (const [error, message] of cases) {
      const known = fromFrameworkError(error);
      expect(known).toBeInstanceOf(AppError);
      expect({ code: known!.code, status: known!.status, message: known!.message, retryAfter: known!.retryAfter }).toEqual({
        code: 'unavailable',
        status: 503,
        message,
        retryAfter: 5,
      });
    }
    // A query's own faults stay what they were.
    expect(databaseUnavailable(Object.assign(new Error('relation "x" does not exist'), { code: '42P01' }))).toBeUndefined();
    expect(databaseUnavailable(Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }))).toBeUndefined();
    expect(fromFrameworkError(new Error('boom'))).toBeUndefined();
  });
});

describe.skipIf(!postgres)('a PostgreSQL connection lost under a service', () => {
  it('never raises an unhandled error event, from idle clients or from clients in use, and the pool reconnects when the database is back', async () => {
    const target = new URL(postgres!);
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const test = await createTestDatabase('postgres');
    const database = await openDatabase<unknown>({
      url: proxy.rewrite(test.env.DATABASE_URL),
      urlVariable: 'DATABASE_URL',
      sqliteFile: '',
      schema: 'faults',
      migrations: {},
    });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      // Idle clients in the pool.
      await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.01)`.execute(database.db)));
      // A client in use between two statements of a transaction when the connection goes.
      const transaction = database.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        proxy.cut();
        await sleep(100);
        await sql`select 2`.execute(trx);
      });
      await expect(transaction).rejects.toSatisfy((error) => databaseUnavailable(error) === 'unreachable');
      // A client checked out by hand (as LISTEN or a session lock would hold one) and idle when the connection goes.
      proxy.restore();
      const held = await database.pool!.connect();
      proxy.cut();
      await sleep(100);
      held.release();
      expect(await database.ping(1000)).toBe(false);
      await expect(sql`select 1`.execute(database.db)).rejects.toSatisfy((error) => databaseUnavailable(error) === 'unreachable');

      proxy.restore();
      expect(await database.ping(1000)).toBe(true);
      expect((await sql<{ n: number }>`select 3 as n`.execute(database.db)).rows).toEqual([{ n: 3 }]);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await database.close();
      await proxy.close();
      await test.cleanup();
    }
  });
});

describe.skipIf(!postgres)('a PostgreSQL that stops answering without closing the connection', () => {
  it('fails a statement after the query timeout instead of hanging, and the pool recovers once the database answers again', async () => {
    const target = new URL(postgres!);
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const test = await createTestDatabase('postgres');
    const database = await openDatabase<unknown>({
      url: proxy.rewrite(test.env.DATABASE_URL),
      urlVariable: 'DATABASE_URL',
      sqliteFile: '',
      schema: 'stall',
      migrations: {},
      queryTimeoutMs: 300,
    });
    try {
      expect((await sql<{ n: number }>`select 1 as n`.execute(database.db)).rows).toEqual([{ n: 1 }]);
      proxy.stall();
      const started = Date.now();
      const error = await sql`select 2`.execute(database.db).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      const waited = Date.now() - started;
      expect(databaseUnavailable(error)).toBe('unreachable');
      expect(fromFrameworkError(error)).toMatchObject({ code: 'unavailable', status: 503, retryAfter: 5 });
      // The limit (300 ms) plus the watchdog's look every 75 ms, with room for a loaded machine; never pg's own wait forever.
      expect(waited).toBeLessThan(3000);
      proxy.restore();
      expect((await sql<{ n: number }>`select 3 as n`.execute(database.db)).rows).toEqual([{ n: 3 }]);
    } finally {
      await database.close();
      await proxy.close();
      await test.cleanup();
    }
  });

  it('leaves migrations unlimited: the limit applies once the database is open', async () => {
    const test = await createTestDatabase('postgres');
    const slow = { '0001_slow': { up: async (db: Kysely<unknown>) => void (await sql`select pg_sleep(0.4)`.execute(db)) } };
    const database = await openDatabase<unknown>({
      url: test.env.DATABASE_URL,
      urlVariable: 'DATABASE_URL',
      sqliteFile: '',
      schema: 'slow',
      migrations: slow,
      queryTimeoutMs: 200,
    });
    try {
      const error = await sql`select pg_sleep(1)`.execute(database.db).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(databaseUnavailable(error)).toBe('unreachable');
    } finally {
      await database.close();
      await test.cleanup();
    }
  });
});
