import pg from 'pg';
import type { Logger } from './logger.ts';

/**
 * Wake-ups between the instances of a service: "topic T changed, look again".
 * A wake-up carries no data: the database stays the source of truth, and a
 * listener reads what changed from there. So a lost wake-up only delays a
 * reader until its next look (or the next wake-up), and a duplicate costs one
 * read that finds nothing new.
 */
export interface WakeBus {
  /** How wake-ups reach other instances: Redis pub/sub, PostgreSQL LISTEN/NOTIFY, or nowhere (one process). */
  readonly transport: 'redis' | 'postgres' | 'memory';
  /**
   * The PostgreSQL channel to `pg_notify` inside the transaction that made the change (PostgreSQL sends it at
   * commit, so a listener never looks before the change is visible); undefined unless the transport is postgres.
   */
  readonly notifyChannel: string | undefined;
  /**
   * Announces a committed change of `topic`: this process's listeners at once, and through Redis every other
   * instance (with PostgreSQL, the transaction's pg_notify already did that).
   */
  publish(topic: string): void;
  /** Registers a listener: a topic, or undefined for "anything may have changed" (after a reconnect, when wake-ups may have been lost). */
  listen(listener: (topic: string | undefined) => void): () => void;
  close(): Promise<void>;
}

/** Where a WakeBus carries its wake-ups. */
export interface WakeBusOptions {
  /** Name of the channel (Redis channel, PostgreSQL LISTEN channel); unique per deployment and service. */
  channel: string;
  /** REDIS_URL: Redis pub/sub when set. */
  redisUrl?: string;
  /** The pool of the service's PostgreSQL database: LISTEN/NOTIFY on one connection of its own when there is no Redis. */
  pool?: pg.Pool;
  logger: Logger;
  /** Wait before reconnecting a lost LISTEN connection, in ms (doubled up to 10 s). */
  reconnectMs?: number;
}

type Listener = (topic: string | undefined) => void;

/** Listeners of this process, called one by one; a throwing listener does not stop the others. */
class LocalListeners {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly logger: Logger) {}

  add(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(topic: string | undefined): void {
    for (const listener of this.listeners) {
      try {
        listener(topic);
      } catch (error) {
        this.logger.error({ err: error }, 'wake-up listener failed');
      }
    }
  }
}

/** One process only (SQLite): wake-ups stay in memory. */
class MemoryWakeBus implements WakeBus {
  readonly transport = 'memory' as const;
  readonly notifyChannel = undefined;
  private readonly local: LocalListeners;

  constructor(logger: Logger) {
    this.local = new LocalListeners(logger);
  }

  publish(topic: string): void {
    this.local.emit(topic);
  }

  listen(listener: Listener): () => void {
    return this.local.add(listener);
  }

  async close(): Promise<void> {}
}

/**
 * PostgreSQL LISTEN on one dedicated connection per process (not a pool
 * connection: a pooled client would be handed to other queries). A lost
 * connection is reopened with a growing delay; once it listens again, the
 * listeners hear "anything may have changed", since notifications sent
 * meanwhile are gone.
 */
class PostgresWakeBus implements WakeBus {
  readonly transport = 'postgres' as const;
  readonly notifyChannel: string;
  private readonly local: LocalListeners;
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    channel: string,
    private readonly logger: Logger,
    private readonly reconnectMs: number,
  ) {
    this.notifyChannel = channel;
    this.local = new LocalListeners(logger);
  }

  /** Opens the LISTEN connection; the first failure is the caller's (the service does not start). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const options = this.pool.options as pg.ClientConfig;
    const client = new pg.Client({ connectionString: options.connectionString, connectionTimeoutMillis: 5000, keepAlive: true });
    client.on('notification', (message) => {
      if (message.channel === this.notifyChannel) this.local.emit(message.payload || undefined);
    });
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'LISTEN connection failed; reconnecting');
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    await client.connect();
    // The channel is an identifier: quoted, so its case and characters stay as given.
    await client.query(`LISTEN "${this.notifyChannel.replace(/"/g, '""')}"`);
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private lost(client: pg.Client, delay = this.reconnectMs): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.scheduleReconnect(delay);
  }

  private scheduleReconnect(delay: number): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(async () => {
      this.retry = undefined;
      try {
        await this.connect();
        this.local.emit(undefined);
      } catch (error) {
        this.logger.warn({ err: error }, 'LISTEN reconnect failed');
        this.scheduleReconnect(Math.min(delay * 2, 10_000));
      }
    }, delay);
    this.retry.unref();
  }

  publish(topic: string): void {
    // Other instances hear the transaction's pg_notify; this one need not wait for it.
    this.local.emit(topic);
  }

  listen(listener: Listener): () => void {
    return this.local.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

/**
 * Redis pub/sub (REDIS_URL): one connection publishes, one subscribes.
 * ioredis reconnects and resubscribes on its own; after a reconnect the
 * listeners hear "anything may have changed". Redis is optional even when
 * set: one that is down at start (or later) only delays other instances'
 * wake-ups until their readers' safety poll, with a warning in the log (at
 * most one every 10 s); the subscription is made once Redis answers.
 */
