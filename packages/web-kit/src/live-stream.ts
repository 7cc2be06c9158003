/**
 * A service's stream of numbered changes (server-sent events), shared by every part of a page: the ticket
 * board's project events, the SMS console's messages.
 *
 * EventSource reconnects by itself after a drop and sends Last-Event-ID, so the service replays what was
 * missed. When the browser gives up (the stream closed for good) a new stream resumes with `?since=` the last
 * change seen. When the service says it cannot catch up (`ready` with `reset`), or the page was offline for
 * long, subscribers are told to read everything again (`resync`).
 */

/** What a live indicator shows. */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

/** A subscriber: batches of changes (those arriving within a few milliseconds come together) and full re-reads. */
export interface LiveListener<E> {
  changes?: (events: E[]) => void;
  resync?: () => void;
}

/** After this long without the stream, re-read everything rather than trust a replay. */
const LONG_OFFLINE_MS = 5 * 60_000;
/** Changes arriving within this window are handled as one batch. */
const BATCH_MS = 15;

/** The change stream at `url`: `event: ready` (`{seq, reset?}`), then one event named `eventName` per change, each `{seq, …}`. */
export class LiveStream<E extends { seq?: number }> {
  private source: EventSource | undefined;
  private listeners = new Set<LiveListener<E>>();
  private statusListeners = new Set<(status: LiveStatus) => void>();
  private pending: E[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryDelay = 1000;
  private lostAt: number | undefined;
  private everReady = false;
  /** The last change number seen (from `ready` and each change), where a new stream resumes. */
  private lastSeq: number | undefined;
  private closed = false;
  status: LiveStatus = 'connecting';

  constructor(
    private readonly url: string,
    private readonly eventName: string,
    /** Where to start: the change number of what the page read first (its list), so nothing after it is missed. */
    since?: number,
  ) {
    this.lastSeq = since;
    this.open();
  }

  /** Adds a subscriber; answers the function that removes it. */
  subscribe(listener: LiveListener<E>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Follows the connection status; answers the function that stops. */
  onStatus(listener: (status: LiveStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Closes the stream (the page left the project or organization). */
  close(): void {
    this.closed = true;
    clearTimeout(this.flushTimer);
    clearTimeout(this.retryTimer);
    this.source?.close();
    this.listeners.clear();
    this.statusListeners.clear();
  }

  private setStatus(status: LiveStatus): void {
    if (this.status === status) return;
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }

  private open(): void {
    const source = new EventSource(this.lastSeq === undefined ? this.url : `${this.url}?since=${this.lastSeq}`);
    this.source = source;
    source.addEventListener('ready', (message) => {
      let ready: { seq?: number; reset?: boolean } = {};
      try {
        ready = JSON.parse((message as MessageEvent<string>).data) as typeof ready;
      } catch {
        ready = {};
      }
      const offlineFor = this.lostAt === undefined ? 0 : Date.now() - this.lostAt;
      // The service could not replay everything missed (or the gap is long): read everything again.
      if (this.everReady && (ready.reset || offlineFor > LONG_OFFLINE_MS)) this.emitResync();
      if (this.lastSeq === undefined || ready.reset) this.lastSeq = ready.seq;
      this.everReady = true;
      this.lostAt = undefined;
      this.retryDelay = 1000;
      this.setStatus('live');
    });
    source.addEventListener(this.eventName, (message) => {
      try {
        const event = JSON.parse((message as MessageEvent<string>).data) as E;
        if (typeof event.seq === 'number') this.lastSeq = Math.max(this.lastSeq ?? 0, event.seq);
        this.queue(event);
      } catch {
        // A malformed event cannot be applied; the next full read repairs the page.
      }
    });
    // The service's way of saying it cannot replay what was missed.
    for (const name of ['resync', 'reset']) source.addEventListener(name, () => this.emitResync());
    source.onerror = () => {
      if (this.closed) return;
      this.lostAt ??= Date.now();
      this.setStatus('reconnecting');
      if (source.readyState === EventSource.CLOSED) {
        // The browser gave up (an error status or a wrong content type): open a new stream
        // that resumes after the last change seen (?since=, as Last-Event-ID would).
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.open(), this.retryDelay);
        this.retryDelay = Math.min(this.retryDelay * 2, 15_000);
      }
    };
  }

  private queue(event: E): void {
    this.pending.push(event);
    this.flushTimer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  private flush(): void {
    this.flushTimer = undefined;
    const events = this.pending;
    this.pending = [];
    for (const listener of [...this.listeners]) listener.changes?.(events);
  }

  private emitResync(): void {
    for (const listener of [...this.listeners]) listener.resync?.();
  }
}
