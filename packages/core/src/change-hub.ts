import type { Logger } from './logger.ts';
import type { WakeBus } from './wake-bus.ts';

/** A change as a hub hands it to streams: numbered within its scope (a project, an organization) in commit order. */
export interface NumberedChange {
  seq: number;
}

/** Options of a ChangeHub. */
export interface ChangeHubOptions<E extends NumberedChange> {
  /** Where wake-ups arrive: a topic is `SCOPE` or `SCOPE:anything`; undefined means "any scope may have changed". */
  bus: Pick<WakeBus, 'listen'>;
  logger: Logger;
  /** The safety poll: how often every open stream looks for changes it was not woken for, in ms. */
  pollMs: number;
  /**
   * A scope's changes numbered above `after`, oldest first, from the source of truth (a table), about `limit`
   * rows' worth, and whether more may follow. Changes that share a number are all in the answer or none.
   */
  read(scope: string, after: number, limit: number): Promise<{ changes: E[]; more: boolean }>;
  /** Changes read per query while catching up (default 500). */
  batch?: number;
}

/** One open stream: the last change it was handed, and where its next ones go. */
interface Subscriber<E> {
  lastSeq: number;
  deliver(changes: readonly E[]): void;
}

/** The streams of one scope, and whether its changes are being read. */
interface ScopeStreams<E> {
  subscribers: Set<Subscriber<E>>;
  reading: boolean;
  again: boolean;
}

/**
 * Fans a table of numbered changes out to the open streams of this instance. The table is the source of
 * truth: a wake-up (a commit here, pg_notify, Redis, or the safety poll) makes the hub read, once per scope,
 * the changes after the oldest position of that scope's streams and hand each stream those after its own; so
 * every stream gets every change once and in order, whether or not a wake-up was lost. Wake-ups that arrive
 * during a read make one more read, not one each.
 */
export class ChangeHub<E extends NumberedChange> {
  private readonly scopes = new Map<string, ScopeStreams<E>>();
  private readonly unlisten: () => void;
  private readonly poll: NodeJS.Timeout;
  private readonly batch: number;
  private closed = false;

  constructor(private readonly options: ChangeHubOptions<E>) {
    this.batch = options.batch ?? 500;
    this.unlisten = options.bus.listen((topic) => this.wake(topic === undefined ? undefined : topic.split(':')[0]));
    this.poll = setInterval(() => this.wake(undefined), options.pollMs);
    this.poll.unref();
  }

  /** Adds a stream that has everything up to `lastSeq`; it is handed every later change. Returns its removal. */
  subscribe(scope: string, lastSeq: number, deliver: (changes: readonly E[]) => void): () => void {
    let streams = this.scopes.get(scope);
    if (!streams) {
      streams = { subscribers: new Set(), reading: false, again: false };
      this.scopes.set(scope, streams);
    }
    const subscriber: Subscriber<E> = { lastSeq, deliver };
    streams.subscribers.add(subscriber);
    // What was committed between the caller's look at the latest number and now.
    this.wake(scope);
    const own = streams;
    return () => {
      own.subscribers.delete(subscriber);
      if (own.subscribers.size === 0 && !own.reading && this.scopes.get(scope) === own) this.scopes.delete(scope);
    };
  }

  /** Number of open streams (metrics, tests). */
  get streams(): number {
    let n = 0;
    for (const streams of this.scopes.values()) n += streams.subscribers.size;
    return n;
  }

  /** Looks for new changes of a scope (of every scope with streams when undefined). */
  wake(scope: string | undefined): void {
    if (this.closed) return;
    const ids = scope === undefined ? [...this.scopes.keys()] : [scope];
    for (const id of ids) {
      const streams = this.scopes.get(id);
      if (!streams) continue;
      if (streams.reading) {
        streams.again = true;
        continue;
      }
      streams.reading = true;
      void this.read(id, streams);
    }
  }

  private async read(scope: string, streams: ScopeStreams<E>): Promise<void> {
    try {
      do {
        streams.again = false;
        for (;;) {
          if (streams.subscribers.size === 0 || this.closed) break;
          let from = Number.POSITIVE_INFINITY;
          for (const subscriber of streams.subscribers) from = Math.min(from, subscriber.lastSeq);
          const { changes, more } = await this.options.read(scope, from, this.batch);
          if (changes.length === 0) break;
          for (const subscriber of streams.subscribers) {
            const fresh = changes.filter((change) => change.seq > subscriber.lastSeq);
            if (fresh.length === 0) continue;
            subscriber.lastSeq = fresh[fresh.length - 1].seq;
            subscriber.deliver(fresh);
          }
          if (!more) break;
        }
      } while (streams.again && !this.closed);
    } catch (error) {
      // The next wake-up or poll tries again.
      this.options.logger.warn({ err: error, scope }, 'reading changes failed');
    } finally {
      streams.reading = false;
      if (streams.subscribers.size === 0 && this.scopes.get(scope) === streams) this.scopes.delete(scope);
    }
  }

  /** Stops listening and polling (the streams themselves are closed by their routes). */
  close(): void {
    this.closed = true;
    this.unlisten();
    clearInterval(this.poll);
  }
}
