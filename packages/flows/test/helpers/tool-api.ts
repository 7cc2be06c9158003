import { createServer, type Server } from 'node:http';

/** One request the fake tool API received. */
export interface ToolApiRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A fake third-party API for http tools, listening on `host` (tests use
 * 127.0.0.2 so that FLOWS_ALLOWED_HOSTS can allow it while 127.0.0.1 stays refused):
 * GET /weather/:city → {"city", "temp_c"}; /fail → 500; /big → 2 MB of text;
 * /redirect?to=URL → 302 to URL; /hang → never answers; POST /orders echoes the JSON body.
 */
export class ToolApi {
  readonly requests: ToolApiRequest[] = [];
  private server: Server | undefined;
  base = '';

  async start(host = '127.0.0.2'): Promise<this> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      this.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const url = new URL(req.url!, 'http://x');
      const weather = /^\/weather\/([^/]+)$/.exec(url.pathname);
      if (weather) {
        const city = decodeURIComponent(weather[1]);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ city, temp_c: city.length * 3 }));
      } else if (url.pathname === '/fail') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('tool backend exploded');
      } else if (url.pathname === '/big') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(2 * 1024 * 1024));
      } else if (url.pathname === '/redirect') {
        res.writeHead(302, { location: url.searchParams.get('to')! }).end();
      } else if (url.pathname === '/hang') {
        // never answers
      } else if (url.pathname === '/orders' && req.method === 'POST') {
        res
          .writeHead(201, { 'content-type': 'application/json' })
          .end(JSON.stringify({ received: JSON.parse(body || 'null'), authorization: req.headers.authorization ?? null }));
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no such route');
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(0, host, resolve));
    this.base = `http://${host}:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
