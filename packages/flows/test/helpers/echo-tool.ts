import { createServer, type IncomingMessage, type Server } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** One request the echo server received. */
export interface EchoedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A tool server that sends every request back, the worst case for a secret:
 * - `/echo…` answers 200 JSON `{method, url, headers, body}`;
 * - `/echo-text…` the same JSON as text/plain (a secret inside a text answer);
 * - `/refuse…` answers 401 text/plain with the same JSON (a tool error that quotes the request);
 * - `/mcp` is a stateless MCP server (Streamable HTTP) whose tool `whoami` answers the request's headers,
 *   whose description quotes the Authorization header, and whose tool `fail` fails quoting it;
 * - `/mcp-refuse` refuses the MCP connection with 401, quoting the Authorization header.
 * Listens on 127.0.0.2 (tests allow it with FLOWS_ALLOWED_HOSTS).
 */
export class EchoTool {
  readonly requests: EchoedRequest[] = [];
  private server: Server | undefined;
  base = '';

  async start(host = '127.0.0.2'): Promise<this> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      const echoed = { method: req.method!, url: req.url!, headers: req.headers, body };
      this.requests.push(echoed);
      const path = new URL(req.url!, 'http://x').pathname;
      if (path === '/mcp') return this.mcp(req, res, body);
      if (path === '/mcp-refuse') {
        res.writeHead(401, { 'content-type': 'text/plain' }).end(`refused ${req.headers.authorization ?? ''}`);
      } else if (path.startsWith('/echo-text')) {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(JSON.stringify(echoed));
      } else if (path.startsWith('/echo')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(echoed));
      } else if (path.startsWith('/refuse')) {
        res.writeHead(401, { 'content-type': 'text/plain' }).end(JSON.stringify(echoed));
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no such route');
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(0, host, resolve));
    this.base = `http://${host}:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  /** A new MCP server per request (stateless), which knows the request's headers. */
  private async mcp(req: IncomingMessage, res: Parameters<StreamableHTTPServerTransport['handleRequest']>[1], body: string): Promise<void> {
    const authorization = String(req.headers.authorization ?? '');
    const server = new McpServer({ name: 'echo', version: '1.0.0' });
    server.registerTool('whoami', { description: `Says who you are (you sent ${authorization})` }, async () => ({
      content: [{ type: 'text', text: JSON.stringify({ headers: req.headers }) }],
    }));
    server.registerTool('fail', { description: 'Always fails' }, async () => ({
      isError: true,
      content: [{ type: 'text', text: `no access for ${authorization}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body === '' ? undefined : JSON.parse(body));
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
