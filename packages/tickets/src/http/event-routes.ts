import { resumePosition, serveChangeStream, streamRegistry, type App } from '@switchboard/core';
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

/**
 * `GET /api/projects/{KEY}/events`: the project's changes as server-sent events (README, "Live updates").
 * Streams are closed when the app stops (core's streamRegistry), so shutdown never waits for a browser.
 */
export function registerEventRoutes(app: App, options: EventRouteOptions): void {
  const registry = streamRegistry(app);
  app.get(
    '/api/projects/:key/events',
    {
      config: { projectAccess: 'project' },
      schema: {
        tags: ['projects (web UI)'],
        summary: "Live updates: the project's changes as server-sent events",
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
      const since = resumePosition(request.headers['last-event-id'], (request.query as { since?: string }).since);
      const bounds = await eventBounds(ctx.db, ctx.project.id);
      // A stream resumed from a position the project never reached (another database, a reset) starts from now.
      const start = since === undefined || since > bounds.latest ? bounds.latest : since;
      const reset = since !== undefined && since < bounds.latest && (bounds.oldest === undefined || bounds.oldest > since + 1);
      serveChangeStream(reply, {
        hub: options.hub,
        registry,
        scope: ctx.project.id,
        start,
        ready: reset ? { seq: bounds.latest, reset: true } : { seq: bounds.latest },
        event: 'change',
        heartbeatMs: options.heartbeatMs,
        recheckMs: options.recheckMs,
        stillAllowed: () => options.stillAllowed(request),
      });
    },
  );
}
