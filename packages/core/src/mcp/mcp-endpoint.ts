import type { Server } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http-server.ts';
import { createDualEraHandler } from './dual-era-handler.ts';
import { plainToolCall, type PlainToolCall } from './plain-tool-call.ts';
import { jsonRpcErrorBody, type ProtocolEra } from './protocol-eras.ts';
import { createMcpGuard, type McpGuardOptions } from './request-guard.ts';

/** How a service mounts its MCP endpoints on the shared plumbing. */
export interface McpEndpointOptions<C> {
  /** The endpoint paths (e.g. the full one and a read-only one); each answers POST, and 405 to GET and DELETE. */
  paths: readonly string[];
  /** Origin and Host checks (PUBLIC_BASE_URL, MCP_ALLOWED_ORIGINS, HOST). */
  guard: McpGuardOptions;
  /** The request's caller, as the service's own authentication hook left it (may narrow it by path). */
  callerOf(request: FastifyRequest): C;
  /** A fresh SDK server for one request of a caller. */
  serverFor(caller: C, era: ProtocolEra): Server;
  /** Answers a plain tools/call without the SDK, byte for byte as the SDK would; undefined leaves it to the SDK. */
  fastPath?(request: FastifyRequest, caller: C, call: PlainToolCall): Promise<string | undefined>;
  /** Answers a 2025-era tools/call that carries a progress token as an SSE stream with its progress (tools that report some). */
  progressStreams?: boolean;
}

function webHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

const NOT_ALLOWED = 'Method not allowed: this stateless MCP server takes JSON-RPC over POST only (no streams, no sessions).';

/**
 * Mounts a service's MCP endpoints: both protocol eras through the SDK (dual-era-handler.ts), GET and DELETE 405,
 * and a 403 for a foreign `Origin` or, on a loopback address, a foreign `Host`. The Origin/Host check is an
 * app-wide onRequest hook, so register the endpoints before the service's authentication hook: a refused page
 * never reaches the token lookup.
 */
export function registerMcpEndpoint<C>(app: App, options: McpEndpointOptions<C>): void {
  const handler = createDualEraHandler(options.serverFor, {
    onerror: (error) => app.log.debug({ err: error }, 'MCP request refused by the SDK'),
    progressStreams: options.progressStreams,
  });
  const paths = new Set(options.paths);
  const guard = createMcpGuard(options.guard);
  app.addHook('onRequest', async (request, reply) => {
    if (!paths.has(request.routeOptions.url ?? '')) return;
    const refusal = guard(request);
    if (refusal !== undefined) return reply.code(403).header('content-type', 'application/json').send(jsonRpcErrorBody(-32000, refusal));
  });
  app.addHook('onClose', () => handler.close());
  const post = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = options.callerOf(request);
    const call = options.fastPath && plainToolCall(request);
    if (call) {
      const body = await options.fastPath!(request, caller, call);
      if (body !== undefined) return reply.code(200).header('content-type', 'application/json').send(body);
    }
    // The body is already parsed (and size-limited) by Fastify: the SDK takes it as parsedBody.
    const response = await handler.handle(
      new Request(`http://localhost${request.url}`, { method: 'POST', headers: webHeaders(request) }),
      request.body,
      caller,
    );
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') reply.header(name, value);
    });
    // An SSE answer (progress notifications, then the response) goes out as it is written; Fastify cancels it when
    // the client goes away, which ends the request's transport (dual-era-handler.ts).
    if (response.body !== null && response.headers.get('content-type')?.startsWith('text/event-stream')) return reply.send(response.body);
    const text = await response.text();
    return reply.send(text === '' ? undefined : text);
  };
  for (const url of options.paths) {
    app.route({ method: 'POST', url, schema: { hide: true }, handler: post });
    app.route({
      method: ['GET', 'DELETE'],
      url,
      schema: { hide: true },
      handler: (_request, reply) =>
        reply.code(405).header('allow', 'POST').header('content-type', 'application/json').send(jsonRpcErrorBody(-32000, NOT_ALLOWED)),
    });
  }
}
