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

/** How the legacy leg answers. */
export interface DualEraOptions {
  /** Logs what the SDK refused. */
  onerror?: (error: Error) => void;
  /** Answers a legacy `tools/call` that carries a progress token as an SSE stream, so its progress notifications reach the client. */
  progressStreams?: boolean;
}

/**
 * A legacy request that wants its progress: one JSON-RPC `tools/call` (not a batch) whose `params._meta.progressToken`
 * is a string or a number, from a client that accepts SSE. A client accepting JSON alone keeps the JSON answer.
 */
function asksForProgress(request: Request, parsedBody: unknown): boolean {
  if (typeof parsedBody !== 'object' || parsedBody === null || Array.isArray(parsedBody)) return false;
  // Optional chaining reads through anything: a params or _meta that is no object has no progressToken.
  const body = parsedBody as { method?: unknown; id?: unknown; params?: { _meta?: { progressToken?: unknown } } };
  if (body.method !== 'tools/call' || body.id === undefined) return false;
  const token = body.params?._meta?.progressToken;
  if (typeof token !== 'string' && typeof token !== 'number') return false;
  return request.headers.get('accept')?.includes('text/event-stream') === true;
}

/**
 * The SSE body `body`, calling `release` once when it ends (after the response to the request: the SDK closes the
 * stream then) or when its reader cancels it (the client went away): the request's transport and server are closed
 * then, which aborts a tool call still going (`ctx.mcpReq.signal`), and nothing of the exchange stays behind.
 */
function releasingAtEnd(body: ReadableStream<Uint8Array>, release: () => Promise<void>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let released = false;
  const once = async () => {
    if (released) return;
    released = true;
    await release();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        controller.close();
      } catch (error) {
        controller.error(error);
      }
      await once();
    },
    async cancel(reason) {
      try {
        await reader.cancel(reason);
      } finally {
        await once();
      }
    },
  });
}

/**
 * Both protocol eras on one stateless endpoint, with the SDK doing the protocol. The SDK's `createMcpHandler`
 * serves 2026-07-28 (`server/discover`, the `_meta` envelope, the `MCP-Protocol-Version` / `Mcp-Method` /
 * `Mcp-Name` checks with -32020, -32022 naming the supported versions, `resultType` and cache fields); its
 * predicate `isLegacyRequest` routes everything else to the legacy Streamable HTTP transport, one per request, kept
 * in JSON mode (the SDK's own stateless fallback answers with SSE streams, and the board's clients get JSON today)
 * except, with `progressStreams`, for a tools/call asking for progress: that one is answered as an SSE stream
 * carrying its `notifications/progress` and then its response, and its transport lives until the stream ends.
 */
export function createDualEraHandler<C>(serverFor: McpServerFor<C>, options: DualEraOptions = {}): DualEraHandler<C> {
  // The SDK hands the factory the Request it was given: that is how a request's caller reaches its server.
  const callers = new WeakMap<Request, C>();
  const modern = createMcpHandler(
    ({ requestInfo }) => {
      const caller = requestInfo && callers.get(requestInfo);
      if (caller === undefined) throw new Error('an MCP request reached the modern handler without its caller');
      return serverFor(caller, 'modern');
    },
    { legacy: 'reject', onerror: options.onerror },
  );
  async function legacy(request: Request, parsedBody: unknown, caller: C): Promise<Response> {
    const server = serverFor(caller, 'legacy');
    const stream = options.progressStreams === true && asksForProgress(request, parsedBody);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !stream });
    const release = async () => {
      await transport.close();
      await server.close();
    };
    await server.connect(transport);
    let response: Response;
    try {
      response = await transport.handleRequest(request, { parsedBody });
    } catch (error) {
      await release();
      throw error;
    }
    // A refusal (406, 400…) is JSON even when a stream was asked for: only a stream outlives this call.
    if (!stream || response.body === null || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await release();
      return response;
    }
    return new Response(releasingAtEnd(response.body, release), { status: response.status, headers: response.headers });
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
