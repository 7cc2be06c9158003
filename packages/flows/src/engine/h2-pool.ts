import http2, { type ClientHttp2Session } from 'node:http2';
import { isIP } from 'node:net';
import tls, { type TLSSocket } from 'node:tls';
import { headerPairs, settleAnswer, unreachableOr, type ProviderCall } from './provider-response.ts';

/** Streams assumed per session until the server's SETTINGS say otherwise (HTTP/2's recommended minimum, and Node's default). */
const DEFAULT_STREAMS = 100;
/** At most this many calls share one session even when the server allows more: a lost connection fails no more than these. */
const MAX_STREAMS = 1000;
/** A session without a stream this long is closed. */
const IDLE_MS = 60_000;
/** An origin that answered ALPN without `h2` is called over HTTP/1.1 this long before it is asked again. */
const HTTP1_MS = 10 * 60_000;
// HTTP/2 forbids connection-specific headers; `host` becomes `:authority`.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host', 'te']);
const { NGHTTP2_CANCEL, NGHTTP2_NO_ERROR } = http2.constants;

/** Options of an HTTP/2 session pool. */
export interface H2PoolOptions {
  /** Certificate authorities trusted instead of Node's (a test's self-signed certificate). */
  ca?: string | Buffer;
  /** A session without a stream this long is closed (default 60 s). */
  idleMs?: number;
  /** An origin that answered without `h2` is called over HTTP/1.1 this long before it is asked again (default 10 minutes). */
  http1Ms?: number;
}

interface Session {
  state: 'connecting' | 'ready' | 'gone';
  socket: TLSSocket;
  h2?: ClientHttp2Session;
  /** Streams the server allows at once (capped at MAX_STREAMS). */
  capacity: number;
  /** Calls given this session and not yet closed. */
  active: number;
  idle?: NodeJS.Timeout;
}

interface Waiter {
  resolve(session: Session | null): void;
  reject(error: Error): void;
}

interface Origin {
  url: URL;
  sessions: Set<Session>;
  /** Calls waiting for a stream slot, in arrival order. */
  queue: Waiter[];
  /** Streams per session as the last SETTINGS said; undefined until the first session is ready. */
  known?: number;
  /** Until when the origin is called over HTTP/1.1 (its ALPN answer had no `h2`). */
  http1Until: number;
}

/**
 * HTTP/2 client sessions per origin, shared by the calls to it: a call takes
 * a free stream slot (the server's SETTINGS_MAX_CONCURRENT_STREAMS) on an open
 * session and another session opens only when all are full. An origin's first
 * connection is its probe: TLS with ALPN `h2, http/1.1`, and the calls wait
 * for its SETTINGS; an origin that picks HTTP/1.1 is left to the https agent.
 */
export class H2Pool {
  private readonly origins = new Map<string, Origin>();

  constructor(private readonly options: H2PoolOptions = {}) {}

