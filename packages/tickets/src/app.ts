import { UserStore, createHttpServer, createLogger, openPlatformDatabase, registerOpenApi, type App, type Database, type PlatformTables } from '@switchboard/core';
import type { Logger } from 'pino';
import type { TicketsConfig } from './config.ts';
import { openTicketsDatabase } from './store/open-store.ts';
import type { TicketsDatabase } from './store/tables.ts';
import type { MemberDirectory } from './service/board-context.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { BASE_PATH, registerRestRoutes } from './http/rest-routes.ts';
import { registerMcpEndpoint } from './mcp/mcp-endpoint.ts';
import { SummaryWorker } from './worker/summary-worker.ts';
import { extractiveSummarizer, llmSummarizer } from './worker/summarizer.ts';
import { registerSummaryMetrics } from './worker/summary-metrics.ts';
import { registerAuthentication, type CallerResolver } from './http/caller.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The ticket board's database (tests and the CLI reach the store through it). */
    ticketsDb: Database<TicketsDatabase>;
    /** The summary worker (tests drain it instead of waiting). */
    summaryWorker: SummaryWorker;
  }
}

/** Options for tests: a logger of their own. */
export interface BuildOptions {
  logger?: Logger;
}

function memberDirectory(platform: Database<PlatformTables>): MemberDirectory {
  const users = new UserStore(platform.db);
  return { list: () => users.list() };
}

/**
 * Builds the ticket board: database (migrated), summary worker, REST routes
 * for the 19 tools, the MCP endpoint, /health, /openapi.json and /docs.
 * Closing the app closes the worker and the databases.
 */
export async function buildApp(config: TicketsConfig, options: BuildOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger({ service: 'tickets', level: config.logLevel });
  const database = await openTicketsDatabase(config);
  let platform: Database<PlatformTables>;
  try {
    platform = await openPlatformDatabase(config.platformEnv);
  } catch (error) {
    await database.close();
    throw error;
  }
  const summarizer = config.summary.baseUrl
    ? llmSummarizer({ baseUrl: config.summary.baseUrl, model: config.summary.model, apiKey: config.summary.apiKey, timeoutMs: config.summary.timeoutMs })
    : extractiveSummarizer;
  const worker = new SummaryWorker({ db: database.db, dialect: database.dialect, summarizer, logger, intervalMs: config.summary.intervalMs });
  const resolver: CallerResolver = {
    db: database.db,
    dialect: database.dialect,
    members: memberDirectory(platform),
    touchMs: config.tokenTouchMs,
    onSummaryDue: () => {
      if (config.summary.worker) worker.poke();
    },
  };

  const app = createHttpServer({ logger, bodyLimit: config.bodyLimit });
  app.decorate('ticketsDb', database);
  app.decorate('summaryWorker', worker);
  installErrorHandler(app);
  registerSummaryMetrics(app.metrics, database.db);
  await registerOpenApi(
    app,
    {
      title: 'Switchboard ticket board',
      version: '1.0.0',
      description: `The 19 ticket-board tools over REST (base ${BASE_PATH}); the same tools over MCP at ${BASE_PATH}/mcp. Every call needs Authorization: Bearer <project token>.`,
    },
    { components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } } },
  );
  const health = async (_request: unknown, reply: { code(status: number): unknown }) => {
    const ok = await database.ping();
    if (!ok) reply.code(503);
    return { status: ok ? 'ok' : 'unavailable', service: 'tickets', database: database.dialect };
  };
  app.get('/health', { schema: { hide: true } }, health);
  app.get(`${BASE_PATH}/health`, { schema: { hide: true } }, health);
  registerAuthentication(app, resolver);
  registerRestRoutes(app);
  registerMcpEndpoint(app);

  if (config.summary.worker) {
    worker.start();
    worker.poke();
  }
  app.addHook('onClose', async () => {
    await worker.close();
    await platform.close();
    await database.close();
  });
  return app;
}
