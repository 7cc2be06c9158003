import type { FastifyReply } from 'fastify';
import type { ChangeHub, NumberedChange } from './change-hub.ts';
import { AppError } from './errors.ts';
import type { App } from './http-server.ts';
import { openSseStream, type SseStream } from './sse-stream.ts';

const SEQ = /^\d{1,15}$/;

/**
 * The position a change stream resumes after: the Last-Event-ID header (a browser's reconnect), else
 * `?since=`; undefined for a new stream. Anything but an integer is a 400.
 */
export function resumePosition(header: string | string[] | undefined, since: string | undefined): number | undefined {
  const raw = (Array.isArray(header) ? header[0] : header)?.trim() || since?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!SEQ.test(raw))
    throw new AppError(
      'invalid_request',
      `Last-Event-ID / since "${raw.slice(0, 40)}" is not an event number: pass the id of the last event received (an integer).`,
      { field: 'since' },
    );
  return Number(raw);
}

/** The open streams of an app, closed as it stops. */
export interface StreamRegistry {
  add(stream: SseStream): void;
}

/**
 * Keeps an app's open streams and closes them when a stop begins (and before the app closes): an endless
 * stream would hold a stop for its whole grace period, so it closes at once and the browser reconnects
 * (through the load balancer, to another instance) and resumes with Last-Event-ID.
 */
export function streamRegistry(app: App): StreamRegistry {
  const open = new Set<SseStream>();
  const closeAll = () => {
    for (const stream of open) stream.close();
  };
  app.shutdown.onStop(closeAll);
  app.addHook('preClose', async () => closeAll());
  return {
    add(stream) {
      open.add(stream);
      stream.onClose(() => open.delete(stream));
    },
  };
}

/** What a change stream sends and how it watches its caller. */
export interface ChangeStreamOptions<E extends NumberedChange> {
  hub: ChangeHub<E>;
  registry: StreamRegistry;
  /** The scope (project, organization) whose changes are sent. */
  scope: string;
  /** The position the stream continues after: the `ready` event's id. */
  start: number;
  /** The `ready` event's data. */
  ready: unknown;
  /** The event name of each change (`change`, `messages`). */
  event: string;
  /** The heartbeat comment's interval, in ms. */
  heartbeatMs: number;
  /** How often the stream asks whether its caller may still see the scope (a revoked key, a signed-out session, a removed member), in ms. */
  recheckMs: number;
  stillAllowed(): Promise<boolean>;
}

/**
 * Takes over a reply as a stream of a scope's changes: `event: ready` (its id is where the stream continues,
 * so a browser that reconnects before any change resumes there), then one event per change with `id: SEQ`,
 * in order; closed when the caller may no longer see the scope, and when the app stops.
 */
export function serveChangeStream<E extends NumberedChange>(reply: FastifyReply, options: ChangeStreamOptions<E>): SseStream {
  const stream = openSseStream(reply, { heartbeatMs: options.heartbeatMs });
  options.registry.add(stream);
  stream.send({ id: options.start, event: 'ready', data: options.ready });
  const unsubscribe = options.hub.subscribe(options.scope, options.start, (changes) => {
    for (const change of changes) stream.send({ id: change.seq, event: options.event, data: change });
  });
  const recheck = setInterval(async () => {
    // A failed check (the database briefly away) keeps the stream: the next one decides.
    if (!(await options.stillAllowed().catch(() => true))) stream.close();
  }, options.recheckMs);
  recheck.unref();
  stream.onClose(() => {
    clearInterval(recheck);
    unsubscribe();
  });
  return stream;
}
