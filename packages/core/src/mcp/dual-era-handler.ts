import { WebStandardStreamableHTTPServerTransport, createMcpHandler, isLegacyRequest, type Server } from '@modelcontextprotocol/server';
import type { ProtocolEra } from './protocol-eras.ts';

/** A fresh SDK server for one request of one caller, in the era the request speaks (the same tools for both). */
export type McpServerFor<C> = (caller: C, era: ProtocolEra) => Server;

/** Serves one MCP request of either era for a caller the service has already authenticated. */
export interface DualEraHandler<C> {
  handle(request: Request, parsedBody: unknown, caller: C): Promise<Response>;
  /** Ends the modern leg's exchanges still in flight (on the app's close). */
  close(): Promise<void>;
}

/**
 * Both protocol eras on one stateless endpoint, with the SDK doing the protocol. The SDK's `createMcpHandler`
 * serves 2026-07-28 (`server/discover`, the `_meta` envelope, the `MCP-Protocol-Version` / `Mcp-Method` /
 * `Mcp-Name` checks with -32020, -32022 naming the supported versions, `resultType` and cache fields); its
 * predicate `isLegacyRequest` routes everything else to the legacy Streamable HTTP transport, kept here in JSON
 * mode (the SDK's own stateless fallback answers with SSE streams, and the board's clients get JSON today).
 */
export function createDualEraHandler<C>(serverFor: McpServerFor<C>, onerror?: (error: Error) => void): DualEraHandler<C> {
  // The SDK hands the factory the Request it was given: that is how a request's caller reaches its server.
  const callers = new WeakMap<Request, C>();
  const modern = createMcpHandler(
    ({ requestInfo }) => {
      const caller = requestInfo && callers.get(requestInfo);
      if (caller === undefined) throw new Error('an MCP request reached the modern handler without its caller');
      return serverFor(caller, 'modern');
    },
    { legacy: 'reject', onerror },
  );
  async function legacy(request: Request, parsedBody: unknown, caller: C): Promise<Response> {
    const server = serverFor(caller, 'legacy');
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody });
    } finally {
      await transport.close();
      await server.close();
    }
  }
  return {
    async handle(request, parsedBody, caller) {
      if (await isLegacyRequest(request, parsedBody)) return legacy(request, parsedBody, caller);
      callers.set(request, caller);
      return modern.fetch(request, { parsedBody });
    },
    close: () => modern.close(),
  };
}
