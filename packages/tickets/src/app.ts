import { join } from 'node:path';
import {
  AuthorizationServer,
  MembershipStore,
  TenantMembers,
  baseUrlOf,
  createHttpServer,
  createWakeBus,
  createLogger,
  openPlatformBeside,
  packageDirOf,
  registerOAuthRoutes,
  registerOpenApi,
  registerPeopleRoutes,
  registerSessionRoutes,
  registerWebUi,
  type App,
  type Database,
  type PagePreloads,
  type PageRequest,
  type PlatformTables,
  type SessionUser,
  type WakeBus,
} from '@switchboard/core';
import type { Logger } from 'pino';
import type { TicketsConfig } from './config.ts';
import { openTicketsDatabase } from './store/open-store.ts';
import type { TicketsDatabase } from './store/tables.ts';
import type { MemberDirectory } from './service/board-context.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { BASE_PATH, PROJECT_MOUNT, registerRestRoutes } from './http/rest-routes.ts';
import { listProjects, type Db } from './store/project-store.ts';
import { registerMcpEndpoint } from './mcp/mcp-endpoint.ts';
import { SummaryWorker } from './worker/summary-worker.ts';
import { extractiveSummarizer, llmSummarizer } from './worker/summarizer.ts';
import { registerSummaryMetrics } from './worker/summary-metrics.ts';
import { registerAuthentication, stillAllowed, type CallerResolver } from './http/caller.ts';
import { EventHub } from './events/event-hub.ts';
import { FIRST_CARDS, boardCookie, boardPageProject, boardUrlFor } from './domain/board-page.ts';
import { registerEventRoutes } from './http/event-routes.ts';
import { ticketsOAuthSpec } from './http/oauth-resource.ts';
import { invalidFields, registerTenantRoutes } from './http/tenant-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The ticket board's database (tests and the CLI reach the store through it). */
    ticketsDb: Database<TicketsDatabase>;
    /** The summary worker (tests drain it instead of waiting). */
    summaryWorker: SummaryWorker;
  }
}

/** Options for tests: a logger of their own, a clock for sessions. */
export interface BuildOptions {
  logger?: Logger;
  /** The clock of sessions, sign-in counters and OAuth codes and tokens (tests move it instead of sleeping). */
  now?: () => Date;
  /** Certificates (PEM) trusted when fetching OAuth client metadata documents (tests serve them over https). */
  oauthCa?: string;
}

/** URL patterns of the web UI's pages (design/web.md, "Ticket board UI"): they answer its index.html. */
export const TICKETS_UI_PAGES = ['/', '/login', '/projects/*', '/tickets/*'];

/** The lazily loaded page module of each project section (packages/tickets/web/src/app.tsx). */
const PROJECT_PAGE_MODULES: Record<string, string> = {
  board: 'src/board/board-page.tsx',
  documents: 'src/pages/documents-page.tsx',
  search: 'src/pages/search-page.tsx',
  settings: 'src/settings/settings-page.tsx',
};

/**
 * What a board page needs first, loaded with its HTML: the session check (every page), the page's chunk (a
 * ticket's URL: the board's and the ticket panel's) and, signed in, the board's first read, as the page asks
 * for it (domain/board-page.ts): the `board` query, else the board its cookie remembers.
 */
export function ticketsPagePreloads({ segments, query, cookies, signedIn }: PageRequest): PagePreloads {
  const fetches = ['/api/session'];
  const project = boardPageProject(segments);
  if (project && signedIn) fetches.push(boardUrlFor(project, query.get('board') ?? cookies[boardCookie(project)], FIRST_CARDS));
  if (segments[0] === 'tickets') return { fetches, modules: segments.length === 2 ? ['src/board/board-page.tsx', 'src/ticket/ticket-panel.tsx'] : [] };
  const module = segments[0] === 'projects' && segments[1] ? PROJECT_PAGE_MODULES[segments[2] ?? ''] : undefined;
  return { fetches, modules: module ? [module] : [] };
}

/** The wake-up channel: TICKETS_EVENTS_CHANNEL, else one per database schema (test runs and deployments sharing a server stay apart). */
function eventsChannel(config: TicketsConfig, schema: string): string {
  return config.events.channel ?? (config.redisUrl ? `switchboard:tickets:${schema}:events` : `${schema}_events`);
}

/** A project's people: its members plus every admin (who sees every project), by email (core's TenantMembers); each change logged with its actor. */
function memberDirectory(platform: Database<PlatformTables>, logger: Logger): MemberDirectory {
  const people = new TenantMembers(platform.db, 'tickets');
  return {
    list: (projectKey) => people.list(projectKey),
    async add(projectKey, email, actor) {
      const added = await people.add(projectKey, email, { invalid: invalidFields });
      logger.info({ event: 'member_added', actor, service: 'tickets', tenant: projectKey, member: added.email, member_id: added.user_id }, 'member added');
      return { email: added.email };
    },
    async remove(projectKey, userId, actor) {
      const removed = await people.remove(projectKey, userId);
      if (removed) logger.info({ event: 'member_removed', actor, service: 'tickets', tenant: projectKey, member_id: userId }, 'member removed');
      return removed;
    },
  };
}

/** `"projects"` of `GET /api/session`: every project for an admin, a member's own; sorted by key. */
function projectsOf(db: Db, memberships: MembershipStore) {
  return async (user: SessionUser) => {
    const visible = user.role === 'admin' ? await listProjects(db) : await listProjects(db, await memberships.scopesOf('tickets', user.id));
    return { projects: visible.map((project) => ({ key: project.key, name: project.name })) };
  };
}

