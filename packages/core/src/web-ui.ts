import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyRequest } from 'fastify';
import type { App } from './http-server.ts';
import { cookiesOf, sessionTokenOf } from './web-session.ts';

/**
 * What a page needs before it can draw, fetched while its HTML is parsed instead of one after the other
 * (HTML → entry script → the page's lazy chunk → its API reads).
 */
export interface PagePreloads {
  /** The page's source modules as the Vite manifest names them (e.g. `src/pages/builder-page.tsx`): their chunks, the chunks they import and their CSS. */
  modules?: string[];
  /**
   * GET requests of the page's API (same-origin paths, exactly as the page's code writes them): the
   * page's first `fetch` of each takes the answer instead of asking again. Read once: a later fetch
   * goes to the service.
   */
  fetches?: string[];
}

/** A page's request as `preloads` sees it. */
export interface PageRequest {
  /** The URL's path segments, decoded: `/orgs/acme/flows` is `['orgs', 'acme', 'flows']`. */
  segments: string[];
  /** The URL's query. */
  query: URLSearchParams;
  /** The request's cookies (decoded values). */
  cookies: Readonly<Record<string, string | undefined>>;
  /** The request carries a session cookie (valid or not). */
  signedIn: boolean;
}

/** Where a service's built UI is and which URL patterns are its pages. */
export interface WebUiOptions {
  /** The Vite build's output: `index.html`, `assets/`, `favicon.svg`, `.vite/manifest.json`. */
  dir: string;
  /** Route patterns that answer the UI's `index.html` (the client router shows the page), e.g. `/`, `/orgs/*`. */
  pages: string[];
  /** What a page needs first (see PageRequest). */
  preloads?: (page: PageRequest) => PagePreloads | undefined;
  /** Serve the build's `/favicon.svg` (default true); false when the service serves its own icon. */
  favicon?: boolean;
}

/** A chunk of the Vite manifest (`build.manifest`). */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The `<link>` tags of `preloads`, leaving out files `html` already loads. */
function preloadLinks(preloads: PagePreloads, manifest: Record<string, ManifestChunk>, html: string): string {
  const links: string[] = [];
  for (const path of preloads.fetches ?? []) {
    // Only the service's own paths: `//host` would be another origin.
    if (path.startsWith('/') && !path.startsWith('//')) links.push(`<link rel="preload" as="fetch" crossorigin href="${attribute(path)}">`);
  }
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const module of preloads.modules ?? []) visit(module);
  const loaded = (file: string) => html.includes(`/${file}"`);
  // Crossorigin as the module loader and Vite's CSS loader ask for them, so the browser uses these answers.
  for (const file of scripts) if (!loaded(file)) links.push(`<link rel="modulepreload" crossorigin href="/${attribute(file)}">`);
  for (const file of styles) if (!loaded(file)) links.push(`<link rel="preload" as="style" crossorigin href="/${attribute(file)}">`);
  return links.join('');
}

/** A request URL's decoded path segments and its query (undefined when a segment is not valid percent-encoding). */
function pageUrl(url: string): Pick<PageRequest, 'segments' | 'query'> | undefined {
  const at = url.indexOf('?');
  try {
    const segments = (at < 0 ? url : url.slice(0, at)).split('/').filter(Boolean).map(decodeURIComponent);
    return { segments, query: new URLSearchParams(at < 0 ? '' : url.slice(at + 1)) };
  } catch {
    return undefined;
  }
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

/** The pages of the kit every UI has (web.md, "Administration"): People, Account, and an invitation link's page. */
export const KIT_PAGES = ['/people', '/account', '/invite/:token'];

/** A registered web UI: its page answer, for a route that decides itself when to give it (the SMS service's `/`). */
export interface WebUi {
  /** Answers the UI's `index.html` (with its preloads and headers), as every page URL does. */
  page(request: FastifyRequest, reply: import('fastify').FastifyReply): Promise<unknown>;
}

/**
 * Serves a service's built web UI: hashed assets with a year's caching, and
 * `index.html` (never cached, with a strict Content-Security-Policy) for every
 * page URL, the kit's own pages (KIT_PAGES) included. Before the UI is built, page URLs answer 503 with how to build it.
 */
export async function registerWebUi(app: App, options: WebUiOptions): Promise<WebUi> {
  const fastifyStatic = (await import('@fastify/static')).default;
  const indexFile = join(options.dir, 'index.html');
  const manifestFile = join(options.dir, '.vite', 'manifest.json');
  let index: string | undefined;
  let manifest: Record<string, ManifestChunk> | undefined;
  // Read when first asked: a UI built after the service started is picked up without a restart.
  const readIndex = () => {
    if (index === undefined && existsSync(indexFile)) {
      index = readFileSync(indexFile, 'utf8');
      try {
        manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
      } catch {
        // A build without a manifest serves its pages without preloads.
        manifest = {};
      }
    }
    return index;
  };
  const withPreloads = (html: string, request: FastifyRequest): string => {
    if (!options.preloads) return html;
    const url = pageUrl(request.url);
    const preloads = url && options.preloads({ ...url, cookies: cookiesOf(request), signedIn: sessionTokenOf(request) !== undefined });
    const links = preloads ? preloadLinks(preloads, manifest ?? {}, html) : '';
    return links ? html.replace('</head>', `${links}</head>`) : html;
  };

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

  if (options.favicon !== false) {
    app.get('/favicon.svg', { schema: { hide: true } }, async (_request, reply) => {
      const file = join(options.dir, 'favicon.svg');
      if (!existsSync(file)) return reply.status(404).type('text/plain').send('Not found');
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(readFileSync(file));
    });
  }

  const page = async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const html = readIndex();
    reply
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8');
    if (!html) return reply.status(503).send(NOT_BUILT);
    return reply.send(withPreloads(html, request));
  };
  for (const url of [...options.pages, ...KIT_PAGES]) app.get(url, { schema: { hide: true } }, page);
  return { page };
}

/** The directory of the package whose module is `moduleUrl` (the nearest one with a package.json): from `src/` and from `dist/` alike. */
export function packageDirOf(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
