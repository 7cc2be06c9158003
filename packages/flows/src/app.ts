import { join } from 'node:path';
import {
  createHttpServer,
  createLogger,
  createRateLimiter,
  registerRateLimitMetrics,
  MembershipStore,
  openPlatformBeside,
  packageDirOf,
  registerOpenApi,
  registerPeopleRoutes,
  registerSessionRoutes,
  registerWebUi,
  type App,
  type PagePreloads,
  type SessionUser,
} from '@switchboard/core';
import { Counter } from 'prom-client';
import type { FlowsConfig } from './config.ts';
import { RunService } from './engine/run-service.ts';
import { ModelCatalogue } from './engine/model-catalogue.ts';
import { createAuthorizer, installAuth } from './http/auth.ts';
import { registerFlowsOAuth } from './http/oauth-resource.ts';
import { installErrorHandling } from './http/error-handler.ts';
import { registerManageRoutes } from './http/manage-routes.ts';
import { registerRunRoutes } from './http/run-routes.ts';
import { registerKnowledgeRoutes } from './http/knowledge-routes.ts';
import { registerSecretRoutes } from './http/secret-routes.ts';
import { registerMcpSettingsRoutes } from './http/mcp-routes.ts';
import { registerTenantRoutes } from './http/tenant-routes.ts';
import { registerFlowsMcpEndpoint } from './mcp/mcp-endpoint.ts';
import { openFlowsStores } from './stores.ts';
import { installSchedulesAndPrices } from './schedules-and-prices.ts';
import { createTracing } from './tracing/otel-tracing.ts';
import type { OrgStore } from './store/org-store.ts';
import { RunRecorder } from './store/run-store.ts';
import { AbandonedRunSweeper } from './worker/abandoned-runs.ts';
import { Reembedder } from './worker/reembedding.ts';

/** URL patterns of the dashboard's pages (design/web.md, "Flows UI"). */
export const FLOWS_UI_PAGES = ['/', '/login', '/orgs/*', '/flows/*'];

/** The lazily loaded page module of each organization section (packages/flows/web/src/app.tsx's routes). */
const ORG_PAGE_MODULES: Record<string, string> = {
  '': 'src/pages/overview-page.tsx',
  flows: 'src/pages/flows-page.tsx',
  runs: 'src/pages/runs-page.tsx',
  knowledge: 'src/pages/knowledge-page.tsx',
  tokens: 'src/pages/tokens-page.tsx',
  providers: 'src/pages/providers-page.tsx',
  secrets: 'src/pages/secrets-page.tsx',
};

/**
 * What a dashboard page needs first, loaded with its HTML: the session check (every page), the page's
 * chunk, and a flow's canvas its flow and the user's draft (as builder-api.ts asks for them; only with a session cookie).
 */
export function flowsPagePreloads({ segments, signedIn }: { segments: string[]; signedIn: boolean }): PagePreloads {
  const fetches = ['/api/session'];
  if (segments[0] !== 'orgs' || !segments[1] || segments.length > 5) return { fetches };
  const [, org, section = '', id, more] = segments;
  let module: string | undefined;
  if (section === 'flows' && id) {
    module = more === 'api' ? 'src/pages/flow-api-page.tsx' : more === undefined ? 'src/pages/builder-page.tsx' : undefined;
    // The flow and the user's draft of it (builder-page.tsx reads both before drawing).
    if (more === undefined && signedIn)
      fetches.push(
        `/api/llm/${encodeURIComponent(org)}/flows/${encodeURIComponent(id)}`,
        `/api/llm/${encodeURIComponent(org)}/flows/${encodeURIComponent(id)}/draft`,
      );
  } else if (section === 'runs' && id && more === undefined) module = 'src/pages/run-page.tsx';
  else if (id === undefined) module = ORG_PAGE_MODULES[section];
  return { fetches, modules: module ? [module] : [] };
}

/** Options for tests. */
export interface BuildOptions {
  /** The clock of sessions and sign-in counters (tests move it instead of sleeping). */
  now?: () => Date;
  /** Where log lines go (tests read them); standard output by default. */
  logDestination?: { write(line: string): void };
}

/** `"organizations"` of `GET /api/session`: every organization for an admin, a member's own; sorted by code. */
function organizationsOf(orgs: OrgStore, memberships: MembershipStore) {
  return async (user: SessionUser) => {
    const visible = user.role === 'admin' ? await orgs.listOrgs() : await orgs.listOrgs(await memberships.scopesOf('flows', user.id));
    return { organizations: visible.map((org) => ({ org_code: org.code, name: org.name })) };
  };
}

/**
 * Builds the flow-execution service; closing the app flushes pending run
 * records and closes the databases (its own and the platform's: users,
 * sessions, memberships).
 */
