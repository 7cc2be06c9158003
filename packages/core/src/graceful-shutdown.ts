import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyTypeProvider } from 'fastify';

/**
 * A service's stop, in the order a load balancer needs it (docs/deploy.md,
 * "Stopping an instance"): `/health` answers 503 and the listening socket
 * closes at once, so no new connection arrives; what is in flight (requests,
 * flow runs streaming their answer) gets up to SHUTDOWN_GRACE_MS to finish;
 * what is still going then is told to end (a stream ends with an error event),
 * and the app closes.
 */
export interface Shutdown {
  /** True from the moment the stop began: `/health` answers 503 and new work is refused. */
  readonly stopping: boolean;
  /**
   * Runs `listener` when the stop begins, before the grace period: close endless streams (their clients
   * reconnect to another instance and resume), stop workers claiming. Awaited within the grace period.
   */
  onStop(listener: () => void | Promise<void>): void;
  /** Runs `listener` when the grace period ends with work still in flight: abort it so that it ends with an error. */
  onGraceEnd(listener: () => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The stop of this app (graceful-shutdown.ts). */
    shutdown: Shutdown;
  }
}

/** Requests in flight on an app's HTTP server, hijacked streams included (they end with their response). */
interface InFlight {
  count: number;
  /** Resolves the next time count drops to 0. */
  drained(): Promise<void>;
}

// An HTTP/1 app, whatever its logger and type provider: the functions below are generic over both.
type AnyApp<L extends FastifyBaseLogger, P extends FastifyTypeProvider> = FastifyInstance<Server, IncomingMessage, ServerResponse, L, P>;

// Keyed by the app itself.
const inFlight = new WeakMap<object, InFlight>();
const stops = new WeakMap<object, { stopping: boolean; stop: Array<() => void | Promise<void>>; graceEnd: Array<() => void> }>();

/**
 * Adds `app.shutdown` and counts the requests in flight. While stopping,
 * every answer carries `Connection: close`, so a client (or a proxy's
 * keep-alive pool) sends its next request elsewhere.
 */
export function installShutdown<L extends FastifyBaseLogger, P extends FastifyTypeProvider>(app: AnyApp<L, P>): void {
  const state = { stopping: false, stop: [] as Array<() => void | Promise<void>>, graceEnd: [] as Array<() => void> };
  stops.set(app, state);
  const shutdown: Shutdown = {
    get stopping() {
      return state.stopping;
    },
    onStop: (listener) => void state.stop.push(listener),
    onGraceEnd: (listener) => void state.graceEnd.push(listener),
  };
  app.decorate('shutdown', shutdown);
  let waiters: Array<() => void> = [];
  const counter: InFlight = {
    count: 0,
    drained: () => (counter.count === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
  };
  inFlight.set(app, counter);
  // The server exists once Fastify is built; requests are counted from the raw server, so a hijacked reply
  // (a stream) counts until its response closes.
  // One shared listener function, not a closure per request: this runs on every request of every service.
  const ended = () => {
    counter.count -= 1;
    if (counter.count === 0 && waiters.length > 0) {
      const ready = waiters;
      waiters = [];
      for (const resolve of ready) resolve();
    }
  };
  (app.server as Server).on('request', (_request: IncomingMessage, response: ServerResponse) => {
    counter.count += 1;
    if (state.stopping) response.setHeader('connection', 'close');
    response.once('close', ended);
  });
}

/** What a graceful stop did, for the log line. */
export interface StopReport {
  /** Requests (streams included) still in flight when the grace period ended. */
  cutShort: number;
  ms: number;
}

/**
 * Stops an app gracefully: see Shutdown. Resolves once the app is closed;
 * never rejects for a listener's failure.
 */
export async function stopGracefully<L extends FastifyBaseLogger, P extends FastifyTypeProvider>(app: AnyApp<L, P>, graceMs: number): Promise<StopReport> {
  const started = Date.now();
  const state = stops.get(app);
  const counter = inFlight.get(app);
  if (!state || !counter) {
    await app.close();
    return { cutShort: 0, ms: Date.now() - started };
  }
  state.stopping = true;
  // No new connections; idle keep-alive connections are closed by Node, busy ones after their response.
  if (app.server.listening) app.server.close();
  app.server.closeIdleConnections();
  const deadline = started + graceMs;
  const remaining = () => Math.max(0, deadline - Date.now());
  const within = <T>(promise: Promise<T>) => Promise.race([promise, new Promise<void>((resolve) => setTimeout(resolve, remaining()).unref())]);
  await within(Promise.allSettled(state.stop.map(async (listener) => listener())));
  await within(counter.drained());
  const cutShort = counter.count;
  if (cutShort > 0) {
    for (const listener of state.graceEnd) {
      try {
        listener();
      } catch {
        // Closing goes on: the app closes every connection next.
      }
    }
    // The aborted work writes its error event and ends; a moment for that before connections are closed.
    await Promise.race([counter.drained(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  }
  await app.close();
  return { cutShort, ms: Date.now() - started };
}

/**
 * What a service's main returns to runMain: SIGTERM stops the app gracefully
 * (within `graceMs`, then a few seconds to close) and logs how it went.
 */
export function gracefulStop<L extends FastifyBaseLogger, P extends FastifyTypeProvider>(
  app: AnyApp<L, P>,
  graceMs: number,
): { close(): Promise<void>; closeTimeoutMs: number } {
  return {
    closeTimeoutMs: graceMs + 5_000,
    async close() {
      const report = await stopGracefully(app, graceMs);
      app.log.info(
        { cut_short: report.cutShort, ms: report.ms },
        report.cutShort ? 'stopped; work still in flight after the grace period was ended' : 'stopped',
      );
    },
  };
}
