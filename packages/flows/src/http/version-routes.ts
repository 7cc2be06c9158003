import type { App } from '@switchboard/core';
import type { FlowAdmin } from '../flow-admin.ts';
import { baseVersionOf, ifMatchVersion } from '../domain/save-request.ts';
import { presentFlow, presentVersion, presentVersionSummary } from './presenters.ts';
import { editorOf } from './lifecycle-routes.ts';
import { bearer, flowParams, restoreBody, versionParams } from './schema.ts';

/** Dependencies of the version routes. */
export interface VersionDeps {
  admin: FlowAdmin;
}

/** A flow's version history: list, read one, restore one as the newest (manage scope). */
export function registerVersionRoutes(app: App, deps: VersionDeps): void {
  const tags = ['flows'];
  const config = { scope: 'manage' as const };

  app.get(
    '/api/llm/:org_code/flows/:slug/versions',
    { config, schema: { tags, summary: "A flow's versions, newest first, with author and note", params: flowParams, security: bearer } },
    async (request) => {
      const principal = request.principal!;
      return { versions: (await deps.admin.versions(principal.orgId, request.params.slug)).map(presentVersionSummary) };
    },
  );

  app.get(
    '/api/llm/:org_code/flows/:slug/versions/:version',
    { config, schema: { tags, summary: 'One version of a flow with its definition', params: versionParams, security: bearer } },
    async (request) => {
      const principal = request.principal!;
      return presentVersion(await deps.admin.version(principal.orgId, request.params.slug, request.params.version));
    },
  );

  app.post(
    '/api/llm/:org_code/flows/:slug/versions/:version/restore',
    {
      config,
      // A route declaration: its schema is shaped like PUT …/flows/{slug}'s, with its own params and body.
      schema: {
        tags,
        summary: "Save a version's definition again as the flow's newest version",
        description:
          'Answers like PUT …/flows/{slug}. With "base_version" (or If-Match: "N"), refused with 409 version_conflict unless N is still the latest version.',
        params: versionParams,
        body: restoreBody,
        security: bearer,
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const note = request.body?.note;
      const saved = await deps.admin.restore(
        { id: principal.orgId, providersVersion: principal.providersVersion },
        request.params.slug,
        request.params.version,
        {
          author: principal.actor,
          draftOwner: editorOf(principal).owner,
          note: note === '' ? undefined : note,
          baseVersion: baseVersionOf(request.body?.base_version, ifMatchVersion(request.headers['if-match'])),
        },
      );
      reply.header('etag', `"${saved.flow.version}"`);
      return presentFlow(saved.flow, saved);
    },
  );
}
