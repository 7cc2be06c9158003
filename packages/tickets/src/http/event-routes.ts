import { AppError, openSseStream, type App, type SseStream } from '@switchboard/core';
import { z } from 'zod';
import type { EventHub } from '../events/event-hub.ts';
import { eventBounds } from '../store/event-store.ts';
import { boardOf } from './caller.ts';
import { projectKeyParam } from './rest-routes.ts';

/** What the events route needs: the hub, a re-check of the caller's access, and the stream timings. */
export interface EventRouteOptions {
  hub: EventHub;
  /** Whether the caller of an open stream may still see the project (a revoked token, a signed-out session, a removed member). */
  stillAllowed(request: import('fastify').FastifyRequest): Promise<boolean>;
  /** How often an open stream re-checks its caller, in ms. */
  recheckMs: number;
  /** The heartbeat comment's interval, in ms. */
  heartbeatMs: number;
}

const SEQ = /^\d{1,15}$/;

/** The position a stream resumes after: the Last-Event-ID header (a browser's reconnect), else `?since=`. */
function resumeFrom(header: string | string[] | undefined, since: string | undefined): number | undefined {
  const raw = (Array.isArray(header) ? header[0] : header)?.trim() || since?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!SEQ.test(raw)) throw new AppError('invalid_request', `Last-Event-ID / since "${raw.slice(0, 40)}" is not an event number: pass the id of the last event received (an integer).`, { field: 'since' });
  return Number(raw);
}

/**
 * `GET /api/projects/{KEY}/events`: the project's changes as server-sent events (README, "Live updates").
 * Streams are closed when the app closes (preClose), so shutdown never waits for a browser.
 */
export function registerEventRoutes(app: App, options: EventRouteOptions): void {
  const open = new Set<SseStream>();
  const closeAll = () => {
    for (const stream of open) stream.close();
  };
  // An endless stream would hold a stop for its whole grace period: it closes as the stop begins, and the
  // browser reconnects (through the load balancer, to another instance) and resumes with Last-Event-ID.
  app.shutdown.onStop(closeAll);
  app.addHook('preClose', async () => closeAll());
  app.get(
    '/api/projects/:key/events',
    {
      config: { projectAccess: 'project' },
      schema: {
        tags: ['projects (web UI)'],
        summary: 'Live updates: the project\'s changes as server-sent events',
        description:
          'text/event-stream. First `event: ready` with `data: {"seq"}` (the latest event), then one `event: change` per event with `id: SEQ` and `data: {"seq","kind","action","key"?,"slug"?,"actor","at"}`, in order; a `: ping` comment every 15 s. Resume with the Last-Event-ID header or ?since=SEQ.',
        security: [{ session: [] }, { bearer: [] }],
        params: z.object({ key: projectKeyParam }),
        querystring: z.object({ since: z.string().optional().describe('Resume after this event number (Last-Event-ID wins).') }),
      },
      validatorCompiler: () => (data: unknown) => ({ value: data }),
    },
    async (request, reply) => {
      const ctx = boardOf(request);
      const since = resumeFrom(request.headers['last-event-id'], (request.query as { since?: string }).since);
      const bounds = await eventBounds(ctx.db, ctx.project.id);
      // A stream resumed from a position the project never reached (another database, a reset) starts from now.
      const start = since === undefined || since > bounds.latest ? bounds.latest : since;
      const reset = since !== undefined && since < bounds.latest && (bounds.oldest === undefined || bounds.oldest > since + 1);
      const stream = openSseStream(reply, { heartbeatMs: options.heartbeatMs });
      open.add(stream);
      // The ready message's id is where the stream continues: a browser that reconnects before any change resumes there.
      stream.send({ id: start, event: 'ready', data: reset ? { seq: bounds.latest, reset: true } : { seq: bounds.latest } });
      const unsubscribe = options.hub.subscribe(ctx.project.id, start, (events) => {
        for (const event of events) stream.send({ id: event.seq, event: 'change', data: event });
      });
      const recheck = setInterval(async () => {
        if (!(await options.stillAllowed(request).catch(() => true))) stream.close();
      }, options.recheckMs);
      recheck.unref();
      stream.onClose(() => {
        clearInterval(recheck);
        unsubscribe();
        open.delete(stream);
      });
    },
  );
}
