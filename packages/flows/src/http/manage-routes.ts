import { AppError, baseUrlOf, type App } from '@switchboard/core';
import type { FlowAdmin } from '../flow-admin.ts';
import { inputJsonSchema } from '../domain/input-variables.ts';
import { buildSnippets } from '../domain/snippets.ts';
import { compileFlow } from '../domain/compiled-flow.ts';
import type { FlowStore } from '../store/flow-store.ts';
import type { OrgStore } from '../store/org-store.ts';
import type { RunRecorder, RunStore } from '../store/run-store.ts';
import { ifMatchVersion } from '../domain/save-request.ts';
import { parseRunsBefore } from '../domain/run-cursor.ts';
import { presentFlow, presentFlowListItem, presentRun, presentToken } from './presenters.ts';
import {
  bearer,
  definitionBody,
  flowParams,
  modelsQuery,
  orgParams,
  providerBody,
  providerParams,
  runParams,
  runsQuery,
  tokenBody,
  tokenParams,
} from './schema.ts';
import { registerVersionRoutes } from './version-routes.ts';
import { registerStatsRoutes } from './stats-routes.ts';
import { editorOf, registerLifecycleRoutes } from './lifecycle-routes.ts';
import { isTemplateRequest } from '../domain/template-bindings.ts';
import type { FlowLifecycle } from '../flow-lifecycle.ts';
import type { ModelCatalogue } from '../engine/model-catalogue.ts';

const DAY_MS = 86_400_000;

/** Dependencies of the management API. */
export interface ManageDeps {
  admin: FlowAdmin;
  lifecycle: FlowLifecycle;
  /** Providers' model lists, cached. */
  models: ModelCatalogue;
  flows: FlowStore;
  orgs: OrgStore;
  runs: RunStore;
  recorder: RunRecorder;
  publicBaseUrl: string | undefined;
}

