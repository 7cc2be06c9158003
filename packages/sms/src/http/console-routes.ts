import { resumePosition, serveChangeStream, streamRegistry, type App } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { validateConsoleQuery, validateReadBody } from '../domain/console-validation.ts';
import { changeBatchSchema, conversationPageSchema, conversationSchema, threadPageSchema } from '../domain/conversation.ts';
import { callerOf, stillAllowed } from './caller.ts';
import { consoleOrgParams, consoleQuerySchema, readBodySchema } from './console-schema.ts';
import type { SmsContext } from './context.ts';
import { validationFailed } from './error-handler.ts';
import { decodeBody } from './request-body.ts';
import { handValidated } from './route-options.ts';
import { detailSchema, validationErrorSchema } from './schema.ts';

type Query = Record<string, string | string[] | undefined>;

/** A stream resumed from further back than this many commits starts from now and tells the page to read everything again. */
const MAX_REPLAY = 5000;

/** Who may call the console's endpoints, as /openapi.json says it. */
export const CONSOLE_SECURITY: Array<Record<string, string[]>> = [{ session: [] }, { bearer: [] }, { secretKey: [] }];

const TAGS = ['console'];
const ERRORS = { 401: detailSchema, 403: detailSchema, 404: detailSchema, 422: validationErrorSchema };

function query(request: FastifyRequest) {
  const parsed = validateConsoleQuery(request.query as Query);
  if (!parsed.ok) throw validationFailed(parsed.issues);
  return parsed.value;
}

const params = (request: FastifyRequest) => request.params as { org_id: string; peer?: string };

/**
 * The console's reading endpoints (README, "Console API"): conversations with the caller's unread counts, a
 * conversation's thread, read marks, and the live stream. Each takes a secret key of the organization or a
 * signed-in user's session; parameters are checked first (422), then the caller (401, 403, 404).
 */
export function registerConsoleRoutes(app: App, context: SmsContext): void {
  const registry = streamRegistry(app);
  const peerParams = consoleOrgParams.extend({ peer: z.string().describe("the other party's number (URL-encoded: %2B for +)") });

  app.get(
    '/api/orgs/:org_id/conversations',
    {
      ...handValidated,
      schema: {
        tags: TAGS,
        summary: "Conversations, one per other party's number, the latest message first, with unread counts",
        description:
          "`unread` counts the conversation's inbound messages after the caller's read mark (a signed-in user's own, or the key's). Page on with ?before=next_before. With ?sim= or ?direction=, each conversation shows its latest matching message.",
        security: CONSOLE_SECURITY,
        params: consoleOrgParams,
        querystring: consoleQuerySchema,
        response: { 200: conversationPageSchema, ...ERRORS },
      },
    },
    async (request) => {
      const page = query(request);
      const caller = await callerOf(context, request, params(request).org_id);
      return context.conversations.list(caller.orgId, caller.reader, page, page);
    },
  );

  app.get(
    '/api/orgs/:org_id/conversations/:peer/messages',
    {
      ...handValidated,
      schema: {
        tags: TAGS,
        summary: "A conversation's messages: the latest page, ascending by id",
        description: 'Older pages with ?before=next_before_id. An unknown number is an empty thread.',
        security: CONSOLE_SECURITY,
        params: peerParams,
        querystring: consoleQuerySchema,
        response: { 200: threadPageSchema, ...ERRORS },
      },
    },
    async (request) => {
      const page = query(request);
      const caller = await callerOf(context, request, params(request).org_id);
      return context.conversations.thread(caller.orgId, params(request).peer!, page, page);
    },
  );

  app.post(
    '/api/orgs/:org_id/conversations/:peer/read',
    {
      ...handValidated,
      schema: {
        tags: TAGS,
        summary: 'Marks a conversation read up to a message (for the caller); never moves back',
        security: CONSOLE_SECURITY,
        params: peerParams,
        body: readBodySchema,
        response: { 200: conversationSchema, ...ERRORS },
      },
    },
    async (request) => {
      const body = validateReadBody(decodeBody(request.body, request.headers['content-type']));
      if (!body.ok) throw validationFailed(body.issues);
      const caller = await callerOf(context, request, params(request).org_id);
      return context.conversations.markRead(caller.orgId, caller.reader, params(request).peer!, body.value.upToId, new Date());
    },
  );

  app.get(
    '/api/orgs/:org_id/events',
    {
      ...handValidated,
      schema: {
        tags: TAGS,
        summary: "Live updates: the organization's new and changed messages as server-sent events",
        description:
          'text/event-stream. First `event: ready` with `data: {"seq"}` (the latest change), then one `event: messages` per commit with `id: SEQ` and `data: {"seq", "messages": [message records as they are now]}`: new messages and delivery states, in commit order, from every instance; a `: ping` comment every 15 s. Resume with the Last-Event-ID header or ?since=SEQ; `ready` says `"reset": true` when the gap is too long to replay (read the lists again).',
        security: CONSOLE_SECURITY,
        params: consoleOrgParams,
        querystring: z.object({ since: z.string().optional().describe('resume after this change number (Last-Event-ID wins)') }),
        response: { 200: changeBatchSchema.describe('the data of each `messages` event'), 401: detailSchema, 403: detailSchema, 404: detailSchema },
      },
    },
    async (request, reply) => {
      const caller = await callerOf(context, request, params(request).org_id);
      const since = resumePosition(request.headers['last-event-id'], (request.query as { since?: string }).since);
      const latest = (await context.conversations.latestChange(caller.orgId)) ?? 0;
      // From now: a new stream, one resumed from a position the organization never reached (another database),
      // or from further back than a replay should carry (the page reads its lists again instead).
      const reset = since !== undefined && since < latest - MAX_REPLAY;
      const start = since === undefined || since > latest || reset ? latest : since;
      serveChangeStream(reply, {
        hub: context.hub,
        registry,
        scope: caller.orgId,
        start,
        ready: reset ? { seq: latest, reset: true } : { seq: latest },
        event: 'messages',
        heartbeatMs: context.config.events.heartbeatMs,
        recheckMs: context.config.events.recheckMs,
        stillAllowed: () => stillAllowed(context, request, caller),
      });
    },
  );
}