class RedisWakeBus implements WakeBus {
  readonly transport = 'redis' as const;
  readonly notifyChannel = undefined;
  private readonly local: LocalListeners;
  private publisher: import('ioredis').Redis | undefined;
  private subscriber: import('ioredis').Redis | undefined;
  private lastWarning = 0;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly logger: Logger,
  ) {
    this.local = new LocalListeners(logger);
  }

  private warn(error: unknown, message: string): void {
    const now = Date.now();
    if (now - this.lastWarning < 10_000) return;
    this.lastWarning = now;
    this.logger.warn({ err: error }, message);
  }

  async start(): Promise<void> {
    const { Redis } = await import('ioredis');
    // The subscriber's commands wait for a connection however long it takes (the subscription must happen); a
    // publish gives up after two retries, since a lost wake-up only delays a reader until its safety poll.
    const connect = async (maxRetriesPerRequest: number | null) => {
      const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest });
      client.on('error', (error) => this.warn(error, 'Redis connection failed; ioredis reconnects, and readers fall back on their safety poll meanwhile'));
      await client
        .connect()
        .catch((error: unknown) =>
          this.warn(error, 'Redis does not answer at start; ioredis keeps trying, and readers fall back on their safety poll meanwhile'),
        );
      return client;
    };
    this.publisher = await connect(2);
    this.subscriber = await connect(null);
    const subscriber = this.subscriber;
    const connected = subscriber.status === 'ready';
    // A 'ready' from now on follows a reconnect (or the first connection, when Redis was down at start).
    subscriber.on('ready', () => this.local.emit(undefined));
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.local.emit(message || undefined);
    });
    const subscribed = subscriber.subscribe(this.channel);
    if (connected) await subscribed;
    else subscribed.catch((error: unknown) => this.warn(error, 'Redis subscription failed'));
  }

  publish(topic: string): void {
    this.local.emit(topic);
    this.publisher?.publish(this.channel, topic).catch((error: unknown) => this.logger.warn({ err: error }, 'Redis publish failed'));
  }

  listen(listener: Listener): () => void {
    return this.local.add(listener);
  }

  async close(): Promise<void> {
    for (const client of [this.subscriber, this.publisher]) {
      if (!client) continue;
      await client.quit().catch(() => client.disconnect());
    }
    this.subscriber = undefined;
    this.publisher = undefined;
  }
}

/**
 * The bus a deployment uses (design/README.md, "Scale-out"): Redis pub/sub
 * when REDIS_URL is set, else PostgreSQL LISTEN/NOTIFY on PostgreSQL, else
 * in-process (SQLite runs one process). Fails when PostgreSQL's LISTEN
 * connection cannot be opened; a Redis that cannot be reached is waited for
 * in the background (see RedisWakeBus).
 */
export async function createWakeBus(options: WakeBusOptions): Promise<WakeBus> {
  if (options.redisUrl) {
    const bus = new RedisWakeBus(options.redisUrl, options.channel, options.logger);
    await bus.start();
    return bus;
  }
  if (options.pool) {
    const bus = new PostgresWakeBus(options.pool, options.channel, options.logger, options.reconnectMs ?? 500);
    await bus.start();
    return bus;
  }
  return new MemoryWakeBus(options.logger);
}
