import { createHttpServer, createLogger, createRateLimiter, registerOpenApi, registerRateLimitMetrics, type App, type Logger } from '@switchboard/core';
import { Gauge } from 'prom-client';
import type { SmsConfig } from './config.ts';
import type { SmsContext } from './http/context.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { registerMessageRoutes } from './http/message-routes.ts';
import { registerPageRoutes } from './http/page-routes.ts';
import { registerSendRoutes } from './http/send-routes.ts';
import { registerWebhookRoutes } from './http/webhook-routes.ts';
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

/** Builds the SMS service: database (migrated), routes, docs, metrics and the outbox worker. Closing the app closes them all. */
export async function buildApp(config: SmsConfig, options: { logger?: Logger } = {}): Promise<App> {
  const logger = options.logger ?? createLogger({ service: 'sms', level: config.logLevel });
  const database = await openSmsDatabase(config);
  const limiter = await createRateLimiter(database, config.redisUrl, logger);
  const orgs = new OrgStore(database.db, config.secret);
  const messages = new MessageStore(database.db, database.dialect);
  const outbox = new OutboxStore(database.db, database.dialect);
  const worker = new OutboxWorker(outbox, orgs, limiter, config, logger);
  const context: SmsContext = { config, logger, database, orgs, messages, outbox, worker, limiter };

  const app = createHttpServer({ logger, bodyLimit: config.bodyLimit, redact: redactSecretPath, trustProxy: config.trustProxy });
  contexts.set(app, context);
  registerRateLimitMetrics(app.metrics, limiter);
  // Every body is read as raw bytes: signatures are computed over them, and
  // /send reports malformed JSON in pydantic's words, so we decode ourselves.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  new Gauge({
    name: 'sms_outbox_depth',
    help: 'Outbound messages waiting to be sent (queued or being retried)',
    registers: [app.metrics],
    async collect() {
      this.set(await outbox.depth().catch(() => 0));
    },
  });

  installErrorHandler(app);
  await registerOpenApi(app, {
    title: 'Switchboard SMS message store',
    version: '1.0',
    description: 'Multi-tenant SMS inbox and outbox: webhook ingestion from gateways, incremental listing with since_id, durable sending.',
  });
  registerPageRoutes(app, context);
  registerMessageRoutes(app, context);
  registerSendRoutes(app, context);
  registerWebhookRoutes(app, context);

  app.addHook('onReady', async () => worker.start());
  // A stopping instance claims no more messages; the batch in progress is finished (and recorded) first.
  app.shutdown.onStop(() => worker.stop());
  app.addHook('onClose', async () => {
    await worker.stop();
    await limiter.close();
    await database.close();
  });
  return app;
}
