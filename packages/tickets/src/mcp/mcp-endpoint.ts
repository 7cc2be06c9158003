import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { App, Logger } from '@switchboard/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { boardOf } from '../http/caller.ts';
import { MCP_PATH } from '../http/paths.ts';
import { createMcpServer } from './mcp-server.ts';
import { directToolCall } from './direct-tool-call.ts';

export { MCP_PATH } from '../http/paths.ts';

function webHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

async function handle(request: FastifyRequest, reply: FastifyReply) {
  const ctx = boardOf(request);
  if (request.method !== 'POST') {
    // Stateless mode: no server-initiated stream and no session to delete.
    reply.code(405).header('allow', 'POST');
    return { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this stateless MCP server takes JSON-RPC over POST only.' }, id: null };
  }
  const direct = await directToolCall(request, ctx);
  if (direct !== undefined) return reply.code(200).header('content-type', 'application/json').send(direct);
  const server = createMcpServer(ctx, request.log as Logger);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const url = `http://${request.host || 'localhost'}${request.url}`;
    const response = await transport.handleRequest(new Request(url, { method: 'POST', headers: webHeaders(request) }), { parsedBody: request.body });
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') reply.header(name, value);
    });
    const body = await response.text();
    return reply.send(body === '' ? undefined : body);
  } finally {
    await transport.close();
    await server.close();
  }
}

/** Mounts the MCP endpoint: POST for JSON-RPC; GET and DELETE answer 405 (stateless, JSON responses). */
export function registerMcpEndpoint(app: App): void {
  for (const method of ['POST', 'GET', 'DELETE'] as const) {
    app.route({ method, url: MCP_PATH, schema: { hide: true }, handler: (request, reply) => handle(request, reply) });
  }
}
