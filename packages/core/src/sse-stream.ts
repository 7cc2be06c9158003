import type { FastifyReply } from 'fastify';

/** One server-sent event: `id:`, `event:` and the `data:` JSON. */
export interface SseEvent {
  id?: string | number;
  event?: string;
  data: unknown;
}

/** An open text/event-stream response. */
export interface SseStream {
  /** Writes an event; false once the stream is closed. */
  send(event: SseEvent): boolean;
  /** True after the client went away or close() was called. */
  readonly closed: boolean;
  /** Runs `listener` once when the stream closes, whoever closed it. */
  onClose(listener: () => void): void;
  /** Ends the response (the client's EventSource reconnects unless it was closed on purpose). */
  close(): void;
}

/** Options of openSseStream. */
export interface SseOptions {
  /** A comment line (`: ping`) this often keeps proxies and load balancers from dropping an idle stream (ms). */
  heartbeatMs?: number;
  /** The reconnection delay sent to the browser (`retry:`), in ms. */
  retryMs?: number;
  /** Most bytes a slow reader may leave unread before the stream is dropped (it reconnects and catches up). */
  maxBufferedBytes?: number;
}

/** Headers of an event stream that no proxy buffers or caches. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
} as const;

/** The wire form of one event: each line of the JSON data on its own `data:` line (JSON.stringify writes none). */
export function formatSseEvent(event: SseEvent): string {
  let text = '';
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  return `${text}data: ${JSON.stringify(event.data)}\n\n`;
}

/**
 * Takes over a Fastify reply as a server-sent events stream: the headers
 * above, `retry:`, a heartbeat comment, and clean-up when the client goes
 * away. The reply is hijacked, so Fastify's hooks no longer run for it.
 */
export function openSseStream(reply: FastifyReply, options: SseOptions = {}): SseStream {
  const { heartbeatMs = 15_000, retryMs = 1000, maxBufferedBytes = 4 * 1024 * 1024 } = options;
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, { ...SSE_HEADERS, ...(reply.getHeaders() as Record<string, string>) });
  raw.write(`retry: ${retryMs}\n\n`);
  const listeners: Array<() => void> = [];
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    for (const listener of listeners.splice(0)) listener();
  };
  const write = (text: string): boolean => {
    if (closed) return false;
    raw.write(text);
    // A reader that stopped reading: drop it rather than buffer without bound; on reconnect it catches up.
    if (raw.writableLength > maxBufferedBytes) stream.close();
    return !closed;
  };
  const heartbeat = setInterval(() => write(': ping\n\n'), heartbeatMs);
  heartbeat.unref();
  // The response's close, not the request's: a GET's request stream closes as soon as it was read.
  raw.on('close', finish);
  raw.on('error', finish);
  const stream: SseStream = {
    send: (event) => write(formatSseEvent(event)),
    get closed() {
      return closed;
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
    close() {
      if (closed) return;
      finish();
      raw.end();
    },
  };
  return stream;
}
