import { randomUUID } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyServerOptions,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { serializerCompiler, validatorCompiler, jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { databaseUnavailable } from './errors.ts';
import { installShutdown } from './graceful-shutdown.ts';
import { redactUrl } from './logger.ts';

/** Options of the HTTP server factory every service starts from. */
export interface HttpServerOptions {
  logger: Logger;
  /** Largest request body in bytes; larger gets 413. */
  bodyLimit: number;
  /** Extra URL redaction for service-specific secret path segments. */
  redact?: (url: string) => string;
  /** Whom to trust for X-Forwarded-* (TRUST_PROXY): false, true, a hop count, or addresses and CIDRs. */
  trustProxy?: boolean | number | string;
}

/** A Fastify app typed for zod schemas. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, Logger, ZodTypeProvider>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Prometheus registry of this app: services add their own gauges and counters. */
    metrics: Registry;
  }
}

/**
 * Creates a Fastify app with what every service shares: request ids
 * (`X-Request-Id` in and out), redacted one-line access logs, zod validation,
 * Prometheus metrics at `/metrics`, and the body limit.
 */
export function createHttpServer(options: HttpServerOptions): App {
  const redact = (url: string) => redactUrl(options.redact ? options.redact(url) : url);
  const fastifyOptions: FastifyServerOptions = {
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit,
    // One access line per request comes from the onResponse hook below, with the URL redacted.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Fastify takes a hop count too (lib/request.js), though its typings list only the other forms.
    trustProxy: (options.trustProxy ?? false) as FastifyServerOptions['trustProxy'],
    return503OnClosing: true,
    // Closing the server ends keep-alive connections too, so a stop never waits on an idle client.
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true },
    // A URL the router cannot decode (`/tickets/%`) is answered by the service's own error handler, in its
    // error shape, instead of Fastify's built-in body (the hooks do not run for it).
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      app.errorHandler(error, request, reply);
    },
  };
  const app = Fastify(fastifyOptions).withTypeProvider<ZodTypeProvider>() as unknown as App;
  installShutdown(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  app.decorate('metrics', registry);

  // Callback-style hooks: an async hook costs a promise per request on every route.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // One labelled child per method, route and status, instead of hashing the label object on every request.
  const counted = new Map<string, Counter.Internal>();
  const timed = new Map<string, Histogram.Internal<string>>();
  app.addHook('onResponse', (request, reply, done) => {
    // The route template (never the raw URL) keeps secrets and cardinality out of metrics.
    const route = request.routeOptions.url ?? 'unmatched';
    const routeKey = `${request.method} ${route}`;
    const countKey = `${routeKey} ${reply.statusCode}`;
    let counter = counted.get(countKey);
    if (!counter) {
      counter = requests.labels(request.method, route, String(reply.statusCode));
      counted.set(countKey, counter);
    }
    let histogram = timed.get(routeKey);
    if (!histogram) {
      histogram = latency.labels(request.method, route);
      timed.set(routeKey, histogram);
    }
    counter.inc();
    histogram.observe(reply.elapsedTime / 1000);
    // Redacting costs a few regular expressions per request: only when the line is written.
    if (options.logger.isLevelEnabled('info')) {
      request.log.info(
        { method: request.method, url: redact(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100, ip: request.ip },
        'request',
      );
    }
    done();
  });

  // A database fault is answered 503 by each service's error handler (errors.ts); the cause goes to the log here, once.
  const databaseFaults = new Counter({
    name: 'database_unavailable_total',
    help: 'Requests answered 503 because the database could not be reached or written, by fault',
    labelNames: ['fault'],
    registers: [registry],
  });
  app.addHook('onError', (request, reply, error, done) => {
    if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') keepConnectionForDrain(request.raw, reply, options.bodyLimit);
    const fault = databaseUnavailable(error);
    if (fault) {
      databaseFaults.inc({ fault });
      request.log.warn({ err: error, fault }, 'database unavailable; answered 503');
    }
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return app;
}

/**
 * A body over the limit is answered 413 before it is read. Fastify then closes the connection, and a proxy still
 * sending that body (nginx, with its keep-alive connections to the instances) meets a reset and answers its own 502
 * instead of the service's 413, depending on timing. A declared body up to twice the limit (what the documented
 * nginx configuration lets through) is read and thrown away after the 413 instead, and the connection stays open;
 * anything larger, or of unknown length, still closes it, so nobody makes the service read an endless body.
 */
function keepConnectionForDrain(raw: RawRequestDefaultExpression, reply: { removeHeader(name: string): unknown }, bodyLimit: number): void {
  const declared = Number(raw.headers['content-length']);
  // Node's server reads an unread body off the wire once the response is sent, when the connection is kept.
  if (Number.isSafeInteger(declared) && declared <= 2 * bodyLimit && !raw.complete) reply.removeHeader('connection');
}

/** Registers `/openapi.json` and `/docs` (Swagger UI, served locally) from the routes' zod schemas. */
export async function registerOpenApi(
  app: App,
  info: { title: string; version: string; description: string },
  extra: { components?: Record<string, unknown>; security?: Array<Record<string, string[]>> } = {},
): Promise<void> {
  const swagger = (await import('@fastify/swagger')).default;
  const swaggerUi = (await import('@fastify/swagger-ui')).default;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info,
      ...(extra.components ? { components: extra.components as never } : {}),
      ...(extra.security ? { security: extra.security } : {}),
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: false, uiConfig: { docExpansion: 'list', deepLinking: false } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/**
 * The listen backlog: as deep as the kernel allows (it caps the value at net.core.somaxconn). Node's default of
 * 511 overflows when thousands of clients connect at once (10,000 streams opened together in `bench/`), and a
 * dropped connection attempt is sent again by the client only after 1 s, then 3 s, 7 s…: seconds to the headers.
 */
const LISTEN_BACKLOG = 65_535;

/** Listens on the configured host and port and returns the base URL actually bound (port 0 resolved). */
export async function listen(app: App, host: string, port: number): Promise<string> {
  await app.listen({ host, port, backlog: LISTEN_BACKLOG });
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  return localBaseUrl(host, boundPort);
}

/** The base URL of a service listening on `host` and `port`, as printed at start: 0.0.0.0 shown as 127.0.0.1, IPv6 in brackets. */
export function localBaseUrl(host: string, port: number): string {
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return `http://${shownHost}:${port}`;
}

/** The public base URL: PUBLIC_BASE_URL when configured, else from the request's host and protocol. */
export function baseUrlOf(request: { protocol: string; host: string }, configured: string | undefined): string {
  return configured ?? `${request.protocol}://${request.host}`;
}
