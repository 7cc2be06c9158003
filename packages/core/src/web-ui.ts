import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App } from './http-server.ts';

/** Where a service's built UI is and which URL patterns are its pages. */
export interface WebUiOptions {
  /** The Vite build's output: `index.html`, `assets/`, `favicon.svg`. */
  dir: string;
  /** Route patterns that answer the UI's `index.html` (the client router shows the page), e.g. `/`, `/orgs/*`. */
  pages: string[];
}

// The UI talks only to its own service; inline styles are React Flow's and the kit's positioning.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Web UI not built</title></head>
<body style="font:15px system-ui;margin:4rem auto;max-width:40rem;color:#222">
<h1>The web UI is not built yet</h1>
<p>Run <code>npm start</code> (it builds the UIs before starting the services) or <code>npx tsx packages/cli/src/build.ts</code>, then reload this page.</p>
</body></html>`;

/**
 * Serves a service's built web UI: hashed assets with a year's caching, and
 * `index.html` (never cached, with a strict Content-Security-Policy) for every
 * page URL. Before the UI is built, page URLs answer 503 with how to build it.
 */
export async function registerWebUi(app: App, options: WebUiOptions): Promise<void> {
  const fastifyStatic = (await import('@fastify/static')).default;
  const indexFile = join(options.dir, 'index.html');
  let index: string | undefined;
  // Read when first asked: a UI built after the service started is picked up without a restart.
  const readIndex = () => (index ??= existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined);

  await app.register(fastifyStatic, {
    root: join(options.dir, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
    index: false,
    // A missing assets directory (UI not built) must not stop the service from starting.
    allowedPath: () => existsSync(join(options.dir, 'assets')),
  });

  app.get('/favicon.svg', { schema: { hide: true } }, async (_request, reply) => {
    const file = join(options.dir, 'favicon.svg');
    if (!existsSync(file)) return reply.status(404).type('text/plain').send('Not found');
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(readFileSync(file));
  });

  const page = async (_request: unknown, reply: import('fastify').FastifyReply) => {
    const html = readIndex();
    reply
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8');
    if (!html) return reply.status(503).send(NOT_BUILT);
    return reply.send(html);
  };
  for (const url of options.pages) app.get(url, { schema: { hide: true } }, page);
}

/** The directory of the package whose module is `moduleUrl` (the nearest one with a package.json): from `src/` and from `dist/` alike. */
export function packageDirOf(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