/** The management API under /api/llm/{org_code}: flows, versions, runs, statistics, tokens, providers (manage scope). */
export function registerManageRoutes(app: App, deps: ManageDeps): void {
  const { admin, flows, orgs } = deps;
  const flowTags = ['flows'];

  app.get(
    '/api/llm/:org_code/flows',
    {
      config: { scope: 'manage' },
      schema: { tags: flowTags, summary: 'List flows, each with its runs of the last 24 hours', params: orgParams, security: bearer },
    },
    async (request) => {
      const principal = request.principal!;
      // Runs are written just after their response; counting waits for this instance's pending writes.
      await deps.recorder.flush();
      const since = new Date(Date.now() - DAY_MS).toISOString();
      const [list, counts] = await Promise.all([flows.list(principal.orgId), deps.runs.countsSince(principal.orgId, since)]);
      return { flows: list.map((flow) => presentFlowListItem(flow, counts.get(flow.slug) ?? 0)) };
    },
  );

  app.post(
    '/api/llm/:org_code/flows',
    {
      config: { scope: 'manage' },
      schema: {
        tags: flowTags,
        summary: 'Save a flow (creates, or updates the flow its slug names), or create one from a template',
        description:
          'With "base_version" (or If-Match: "N"), refused with 409 version_conflict unless N is still the latest version. ' +
          'A body {"name"?, "template": ID, "bindings": {...}} (no "nodes") creates version 1 from a template of GET …/templates; 422 invalid_bindings lists every problem. Saving clears your draft.',
        params: orgParams,
        body: definitionBody,
        security: bearer,
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const editor = editorOf(principal);
      const saved = isTemplateRequest(request.body)
        ? await deps.lifecycle.fromTemplate(editor, request.body)
        : await admin.save(editor.org, request.body, {
            author: principal.actor,
            baseVersion: ifMatchVersion(request.headers['if-match']),
            draftOwner: editor.owner,
          });
      reply.status(saved.created ? 201 : 200).header('etag', `"${saved.flow.version}"`);
      return presentFlow(saved.flow, saved);
    },
  );

  app.get(
    '/api/llm/:org_code/flows/:slug',
    { config: { scope: 'manage' }, schema: { tags: flowTags, summary: 'Get a flow with its current version', params: flowParams, security: bearer } },
    async (request, reply) => {
      const principal = request.principal!;
      const current = await admin.current(principal.orgId, request.params.slug);
      reply.header('etag', `"${current.flow.version}"`);
      return presentFlow(current.flow, current);
    },
  );

  app.put(
    '/api/llm/:org_code/flows/:slug',
    {
      config: { scope: 'manage' },
      schema: {
        tags: flowTags,
        summary: 'Save a new version of a flow',
        description: 'With "base_version" (or If-Match: "N"), refused with 409 version_conflict unless N is still the latest version.',
        params: flowParams,
        body: definitionBody,
        security: bearer,
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const saved = await admin.save({ id: principal.orgId, providersVersion: principal.providersVersion }, request.body, {
        slug: request.params.slug,
        author: principal.actor,
        baseVersion: ifMatchVersion(request.headers['if-match']),
        draftOwner: editorOf(principal).owner,
      });
      reply.header('etag', `"${saved.flow.version}"`);
      return presentFlow(saved.flow, saved);
    },
  );

  registerVersionRoutes(app, { admin });
  registerLifecycleRoutes(app, { lifecycle: deps.lifecycle });

  app.delete(
    '/api/llm/:org_code/flows/:slug',
    {
      config: { scope: 'manage' },
      schema: { tags: flowTags, summary: "Delete a flow (its runs stay readable, marked with the flow's name)", params: flowParams, security: bearer },
    },
    async (request) => {
      const principal = request.principal!;
      // This instance's runs of the flow still being written are marked too.
      await deps.recorder.flush();
      await flows.delete(principal.orgId, request.params.slug);
      return { deleted: true };
    },
  );

  app.get(
    '/api/llm/:org_code/flows/:slug/schema',
    { config: { scope: 'manage' }, schema: { tags: flowTags, summary: "The JSON Schema of the flow's input", params: flowParams, security: bearer } },
    async (request) => {
      const principal = request.principal!;
      const { definition } = await admin.current(principal.orgId, request.params.slug);
      return inputJsonSchema(compileFlow(definition).variables, definition.name);
    },
  );

  app.get(
    '/api/llm/:org_code/flows/:slug/snippets',
    { config: { scope: 'manage' }, schema: { tags: flowTags, summary: 'Ready-made code to call the flow', params: flowParams, security: bearer } },
    async (request) => {
      const principal = request.principal!;
      const { flow, definition } = await admin.current(principal.orgId, request.params.slug);
      const compiled = compileFlow(definition);
      const snippets = buildSnippets({
        baseUrl: baseUrlOf(request, deps.publicBaseUrl),
        orgCode: principal.orgCode,
        slug: flow.slug,
        variables: compiled.variables,
        format: compiled.output.format,
      });
      return { token_variable: 'SWITCHBOARD_TOKEN', snippets };
    },
  );

  app.get(
    '/api/llm/:org_code/runs',
    {
      config: { scope: 'manage' },
      schema: {
        tags: ['runs'],
        summary: 'Runs, newest first, a page at a time (before=next_before for the next)',
        params: orgParams,
        querystring: runsQuery,
        security: bearer,
      },
    },
    async (request) => {
      const principal = request.principal!;
      // Runs are written just after their response; reading waits for this instance's pending writes.
      await deps.recorder.flush();
      const { flow, status, trigger, limit, before } = request.query;
      const page = await deps.runs.list(principal.orgId, {
        flow,
        status,
        trigger,
        limit: limit ?? 50,
        before: before === undefined ? undefined : parseRunsBefore(before),
      });
      return { runs: page.runs.map(presentRun), next_before: page.nextBefore };
    },
  );

  registerStatsRoutes(app, { runs: deps.runs, recorder: deps.recorder });

  app.get(
    '/api/llm/:org_code/runs/:run_id',
    { config: { scope: 'manage' }, schema: { tags: ['runs'], summary: 'One run with its trace', params: runParams, security: bearer } },
    async (request) => {
      const principal = request.principal!;
      await deps.recorder.flush();
      const run = await deps.runs.get(principal.orgId, request.params.run_id);
      if (!run) throw new AppError('not_found', `Run "${request.params.run_id}" not found`);
      return presentRun(run);
    },
  );

  app.get(
    '/api/llm/:org_code/tokens',
    { config: { scope: 'manage' }, schema: { tags: ['tokens'], summary: 'List tokens (never their secrets)', params: orgParams, security: bearer } },
    async (request) => {
      const principal = request.principal!;
      return { tokens: (await orgs.listTokens(principal.orgId)).map(presentToken) };
    },
  );

  app.post(
    '/api/llm/:org_code/tokens',
    {
      config: { scope: 'manage' },
      schema: { tags: ['tokens'], summary: 'Create a token (the secret is shown once)', params: orgParams, body: tokenBody, security: bearer },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const created = await orgs.createToken(principal.orgId, { name: request.body?.name, scope: request.body?.scope });
      reply.status(201);
      return { token_id: created.id, token: created.token, ...presentToken(created.row) };
    },
  );

  app.delete(
    '/api/llm/:org_code/tokens/:token_id',
    { config: { scope: 'manage' }, schema: { tags: ['tokens'], summary: 'Revoke a token', params: tokenParams, security: bearer } },
    async (request) => {
      const principal = request.principal!;
      await orgs.revokeToken(principal.orgId, request.params.token_id);
      return { revoked: true };
    },
  );

  app.get(
    '/api/llm/:org_code/providers',
    {
      config: { scope: 'manage' },
      schema: { tags: ['providers'], summary: 'Provider connections (keys never returned)', params: orgParams, security: bearer },
    },
    async (request) => {
      const principal = request.principal!;
      return { providers: await orgs.listProviders(principal.orgId) };
    },
  );

  app.put(
    '/api/llm/:org_code/providers/:name',
    {
      config: { scope: 'manage' },
      schema: { tags: ['providers'], summary: 'Create or replace a provider connection', params: providerParams, body: providerBody, security: bearer },
    },
    async (request) => {
      const principal = request.principal!;
      const body = request.body;
      return orgs.setProvider(principal.orgId, { name: request.params.name, kind: body.kind, baseUrl: body.base_url, apiKey: body.api_key });
    },
  );

  app.delete(
    '/api/llm/:org_code/providers/:name',
    { config: { scope: 'manage' }, schema: { tags: ['providers'], summary: 'Remove a provider connection', params: providerParams, security: bearer } },
    async (request) => {
      const principal = request.principal!;
      await orgs.deleteProvider(principal.orgId, request.params.name);
      return { deleted: true };
    },
  );

  app.get(
    '/api/llm/:org_code/providers/:name/models',
    {
      config: { scope: 'manage' },
      schema: {
        // A route declaration: its schema and handler are shaped like every route's.
        tags: ['providers'],
        summary: "A connection's models, for the Model field of llm nodes",
        description:
          'Answers {"models": [{"id"}], "fetched_at"}, asked of the provider at most once per 10 minutes (?refresh=true asks again); a provider error is 502 with its message (never the key).',
        params: providerParams,
        querystring: modelsQuery,
        security: bearer,
      },
    },
    async (request) => {
      const principal = request.principal!;
      const list = await deps.models.list(
        { id: principal.orgId, providersVersion: principal.providersVersion },
        request.params.name,
        request.query.refresh === 'true',
      );
      return { models: list.models, fetched_at: list.fetchedAt };
    },
  );

  app.post(
    '/api/llm/:org_code/providers/:name/test',
    {
      config: { scope: 'manage' },
      schema: {
        tags: ['providers'],
        summary: "Test a connection: its model ids, or the provider's error",
        description:
          'Answers 200 {"ok": true, "models": [...]} or 200 {"ok": false, "error": "..."} (the provider\'s message, never the key); waits at most 10 s.',
        params: providerParams,
        security: bearer,
      },
    },
    async (request) => {
      const principal = request.principal!;
      const check = await admin.checkProvider(principal.orgId, request.params.name);
      return check.ok ? { ok: true, models: check.models } : { ok: false, error: check.error };
    },
  );
}
