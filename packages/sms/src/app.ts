import { join } from 'node:path';
import {
  ChangeHub,
  createHttpServer,
  createLogger,
  createRateLimiter,
  createWakeBus,
  GroupCommit,
  openPlatformDatabase,
  packageDirOf,
  registerOpenApi,
  registerRateLimitMetrics,
  registerPeopleRoutes,
  registerSessionRoutes,
  registerWebUi,
  type App,
  type Logger,
  type PagePreloads,
  type PageRequest,
} from '@switchboard/core';
import { Gauge } from 'prom-client';
import type { SmsConfig } from './config.ts';
import { consolePage, firstConversationsUrl } from './domain/console-pages.ts';
import type { ChangeBatch } from './domain/conversation.ts';
import { registerConsoleRoutes } from './http/console-routes.ts';
import type { SmsContext } from './http/context.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { registerMessageRoutes } from './http/message-routes.ts';
import { registerPageRoutes } from './http/page-routes.ts';
import { registerSendRoutes } from './http/send-routes.ts';
import { registerSettingsRoutes } from './http/settings-routes.ts';
import { registerWebhookRoutes } from './http/webhook-routes.ts';
import { registerTenantRoutes } from './http/tenant-routes.ts';
import { ConversationStore } from './store/conversation-store.ts';
import { MessageStore } from './store/message-store.ts';
import { OrgStore } from './store/org-store.ts';
import { OutboxStore } from './store/outbox-store.ts';
import { openSmsDatabase } from './store/sms-database.ts';
import { OutboxWorker } from './worker/outbox-worker.ts';

const contexts = new WeakMap<App, SmsContext>();

/** The stores and worker behind an app built by buildApp (tests and tools use them directly). */
export function smsContext(app: App): SmsContext {
  const context = contexts.get(app);
  if (!context) throw new Error('not an SMS app');
  return context;
}

