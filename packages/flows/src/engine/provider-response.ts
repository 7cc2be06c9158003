import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

// Socket errors that mean no answer could come: nothing listens, no such host, no route.
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
};

/**
 * A provider call that never reached the provider: it says so and where it
 * was sent (without a query string), instead of a socket error that reads as
 * if the provider had answered.
 */
export class ProviderUnreachable extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`Provider could not be reached at ${url} (${reason})`, options);
    this.name = 'ProviderUnreachable';
  }
}

/** `error` as a ProviderUnreachable when it is a socket error before any answer from `url`, else unchanged. */
export function unreachableOr(error: Error, url: URL): Error {
  const reason = UNREACHABLE[(error as NodeJS.ErrnoException).code ?? ''];
  return reason ? new ProviderUnreachable(`${url.origin}${url.pathname}`, reason, { cause: error }) : error;
}

/** A provider's answer as it starts to arrive, over HTTP/1.1 (an IncomingMessage) or HTTP/2 (a stream). */
export interface ProviderAnswer {
  init: { status: number; statusText?: string; headers: Array<[string, string]> };
  body: Readable;
  /**
   * Whether the whole body arrived (false when the connection or stream closed early), asked once the body has
   * closed: a lost HTTP/2 connection still ends each of its streams' bodies (`end`), then closes them reset.
   */
  complete(): boolean;
  /** Stops the body when its reader cancels. */
  cancel(): void;
}

const EARLY_CLOSE = 'the provider closed the connection before the end of its answer';

/**
 * A node:http or node:http2 answer's headers as a Response takes them: name and value pairs, a repeated header
 * once per value, pseudo-headers (`:status`) left out. Pairs rather than a Headers: the Response builds its own
 * from them, and a second Headers per call would be built, sorted and kept as long as the answer streams.
 */
export function headerPairs(headers: IncomingHttpHeaders): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) pairs.push([name, item]);
    else pairs.push([name, String(value)]);
  }
  return pairs;
}

/** A provider call as the transports send it. */
export interface ProviderCall {
  method: string;
  signal: AbortSignal | undefined;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string | undefined;
  /** A 2xx event stream's Response comes without a body, its text read with eventStreamText. */
  rawEventStream: boolean;
}

/**
 * Settles a provider call with its answer: no body for 204/304/HEAD, an event
 * stream passed through chunk by chunk (or read without a web stream, for a
 * rawEventStream call), any other body read whole.
 */
export function settleAnswer(
  answer: ProviderAnswer,
  call: Pick<ProviderCall, 'method' | 'rawEventStream'>,
  resolve: (response: Response) => void,
  reject: (error: Error) => void,
): void {
  const { init, body: source } = answer;
  if (init.status === 204 || init.status === 304 || call.method === 'HEAD') {
    source.resume();
    resolve(new Response(null, init));
  } else if (init.headers.some(([name, value]) => name === 'content-type' && value.includes('text/event-stream'))) {
    if (call.rawEventStream && init.status >= 200 && init.status < 300) {
      const response = new Response(null, init);
      rawEventStreams.set(response, new EventStreamText(answer));
      resolve(response);
    } else {
      resolve(new Response(eventStreamBody(source, answer.complete, answer.cancel), init));
    }
  } else {
    readWhole(answer, resolve, reject);
  }
}

/** The text of the event streams answered to rawEventStream calls, by their Response (which has no body). */
const rawEventStreams = new WeakMap<Response, EventStreamText>();

/** The text of an event stream answered to a rawEventStream call; undefined for any other Response (read its body). */
export function eventStreamText(response: Response): EventStreamText | undefined {
  return rawEventStreams.get(response);
}

/**
 * An event stream's text as it arrives, read from the node stream without a
 * web stream in between: a held stream's answer kept a ReadableStream, its
 * controller, a reader, a TextDecoder and the Response's body for its life, and
 * each token crossed them. Read as a ReadableStream's reader reads: chunks in
 * order, null at the end, the stream's error (EARLY_CLOSE when it closed short)
 * after the chunks before it. Listens from the moment the answer arrives, so an
 * error before the first read is kept, not thrown.
 */
export class EventStreamText {
  private chunks: string[] = [];
  private state: 'open' | 'ended' | Error = 'open';
  private waiting: { resolve(text: string | null): void; reject(error: Error): void } | undefined;
  private first = true;
  /** The first bytes of a character split across chunks, until the next chunk completes it. */
  private partial: Buffer | undefined;