export async function buildApp(config: FlowsConfig, options: BuildOptions = {}): Promise<App> {
  const logger = createLogger({ service: 'flows', level: config.logLevel, destination: options.logDestination });
  const stores = await openFlowsStores(config);
  const platform = await openPlatformBeside(config.platformEnv, stores);
  const limiter = await createRateLimiter(stores.database, config.redisUrl, logger);
  const recorder = new RunRecorder(stores.runs, logger);
  const tracing = await createTracing(config.tracing, { captureContent: config.otelCaptureContent, warnIntervalMs: config.otelWarnIntervalMs, logger });
  const runs = new RunService(stores.flows, stores.providers, recorder, config, {
    knowledge: stores.knowledge,
    memory: stores.memory,
    secrets: stores.secrets,
    tracing,
  });
  const app = createHttpServer({ logger, bodyLimit: config.bodyLimit, trustProxy: config.trustProxy });
  await registerOpenApi(
    app,
    { title: 'Switchboard flow execution', version: '1.0.0', description: 'Run LLM flows over HTTP; OpenAI-compatible chat completions per flow.' },
    { components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } } },
  );
  installErrorHandling(app);
  registerRateLimitMetrics(app.metrics, limiter);
  const memberships = new MembershipStore(platform.db);
  const describe = organizationsOf(stores.orgs, memberships);
  const web = await registerSessionRoutes(app, { platform, publicBaseUrl: config.publicBaseUrl, now: options.now, describe });
  // People, the account page and invitation links: the same admin API on every service (core).
  registerPeopleRoutes(app, { platform: platform.db, web });
  const oauth = await registerFlowsOAuth(app, {
    platform,
    web,
    orgs: stores.orgs,
    memberships,
    publicBaseUrl: config.publicBaseUrl,
    allowedHosts: config.oauthAllowedHosts,
    registrationRate: config.oauthRegistrationRate,
    now: options.now,
  });
  const authorize = createAuthorizer({ orgs: stores.orgs, limiter, rate: config.rateLimit, logger, web, oauth });
  // Before the authentication hook: core's Origin/Host check refuses a foreign page before any token lookup.
  registerFlowsMcpEndpoint(app, {
    settings: stores.mcp,
    runs,
    runStore: stores.runs,
    waitMs: config.mcpWaitMs,
    authorize,
    guard: { publicBaseUrl: config.publicBaseUrl, allowedOrigins: config.mcpAllowedOrigins, listenHost: config.host },
  });
  installAuth(app, authorize);

  const runCounter = new Counter({ name: 'flows_runs_total', help: 'Flow runs by outcome', labelNames: ['status'], registers: [app.metrics] });
  const tokenCounter = new Counter({ name: 'flows_tokens_total', help: 'Model tokens used by flow runs', labelNames: ['kind'], registers: [app.metrics] });
  const costCounter = new Counter({
    name: 'flows_cost_usd_total',
    help: "US dollars of flow runs' priced model calls",
    labelNames: ['org', 'flow'],
    registers: [app.metrics],
  });
  recorder.onRecord = (run) => {
    if (run.status === 'running') return;
    runCounter.inc({ status: run.status });
    tokenCounter.inc({ kind: 'prompt' }, run.usage.prompt_tokens);
    tokenCounter.inc({ kind: 'completion' }, run.usage.completion_tokens);
    if (run.cost && run.cost.usd > 0) costCounter.inc({ org: run.orgCode ?? String(run.orgId), flow: run.flow }, run.cost.usd);
  };

  app.get('/health', { schema: { hide: true } }, async (_request, reply) => {
    // A stopping instance says so at once, so a load balancer stops sending it requests.
    if (app.shutdown.stopping) return reply.status(503).send({ status: 'stopping', service: 'flows', database: stores.database.dialect });
    const ok = await stores.database.ping();
    reply.status(ok ? 200 : 503);
    return ok
      ? { status: 'ok', service: 'flows', database: stores.database.dialect }
      : { status: 'unavailable', service: 'flows', database: stores.database.dialect };
  });
  // Runs still going when a stop's grace period ends are aborted: each ends with an error event and is recorded failed.
  app.shutdown.onGraceEnd(() => runs.abortAll());
  registerRunRoutes(app, { runs });
  const reembedder = new Reembedder(stores.embeddingJobs, stores.knowledge, logger);
  registerKnowledgeRoutes(app, {
    knowledge: stores.knowledge,
    knowledgeBases: stores.knowledgeBases,
    memory: stores.memory,
    flows: stores.flows,
    providers: stores.providers,
    jobs: stores.embeddingJobs,
    reembedder,
  });
  // The dashboard (packages/flows/web, built into dist/web): page URLs answer its index.html.
  await registerWebUi(app, { dir: join(packageDirOf(import.meta.url), 'dist', 'web'), pages: FLOWS_UI_PAGES, preloads: flowsPagePreloads });
  const models = new ModelCatalogue((orgId, name) => stores.admin.checkProvider(orgId, name));
  registerManageRoutes(app, {
    admin: stores.admin,
    lifecycle: stores.lifecycle,
    models,
    flows: stores.flows,
    orgs: stores.orgs,
    runs: stores.runs,
    recorder,
    publicBaseUrl: config.publicBaseUrl,
  });
  registerSecretRoutes(app, stores.secrets);
  registerTenantRoutes(app, { web, platform: platform.db, orgs: stores.orgs });
  registerMcpSettingsRoutes(app, { settings: stores.mcp, publicBaseUrl: config.publicBaseUrl });
  const schedules = installSchedulesAndPrices(app, { stores, runs, config, logger });

  // Runs an instance left `running` when it died are marked failed by whichever instance sweeps next.
  const sweeper = new AbandonedRunSweeper(stores.runs, { runTimeoutMs: config.runTimeoutMs, sweepMs: config.runSweepMs, logger });
  app.addHook('onReady', async () => {
    sweeper.start();
    // Knowledge bases a stopped instance was embedding again.
    reembedder.resumeStale();
  });
  app.addHook('onClose', async () => {
    await sweeper.stop();
    await schedules.stop();
    await tracing?.shutdown();
    await reembedder.stop();
    await recorder.flush();
    await limiter.close();
    await platform.close();
    await stores.close();
  });
  return app;
}
