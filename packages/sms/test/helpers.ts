import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createLogger, type App } from '@switchboard/core';
import { createTestDatabase, type TestDatabase } from '@switchboard/core/testing';
import { buildApp, loadConfig, smsContext } from '../src/index.ts';
import type { SmsContext } from '../src/http/context.ts';

/** A running app on a fresh database with one organization. */
export interface TestService {
  app: App;
  context: SmsContext;
  database: TestDatabase;
  env: Record<string, string>;
  orgId: string;
  key: string;
  /** Log lines the app wrote. */
  logs: string[];
  /** Builds another app on the same database (a restart, or a second instance). */
  rebuild(extraEnv?: Record<string, string>): Promise<App>;
  close(): Promise<void>;
}

/** Builds the app on a fresh database of `dialect`, with organization `acme`. Worker off unless the env turns it on. */
export async function startService(dialect: 'sqlite' | 'postgres', extraEnv: Record<string, string> = {}): Promise<TestService> {
  const database = await createTestDatabase(dialect);
  const env = { LOG_LEVEL: 'info', SMS_WORKER_INTERVAL_MS: '0', ...database.env, ...extraEnv };
  const logs: string[] = [];
  const logger = createLogger({ service: 'sms', level: env.LOG_LEVEL, destination: { write: (line: string) => void logs.push(line) } });
  const apps: App[] = [];
  const build = async (more: Record<string, string> = {}) => {
    const app = await buildApp(loadConfig({ ...env, ...more }), { logger });
    await app.ready();
    apps.push(app);
    return app;
  };
  const app = await build();
  const context = smsContext(app);
  const { secretKey } = await context.orgs.createOrganization('acme', 'Acme', new Date());
  return {
    app,
    context,
    database,
    env,
    orgId: 'acme',
    key: secretKey,
    logs,
    rebuild: build,
    async close() {
      for (const built of apps) await built.close();
      await database.cleanup();
    },
  };
}

/** One request a fake gateway received. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP server standing in for a third-party gateway. */
export interface FakeGateway {
  url: string;
  requests: RecordedRequest[];
  /** Sets the answer for the next requests (status and JSON or text body). */
  respond(answer: (request: RecordedRequest) => { status: number; body: unknown }): void;
  close(): Promise<void>;
}

/** Starts a fake gateway on a free port; answers 200 `{}` until told otherwise. */
export async function startFakeGateway(): Promise<FakeGateway> {
  const requests: RecordedRequest[] = [];
  let answer: (request: RecordedRequest) => { status: number; body: unknown } = () => ({ status: 200, body: {} });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      const { status, body } = answer(recorded);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    respond(next) {
      answer = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Waits until `check` returns a value (polling; the worker runs on its own timer). */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Headers with the secret key as a bearer token. */
export function bearer(key: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${key}`, ...extra };
}