/** Hides the `{secret_key}` path segment of /messages and /sims in logs. */
export function redactSecretPath(url: string): string {
  return url.replace(/^(\/(?:messages|sims)\/[^/?#]+\/)[^/?#]+/, '$1[redacted]');
}

/** URL patterns of the console's pages besides `/` (which the page routes give the console when signed in). */
export const SMS_UI_PAGES = ['/login', '/orgs/*'];

/** The lazily loaded page module of each console section (packages/sms/web/src/app.tsx). */
const SECTION_MODULES: Record<string, string> = {
  inbox: 'src/pages/inbox-page.tsx',
  send: 'src/pages/send-page.tsx',
  gateway: 'src/pages/gateway-page.tsx',
  sims: 'src/pages/sims-page.tsx',
  keys: 'src/pages/keys-page.tsx',
};

/** What a console page needs first, loaded with its HTML: the session check, the section's chunk and, signed in, the inbox's first conversations. */
export function smsPagePreloads({ segments, signedIn }: PageRequest): PagePreloads {
  const fetches = ['/api/session'];
  const page = consolePage(segments);
  if (!page) return { fetches, modules: segments.length === 0 ? [SECTION_MODULES.inbox] : [] };
  if (signedIn && page.section === 'inbox') fetches.push(firstConversationsUrl(page.orgId));
  const module = SECTION_MODULES[page.section];
  return { fetches, modules: module ? [module] : [] };
}

/** Options for tests: a logger of their own, a clock for sessions. */
export interface BuildOptions {
  logger?: Logger;
  /** The clock of sessions and sign-in counters (tests move it instead of sleeping). */
  now?: () => Date;
}

/** Builds the SMS service: database (migrated), routes, docs, metrics, the console and the outbox worker. Closing the app closes them all. */
export async function buildApp(config: SmsConfig, options: BuildOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger({ service: 'sms', level: config.logLevel });
  const database = await openSmsDatabase(config);
  const opened: Array<{ close(): Promise<void> }> = [database];
  const closeAll = async () => {
    for (const resource of opened.reverse()) await resource.close().catch(() => undefined);
  };
  let app: App;
  try {
    const platform = await openPlatformDatabase(config.platformEnv);
    opened.push(platform);
    const limiter = await createRateLimiter(database, config.redisUrl, logger);
    opened.push(limiter);
    // One wake-up per commit that changed messages, to every instance: the console's streams read what changed.
    const channel = config.redisUrl ? `switchboard:sms:${database.schema}:changes` : `${database.schema}_changes`;
    const bus = await createWakeBus({ channel, redisUrl: config.redisUrl, pool: database.pool, logger });
    opened.push(bus);
    const orgs = new OrgStore(database.db, config.secret);
    // SQLite has one writer: webhook transactions asked for together share one commit (group-commit.ts in core).
    const commits = database.dialect === 'sqlite' ? new GroupCommit(database.db) : undefined;
    const messages = new MessageStore(database.db, database.dialect, bus, commits);
    const outbox = new OutboxStore(database.db, database.dialect, bus);
    const conversations = new ConversationStore(database.db);
    const hub = new ChangeHub<ChangeBatch>({
      bus,
      logger,
      pollMs: config.events.pollMs,
      read: (orgId, after, limit) => conversations.changesAfter(orgId, after, limit),
    });
    const worker = new OutboxWorker(outbox, orgs, limiter, config, logger);

    app = createHttpServer({ logger, bodyLimit: config.bodyLimit, redact: redactSecretPath, trustProxy: config.trustProxy });
    registerRateLimitMetrics(app.metrics, limiter);
    commits?.registerMetrics(app.metrics, 'sms_group_commit_transactions');
    // Every body is read as raw bytes: signatures are computed over them, and the API reports malformed JSON
    // in pydantic's words, so we decode ourselves. (The session routes' bodies are JSON: parsed for them.)
    const sessionJson = app.getDefaultJsonParser('error', 'ignore');
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
      if (request.url.split('?')[0] === '/api/session') return sessionJson(request, (body as Buffer).toString('utf8'), done);
      done(null, body);
    });

    new Gauge({
      name: 'sms_outbox_depth',
      help: 'Outbound messages waiting to be sent (queued or being retried)',
      registers: [app.metrics],
      async collect() {
        this.set(await outbox.depth().catch(() => 0));
      },
    });

    installErrorHandler(app);
    await registerOpenApi(
      app,
      {
        title: 'Switchboard SMS message store',
        version: '1.0',
        description:
          "Multi-tenant SMS inbox and outbox: webhook ingestion from gateways, incremental listing with since_id, durable sending. The console's endpoints (/api/orgs/{org_id}/…) take a secret key or the sb_session cookie of a signed-in user (POST /api/session).",
      },
      {
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer' },
            secretKey: { type: 'apiKey', in: 'header', name: 'X-Secret-Key' },
            session: { type: 'apiKey', in: 'cookie', name: 'sb_session' },
          },
        },
      },
    );
    const describe = async (user: { id: string; role: 'admin' | 'member' }) => {
      const visible = user.role === 'admin' ? await orgs.listOrganizations() : await orgs.listOrganizations(await web.memberships.scopesOf('sms', user.id));
      return { organizations: visible.map((org) => ({ org_id: org.org_id, name: org.name })) };
    };
    const web = await registerSessionRoutes(app, { platform, publicBaseUrl: config.publicBaseUrl, now: options.now, describe });
    // People, the account page and invitation links: the same admin API on every service (core).
    registerPeopleRoutes(app, { platform: platform.db, web });
    const context: SmsContext = { config, logger, database, orgs, messages, outbox, worker, limiter, conversations, hub, web };
    contexts.set(app, context);
    // The console (packages/sms/web, built into dist/web); its icon is the public page's (page routes).
    const consoleUi = await registerWebUi(app, {
      dir: join(packageDirOf(import.meta.url), 'dist', 'web'),
      pages: SMS_UI_PAGES,
      preloads: smsPagePreloads,
      favicon: false,
    });
    registerPageRoutes(app, context, consoleUi);
    registerMessageRoutes(app, context);
    registerSendRoutes(app, context);
    registerWebhookRoutes(app, context);
    registerConsoleRoutes(app, context);
    registerSettingsRoutes(app, context);
    registerTenantRoutes(app, context, platform.db);

    app.addHook('onReady', async () => worker.start());
    // A stopping instance claims no more messages; the batch in progress is finished (and recorded) first.
    app.shutdown.onStop(() => worker.stop());
    app.addHook('onClose', async () => {
      hub.close();
      await worker.stop();
      await closeAll();
    });
  } catch (error) {
    await closeAll();
    throw error;
  }
  return app;
}
