import type { App } from '@switchboard/core';
import type { SecretStore } from '../store/secret-store.ts';
import { presentSecret } from './presenters.ts';
import { bearer, orgParams, secretBody, secretParams } from './schema.ts';

const tags = ['secrets'];

/**
 * Secrets under /api/llm/{org_code}/secrets (manage scope or a session):
 * set, list by name, delete. A value goes in and never comes out.
 */
export function registerSecretRoutes(app: App, secrets: SecretStore): void {
  app.get(
    '/api/llm/:org_code/secrets',
    { config: { scope: 'manage' }, schema: { tags, summary: 'List secrets: names and dates, never values', params: orgParams, security: bearer } },
    async (request) => ({ secrets: (await secrets.list(request.principal!.orgId)).map(presentSecret) }),
  );

  app.put(
    '/api/llm/:org_code/secrets/:name',
    {
      // secretBody: a malformed body is refused without quoting it (see error-handler.ts).
      config: { scope: 'manage', secretBody: true },
      schema: {
        tags,
        summary: 'Set or replace a secret',
        description:
          "Flows reference it as {{secrets.NAME}} in an HTTP tool's URL, headers or body, or an MCP tool's headers. The value is stored encrypted and never returned.",
        params: secretParams,
        body: secretBody,
        security: bearer,
      },
    },
    async (request) => ({ ...presentSecret(await secrets.set(request.principal!.orgId, request.params.name, request.body.value)), set: true }),
  );

  app.delete(
    '/api/llm/:org_code/secrets/:name',
    {
      config: { scope: 'manage' },
      schema: { tags, summary: 'Delete a secret (tool calls that reference it fail from then on)', params: secretParams, security: bearer },
    },
    async (request) => {
      await secrets.delete(request.principal!.orgId, request.params.name);
      return { deleted: true };
    },
  );
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** True on routes whose body holds a secret: errors about the body never quote it. */
    secretBody?: boolean;
  }
}
