import type { App } from '@switchboard/core';
import { z } from 'zod';
import { FLOW_TEMPLATES } from '../domain/flow-templates.ts';
import type { Editor, FlowLifecycle } from '../flow-lifecycle.ts';
import type { Principal } from '../store/org-store.ts';
import { presentFlow } from './presenters.ts';
import { bearer, flowParams, orgParams } from './schema.ts';

/** The editor a request acts as: a session's user, or a token (by id: token names are not unique). */
export function editorOf(principal: Principal): Editor {
  return {
    org: { id: principal.orgId, providersVersion: principal.providersVersion },
    owner: principal.tokenId ? `token:${principal.tokenId}` : principal.actor,
    author: principal.actor,
  };
}

const draftBody = z.any().describe('{"definition": {...} (any flow definition, valid or not), "base_version"?: N (the version the edit started from)}');
const duplicateBody = z.object({ name: z.string().max(200).optional().describe('the new flow\'s name (default "NAME (copy)")') }).nullish();

/** Drafts (`/flows/{slug}/draft`), duplicates and the template catalogue (manage scope). */
export function registerLifecycleRoutes(app: App, deps: { lifecycle: FlowLifecycle }): void {
  const { lifecycle } = deps;
  const tags = ['flows'];
  const config = { scope: 'manage' as const };

  app.put(
    '/api/llm/:org_code/flows/:slug/draft',
    {
      config,
      schema: {
        tags,
        summary: 'Store your draft of a flow (valid or not) and list what Save would refuse in it',
        description:
          'Answers 200 {"saved_at", "problems": [{"node", "message"}]}: never 422, a draft may be invalid. One draft per flow and editor; saving a version clears it. Runs never use drafts.',
        params: flowParams,
        body: draftBody,
        security: bearer,
      },
    },
    async (request) => {
      const saved = await lifecycle.putDraft(editorOf(request.principal!), request.params.slug, request.body);
      return { saved_at: saved.savedAt, problems: saved.problems };
    },
  );

  app.get(
    '/api/llm/:org_code/flows/:slug/draft',
    {
      config,
      schema: {
        tags,
        summary: 'Your draft of a flow, with its problems now',
        description: '404 no_draft when you have none.',
        params: flowParams,
        security: bearer,
      },
    },
    async (request) => {
      const draft = await lifecycle.getDraft(editorOf(request.principal!), request.params.slug);
      return { saved_at: draft.savedAt, problems: draft.problems, base_version: draft.baseVersion, definition: draft.definition };
    },
  );

  app.delete(
    '/api/llm/:org_code/flows/:slug/draft',
    { config, schema: { tags, summary: 'Discard your draft of a flow', params: flowParams, security: bearer } },
    async (request, reply) => {
      await lifecycle.deleteDraft(editorOf(request.principal!), request.params.slug);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/llm/:org_code/flows/:slug/duplicate',
    {
      config,
      schema: {
        tags,
        summary: "Copy a flow's current version into a new flow (version 1, a slug of its own)",
        params: flowParams,
        body: duplicateBody,
        security: bearer,
      },
    },
    async (request, reply) => {
      const saved = await lifecycle.duplicate(editorOf(request.principal!), request.params.slug, request.body?.name);
      reply.status(201).header('etag', `"${saved.flow.version}"`);
      return presentFlow(saved.flow, saved);
    },
  );

  app.get(
    '/api/llm/:org_code/templates',
    {
      config,
      schema: {
        tags,
        summary: 'Flows to start from',
        description:
          'Create one with POST …/flows {"name"?, "template": ID, "bindings": {"provider", "model", "knowledge_base", "url"}} as its "needs" say; a "secret:NAME" need is a secret the organization must have set.',
        params: orgParams,
        security: bearer,
      },
    },
    async () => ({
      templates: FLOW_TEMPLATES.map((t) => ({ id: t.id, name: t.name, description: t.description, needs: t.needs, hints: t.hints, definition: t.definition })),
    }),
  );
}