  constructor(private readonly answer: ProviderAnswer) {
    const source = answer.body;
    // Decoded here rather than by setEncoding: a string decoder is an object and a buffer of its own per stream.
    source.on('data', (chunk: Buffer) => {
      const text = this.decode(chunk);
      if (text !== '') this.push(text);
    });
    // The end is judged at `close`, not `end`: only then does an HTTP/2 stream say whether it was reset.
    source.on('error', (error) => this.settle(error));
    source.on('close', () => this.settle(answer.complete() ? 'ended' : new Error(EARLY_CLOSE)));
  }

  /** The text that arrived since the last read (waiting for some), or null at the end; rejects with the stream's error. */
  read(): Promise<string | null> {
    if (this.chunks.length > 0) {
      const text = this.chunks.length === 1 ? this.chunks[0] : this.chunks.join('');
      this.chunks = [];
      return Promise.resolve(text);
    }
    if (this.state === 'ended') return Promise.resolve(null);
    if (this.state !== 'open') return Promise.reject(this.state);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** Stops reading; an answer not `finished` (no `[DONE]`) is cancelled, as a web stream's reader cancels its body. */
  close(finished: boolean): void {
    if (this.state !== 'open') return;
    this.state = 'ended';
    this.chunks = [];
    if (!finished) this.answer.cancel();
  }

  /** A chunk's text, a character split across chunks kept whole as TextDecoder's stream mode keeps it. */
  private decode(chunk: Buffer): string {
    let bytes = this.partial ? Buffer.concat([this.partial, chunk]) : chunk;
    this.partial = undefined;
    const cut = splitCharacter(bytes);
    if (cut > 0) {
      this.partial = Buffer.from(bytes.subarray(bytes.length - cut));
      bytes = bytes.subarray(0, bytes.length - cut);
    }
    return bytes.toString('utf8');
  }

  private push(text: string): void {
    if (this.state !== 'open') return;
    // TextDecoder dropped a byte order mark at the start; Buffer's decoding keeps it, and the parser would not.
    if (this.first) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text === '') return;
    }
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting.resolve(text);
    else this.chunks.push(text);
  }

  private settle(end: 'ended' | Error): void {
    if (this.state !== 'open') return;
    this.state = end;
    const waiting = this.waiting;
    this.waiting = undefined;
    if (!waiting) return;
    if (end === 'ended') waiting.resolve(null);
    else waiting.reject(end);
  }
}

/**
 * An event stream's body: each chunk is enqueued the moment it is read (Readable.toWeb adds a scheduling hop per
 * chunk; token streams are small, so no backpressure is needed). Its own function: its closures live as long as
 * the answer streams, and keep only what they read (not the answer's headers).
 */
function eventStreamBody(source: Readable, complete: () => boolean, cancel: () => void): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const finish = (error?: Error) => {
        if (!open) return;
        open = false;
        if (error) controller.error(error);
        else controller.close();
      };
      source.on('data', (chunk: Buffer) => {
        if (open) controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      });
      // Closed at `close`, not `end` (see ProviderAnswer.complete).
      source.on('error', (error) => finish(error));
      source.on('close', () => finish(complete() ? undefined : new Error(EARLY_CLOSE)));
    },
    cancel() {
      open = false;
      cancel();
    },
  });
}

/** A whole answer, read with node streams: cheaper than a web stream the SDK reads to the end anyway. */
function readWhole(answer: ProviderAnswer, resolve: (response: Response) => void, reject: (error: Error) => void): void {
  const { init, body: source } = answer;
  const chunks: Buffer[] = [];
  source.on('data', (chunk: Buffer) => chunks.push(chunk));
  source.on('error', reject);
  // Settled at `close`, not `end` (see ProviderAnswer.complete): a body cut short is refused, not parsed.
  source.on('close', () => {
    if (answer.complete()) resolve(new Response(Buffer.concat(chunks), init));
    else reject(new Error(EARLY_CLOSE));
  });
}

/** How many bytes at the end of `bytes` begin a UTF-8 character that the next chunk completes (0 when none). */
function splitCharacter(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    // Continuation bytes (10xxxxxx) lead back to the character's first byte, which says how long it is.
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}
