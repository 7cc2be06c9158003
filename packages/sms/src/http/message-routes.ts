import type { App } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import { simSchema } from '../domain/message.ts';
import { validateListQuery } from '../domain/validation.ts';
import type { SmsContext } from './context.ts';
import { callerOf } from './caller.ts';
import { requireOrgKey } from './credentials.ts';
import { validationFailed } from './error-handler.ts';
import { handValidated } from './route-options.ts';
import { detailSchema, listQuerySchema, messagePageSchema, orgKeyParams, orgParams, validationErrorSchema } from './schema.ts';
import { z } from 'zod';

type Query = Record<string, string | string[] | undefined>;

/** GET /messages/{org_id}/{secret_key}, GET /messages/{org_id} and GET /sims/{org_id}/{secret_key}. */
export function registerMessageRoutes(app: App, context: SmsContext): void {
  // FastAPI validates parameters before the endpoint runs, so a 422 comes before a 401.
  const list = async (request: FastifyRequest, orgId: string, authenticate: () => Promise<unknown>) => {
    const query = validateListQuery(request.query as Query);
    if (!query.ok) throw validationFailed(query.issues);
    await authenticate();
    const page = await context.messages.listJson(orgId, query.value);
    // The messages arrive as JSON text from the database: only the envelope is written here.
    // Typed as the documented envelope: the route's serializer passes this text through unchanged.
    return `{"messages":${page.json},"count":${page.count},"next_since_id":${page.lastId},"has_more":${page.hasMore}}` as never;
  };
  const responses = { 200: messagePageSchema, 401: detailSchema, 422: validationErrorSchema };

  app.get(
    '/messages/:org_id/:secret_key',
    {
      ...handValidated,
      schema: {
        summary: 'List messages (secret key in the path)',
        description: 'Messages with id > since_id, ascending by id. Pass next_since_id back to see every message exactly once.',
        params: orgKeyParams,
        querystring: listQuerySchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const params = request.params as { org_id: string; secret_key: string };
      reply.type('application/json; charset=utf-8');
      return list(request, params.org_id, () => requireOrgKey(context.orgs, params.org_id, params.secret_key));
    },
  );

  app.get(
    '/messages/:org_id',
    {
      ...handValidated,
      schema: {
        summary: "List messages (secret key in Authorization: Bearer or X-Secret-Key, or a signed-in user's session cookie)",
        params: orgParams,
        querystring: listQuerySchema,
        response: responses,
      },
    },
    async (request, reply) => {
      reply.type('application/json; charset=utf-8');
      const orgId = (request.params as { org_id: string }).org_id;
      return list(request, orgId, () => callerOf(context, request, orgId));
    },
  );

  app.get(
    '/sims/:org_id/:secret_key',
    {
      ...handValidated,
      schema: {
        summary: 'List the SIMs the organization has seen',
        params: orgKeyParams,
        response: { 200: z.object({ sims: z.array(simSchema) }), 401: detailSchema, 422: validationErrorSchema },
      },
    },
    async (request) => {
      const params = request.params as { org_id: string; secret_key: string };
      await requireOrgKey(context.orgs, params.org_id, params.secret_key);
      return { sims: await context.orgs.listSims(params.org_id) };
    },
  );
}
