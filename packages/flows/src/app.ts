import { join } from 'node:path';
import { createHttpServer, createLogger, createRateLimiter, packageDirOf, registerOpenApi, registerWebUi, type App } from '@switchboard/core';
import { Counter } from 'prom-client';
import type { FlowsConfig } from './config.ts';
import { RunService } from './engine/run-service.ts';
import { createAuthorizer, installAuth } from './http/auth.ts';
import { installErrorHandling } from './http/error-handler.ts';
import { registerManageRoutes } from './http/manage-routes.ts';
import { registerRunRoutes } from './http/run-routes.ts';
import { registerKnowledgeRoutes } from './http/knowledge-routes.ts';
import { openFlowsStores } from './stores.ts';
import { RunRecorder } from './store/run-store.ts';

/** URL patterns of the dashboard's pages (design/web.md, "Flows UI"). */
export const FLOWS_UI_PAGES = ['/', '/login', '/orgs/*', '/flows/*'];

/** Builds the flow-execution service; closing the app flushes pending run records and closes the database. */
export async function buildApp(config: FlowsConfig): Promise<App> {
  const logger = createLogger({ service: 'flows', level: config.logLevel });
  const stores = await openFlowsStores(config);
  const limiter = await createRateLimiter(stores.database, config.redisUrl);
  const recorder = new RunRecorder(stores.runs, logger);
  const runs = new RunService(stores.flows, stores.providers, recorder, config, { knowledge: stores.knowledge, memory: stores.memory });
  const app = createHttpServer({ logger, bodyLimit: config.bodyLimit });
  await registerOpenApi(
    app,
    { title: 'Switchboard flow execution', version: '1.0.0', description: 'Run LLM flows over HTTP; OpenAI-compatible chat completions per flow.' },
    { components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } } },
  );
  installErrorHandling(app);
  installAuth(app, createAuthorizer(stores.orgs, limiter, config.rateLimit, logger));

  const runCounter = new Counter({ name: 'flows_runs_total', help: 'Flow runs by outcome', labelNames: ['status'], registers: [app.metrics] });
  const tokenCounter = new Counter({ name: 'flows_tokens_total', help: 'Model tokens used by flow runs', labelNames: ['kind'], registers: [app.metrics] });
  recorder.onRecord = (run) => {
    if (run.status === 'running') return;
    runCounter.inc({ status: run.status });
    tokenCounter.inc({ kind: 'prompt' }, run.usage.prompt_tokens);
    tokenCounter.inc({ kind: 'completion' }, run.usage.completion_tokens);
  };

  app.get('/health', { schema: { hide: true } }, async (_request, reply) => {
    const ok = await stores.database.ping();
    reply.status(ok ? 200 : 503);
    return ok ? { status: 'ok', service: 'flows', database: stores.database.dialect } : { status: 'unavailable', service: 'flows', database: stores.database.dialect };
  });
  registerRunRoutes(app, { runs });
  registerKnowledgeRoutes(app, { knowledge: stores.knowledge, knowledgeBases: stores.knowledgeBases, memory: stores.memory, flows: stores.flows, providers: stores.providers });
  // The dashboard (packages/flows/web, built into dist/web): page URLs answer its index.html.
  await registerWebUi(app, { dir: join(packageDirOf(import.meta.url), 'dist', 'web'), pages: FLOWS_UI_PAGES });
  registerManageRoutes(app, { admin: stores.admin, flows: stores.flows, orgs: stores.orgs, runs: stores.runs, recorder, publicBaseUrl: config.publicBaseUrl });

  app.addHook('onClose', async () => {
    await recorder.flush();
    await limiter.close();
    await stores.close();
  });
  return app;
}