/**
 * Builds the ticket board: database (migrated), summary worker, REST routes
 * for the 19 tools, the MCP endpoint, /health, /openapi.json and /docs.
 * Closing the app closes the worker and the databases.
 */
export async function buildApp(config: TicketsConfig, options: BuildOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger({ service: 'tickets', level: config.logLevel });
  const database = await openTicketsDatabase(config);
  const platform = await openPlatformBeside(config.platformEnv, database);
  let bus: WakeBus;
  try {
    bus = await createWakeBus({ channel: eventsChannel(config, database.schema), redisUrl: config.redisUrl, pool: database.pool, logger });
  } catch (error) {
    await platform.close();
    await database.close();
    throw error;
  }
  const hub = new EventHub({
    db: database.db,
    bus,
    logger,
    pollMs: config.events.pollMs,
    keepMs: config.events.keepDays * 86_400_000,
    keepPerProject: config.events.keepPerProject,
  });
  const summarizer = config.summary.baseUrl
    ? llmSummarizer({ baseUrl: config.summary.baseUrl, model: config.summary.model, apiKey: config.summary.apiKey, timeoutMs: config.summary.timeoutMs })
    : extractiveSummarizer;
  const worker = new SummaryWorker({ db: database.db, dialect: database.dialect, signal: bus, summarizer, logger, intervalMs: config.summary.intervalMs });
  const app = createHttpServer({ logger, bodyLimit: config.bodyLimit, trustProxy: config.trustProxy });
  app.decorate('ticketsDb', database);
  app.decorate('summaryWorker', worker);
  const memberships = new MembershipStore(platform.db);
  const oauth = new AuthorizationServer({
    platform: platform.db,
    spec: ticketsOAuthSpec(database.db, memberships),
    documents: { policy: config.oauthAllowedHosts, ca: options.oauthCa },
    now: options.now,
    registrationRate: config.oauthRegistrationRate,
  });
  installErrorHandler(app, (request, error) => oauth.challenge(baseUrlOf(request, config.publicBaseUrl), request.url.split('?')[0], error));
  registerSummaryMetrics(app.metrics, database.db);
  await registerOpenApi(
    app,
    {
      title: 'Switchboard ticket board',
      version: '1.0.0',
      description: `The 19 ticket-board tools over REST (base ${BASE_PATH}); the same tools over MCP at ${BASE_PATH}/mcp; every call there needs Authorization: Bearer <project token>. The web UI's API under /api/projects/{KEY} takes the sb_session cookie of a signed-in user (POST /api/session) or a project token of KEY.`,
    },
    { components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, session: { type: 'apiKey', in: 'cookie', name: 'sb_session' } } } },
  );
  const describe = projectsOf(database.db, memberships);
  const web = await registerSessionRoutes(app, { platform, publicBaseUrl: config.publicBaseUrl, now: options.now, describe });
  // People, the account page and invitation links: the same admin API on every service (core).
  registerPeopleRoutes(app, { platform: platform.db, web });
  await registerOAuthRoutes(app, { server: oauth, web, publicBaseUrl: config.publicBaseUrl });
  const resolver: CallerResolver = {
    db: database.db,
    dialect: database.dialect,
    members: memberDirectory(platform, logger),
    web,
    oauth,
    publicBaseUrl: config.publicBaseUrl,
    signal: bus,
    touchMs: config.tokenTouchMs,
    onSummaryDue: () => {
      if (config.summary.worker) worker.poke();
    },
  };
  const health = async (_request: unknown, reply: { code(status: number): unknown }) => {
    // A stopping instance says so at once, so a load balancer stops sending it requests.
    const ok = !app.shutdown.stopping && (await database.ping());
    if (!ok) reply.code(503);
    return { status: ok ? 'ok' : app.shutdown.stopping ? 'stopping' : 'unavailable', service: 'tickets', database: database.dialect };
  };
  app.get('/health', { schema: { hide: true } }, health);
  app.get(`${BASE_PATH}/health`, { schema: { hide: true } }, health);
  // Before authentication: a page of another site (Origin) or a rebound name (Host) is refused without a token lookup.
  registerMcpEndpoint(app, { publicBaseUrl: config.publicBaseUrl, allowedOrigins: config.mcpAllowedOrigins, listenHost: config.host });
  registerAuthentication(app, resolver);
  registerRestRoutes(app);
  registerRestRoutes(app, PROJECT_MOUNT);
  registerTenantRoutes(app, { web, db: database.db });
  registerEventRoutes(app, {
    hub,
    stillAllowed: (request) => stillAllowed(resolver, request),
    recheckMs: config.events.recheckMs,
    heartbeatMs: config.events.heartbeatMs,
  });
  // The board's web UI (packages/tickets/web, built into dist/web): page URLs answer its index.html.
  await registerWebUi(app, { dir: join(packageDirOf(import.meta.url), 'dist', 'web'), pages: TICKETS_UI_PAGES, preloads: ticketsPagePreloads });

  if (config.summary.worker) {
    worker.start();
    worker.poke();
  }
  // A stopping instance claims no more summaries; the one in progress is finished first.
  app.shutdown.onStop(() => worker.close());
  // Old events go in the background, on every instance (a delete of nothing costs little).
  setTimeout(() => void hub.pruneNow(), 10_000).unref();
  app.addHook('onClose', async () => {
    hub.close();
    await worker.close();
    await bus.close();
    await platform.close();
    await database.close();
  });
  return app;
}