  /**
   * Sends a call over HTTP/2 and settles with its answer, or with null when
   * the origin speaks only HTTP/1.1 (the caller sends it another way).
   */
  async request(url: URL, call: ProviderCall): Promise<Response | null> {
    const { signal, headers, body } = call;
    const origin = this.origin(url);
    if (origin.http1Until > Date.now()) return null;
    // A free slot is taken at once when no call waits for one: no promise, waiter or abort listener per call.
    const free = origin.queue.length === 0 ? freeSession(origin) : undefined;
    let session: Session | null;
    if (free) {
      this.use(free);
      session = free;
    } else {
      try {
        session = await this.acquire(origin, signal);
      } catch (error) {
        throw signal?.aborted ? error : unreachableOr(error as Error, url);
      }
    }
    if (!session?.h2) return null;
    if (signal?.aborted) {
      this.release(url.origin, session);
      throw signal.reason;
    }
    // The call's headers and body are read here, outside the closures below, which a streamed answer keeps for
    // as long as it streams: V8 would keep in their context every variable one of them reads.
    const outgoing: http2.OutgoingHttpHeaders = { ':method': call.method, ':path': `${url.pathname}${url.search}`, ':authority': headers.host ?? url.host };
    for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) outgoing[name] = value;
    if (body) outgoing['content-length'] = String(Buffer.byteLength(body));
    let stream: http2.ClientHttp2Stream;
    try {
      stream = session.h2.request(outgoing, { endStream: !body });
    } catch (error) {
      this.release(url.origin, session);
      throw error;
    }
    const answer = this.answerOf(stream, url, { method: call.method, rawEventStream: call.rawEventStream }, signal, session);
    if (body) stream.end(body);
    return answer;
  }

  /** The answer to a call sent on `stream`, which gives its session's slot back when it closes. */
  private answerOf(
    stream: http2.ClientHttp2Stream,
    { origin, href }: URL,
    call: Pick<ProviderCall, 'method' | 'rawEventStream'>,
    signal: AbortSignal | undefined,
    session: Session,
  ): Promise<Response> {
    // The URL's strings (origin, href) rather than the URL and its parsed parts: a streamed answer keeps these closures.
    return new Promise<Response>((resolve, reject) => {
      let answered = false;
      let ended = false;
      const onAbort = () => {
        // Only this stream is cancelled (RST_STREAM CANCEL); the session goes on carrying the others.
        stream.close(NGHTTP2_CANCEL);
        stream.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      stream.on('end', () => (ended = true));
      stream.on('close', () => {
        signal?.removeEventListener('abort', onAbort);
        this.release(origin, session);
        if (!answered) reject(new Error(`the provider closed the HTTP/2 stream before answering (code ${stream.rstCode})`));
      });
      stream.on('error', (error) => {
        if (!answered) reject(signal?.aborted ? error : unreachableOr(error, new URL(href)));
      });
      stream.on('response', (responseHeaders) => {
        answered = true;
        const init = { status: Number(responseHeaders[':status'] ?? 500), headers: headerPairs(responseHeaders) };
        // Complete only when the provider ended the stream and nothing reset it: a lost connection ends its streams too.
        const complete = () => ended && stream.rstCode === NGHTTP2_NO_ERROR;
        settleAnswer({ init, body: stream, complete, cancel: () => stream.close(NGHTTP2_CANCEL) }, call, resolve, reject);
      });
    });
  }

  /** Closes every session (the tests' and a shutdown's end). */
  close(): void {
    for (const origin of this.origins.values()) for (const session of origin.sessions) this.drop(origin, session, true);
  }

  private origin(url: URL): Origin {
    const known = this.origins.get(url.origin);
    if (known) return known;
    const origin: Origin = { url: new URL(url.origin), sessions: new Set(), queue: [], http1Until: 0 };
    this.origins.set(url.origin, origin);
    return origin;
  }

  /** A session with a free stream slot for a call to `origin` once one is free, or null when the origin speaks only HTTP/1.1. */
  private acquire(origin: Origin, signal: AbortSignal | undefined): Promise<Session | null> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Session | null>((resolve, reject) => {
      const onAbort = () => {
        const at = origin.queue.indexOf(waiter);
        if (at >= 0) origin.queue.splice(at, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        resolve: (session) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(session);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      origin.queue.push(waiter);
      this.pump(origin);
    });
  }

  /** Gives waiting calls the free slots of ready sessions, and opens as many sessions as the rest need. */
  private pump(origin: Origin): void {
    while (origin.queue.length > 0) {
      const free = freeSession(origin);
      if (!free) break;
      this.use(free);
      origin.queue.shift()!.resolve(free);
    }
    let connecting = 0;
    for (const session of origin.sessions) if (session.state === 'connecting') connecting += 1;
    // Until the first session's SETTINGS arrive, one connection at a time: it is the origin's ALPN probe too.
    const wanted = origin.known === undefined ? Math.min(1, origin.queue.length) - connecting : Math.ceil(origin.queue.length / origin.known) - connecting;
    for (let i = 0; i < wanted; i++) this.open(origin);
  }

  private open(origin: Origin): void {
    const { url } = origin;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket = tls.connect({
      host,
      port: Number(url.port || 443),
      servername: isIP(host) ? undefined : host,
      ALPNProtocols: ['h2', 'http/1.1'],
      ...(this.options.ca ? { ca: this.options.ca } : {}),
    });
    const session: Session = { state: 'connecting', socket, capacity: origin.known ?? DEFAULT_STREAMS, active: 0 };
    origin.sessions.add(session);
    const failed = (error: Error) => {
      socket.destroy();
      if (session.state === 'gone') return;
      this.drop(origin, session);
      // The calls this session was opened for fail with its error; the sessions still connecting keep theirs.
      const keep = [...origin.sessions].filter((s) => s.state === 'connecting').length * (origin.known ?? DEFAULT_STREAMS);
      for (const waiter of origin.queue.splice(keep)) waiter.reject(error);
    };
    socket.once('error', failed);
    socket.once('secureConnect', () => {
      socket.off('error', failed);
      if (socket.alpnProtocol !== 'h2') {
        // HTTP/1.1 only: this connection is closed and the calls go through the https agent (probed again in 10 minutes).
        socket.destroy();
        origin.http1Until = Date.now() + (this.options.http1Ms ?? HTTP1_MS);
        this.drop(origin, session);
        for (const waiter of origin.queue.splice(0)) waiter.resolve(null);
        return;
      }
      socket.setNoDelay(true);
      const h2 = http2.connect(url.origin, { createConnection: () => socket, maxSessionMemory: 64 });
      session.h2 = h2;
      h2.on('remoteSettings', (settings) => {
        if (session.state === 'gone') return;
        session.capacity = Math.min(settings.maxConcurrentStreams ?? DEFAULT_STREAMS, MAX_STREAMS);
        origin.known = session.capacity;
        if (session.state === 'connecting') {
          session.state = 'ready';
          if (session.active === 0) this.idle(origin, session);
        }
        this.pump(origin);
      });
      // A session that is going away takes no new calls; those in flight finish or fail on their own.
      const gone = () => {
        if (session.state === 'connecting') failed(new Error('the provider closed the HTTP/2 connection before its settings'));
        else if (session.state === 'ready') {
          this.drop(origin, session);
          this.pump(origin);
        }
      };
      h2.on('goaway', gone);
      h2.on('close', gone);
      h2.on('error', gone);
    });
  }

  /** Counts a call on `session`, which then stays open and keeps the process alive. */
  private use(session: Session): void {
    session.active += 1;
    if (session.idle) clearTimeout(session.idle);
    session.idle = undefined;
    session.h2?.ref();
  }

  private release(key: string, session: Session): void {
    session.active -= 1;
    const origin = this.origins.get(key);
    if (!origin || session.state !== 'ready') return;
    if (session.active === 0) this.idle(origin, session);
    if (origin.queue.length > 0) this.pump(origin);
  }

  /** An idle session does not keep the process alive, and closes after IDLE_MS without a call. */
  private idle(origin: Origin, session: Session): void {
    session.h2?.unref();
    session.idle = setTimeout(() => this.drop(origin, session, true), this.options.idleMs ?? IDLE_MS);
    session.idle.unref();
  }

  private drop(origin: Origin, session: Session, close = false): void {
    if (session.idle) clearTimeout(session.idle);
    session.state = 'gone';
    origin.sessions.delete(session);
    if (!close) return;
    if (session.h2) session.h2.close();
    else session.socket.destroy();
  }
}

/** A ready session of `origin` with a free stream slot, if there is one. */
function freeSession(origin: Origin): Session | undefined {
  for (const session of origin.sessions) {
    // A session that has received GOAWAY but whose event has not run yet takes no new streams either.
    if (session.state === 'ready' && session.active < session.capacity && !session.h2?.closed && !session.h2?.destroyed) return session;
  }
  return undefined;
}
