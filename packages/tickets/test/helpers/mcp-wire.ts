import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import type { Board } from '../helpers.ts';

/** The modern revision. */
export const MODERN = '2026-07-28';

/** The per-request envelope of a 2026-07-28 request's `_meta`. */
export function envelope(version = MODERN) {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientInfo': { name: 'switchboard-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/** One raw HTTP exchange with an MCP endpoint: status, headers and the parsed JSON body. */
export interface WireAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: the JSON-RPC answer as parsed, a result or an error; each test reads and asserts the fields it expects.
  body: any;
}

/** POSTs a JSON-RPC message to an MCP endpoint of the board with the board's token (or the one given) and extra headers. */
export async function postMcp(
  board: Board,
  message: unknown,
  options: { headers?: Record<string, string>; token?: string; path?: string } = {},
): Promise<WireAnswer> {
  const headers = {
    authorization: `Bearer ${options.token ?? board.token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...options.headers,
  };
  const response = await fetch(`${board.url}${options.path ?? '/api/mcp/v1/mcp'}`, { method: 'POST', headers, body: JSON.stringify(message) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** A 2026-07-28 request as a v2 client sends it: the envelope in `_meta` and the three standard headers. */
export function modernRequest(
  board: Board,
  method: string,
  params: Record<string, unknown> = {},
  options: { token?: string; path?: string; id?: number } = {},
) {
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
  if (method === 'tools/call') headers['mcp-name'] = String(params.name);
  return postMcp(
    board,
    { jsonrpc: '2.0', id: options.id ?? 1, method, params: { ...params, _meta: envelope() } },
    { headers, token: options.token, path: options.path },
  );
}

/** How a v2 client negotiates: `legacy` (initialize), `auto` (server/discover first) or pinned to 2026-07-28. */
export type V2Mode = 'legacy' | 'auto' | 'pinned';

/** Connects the SDK's v2 client (`@modelcontextprotocol/client`) to an MCP endpoint of the board. */
export async function connectV2(board: Board, mode: V2Mode, options: { token?: string; path?: string } = {}): Promise<ClientV2> {
  const client = new ClientV2({ name: 'switchboard-test-v2', version: '1.0.0' }, { versionNegotiation: { mode: mode === 'pinned' ? { pin: MODERN } : mode } });
  const url = new URL(`${board.url}${options.path ?? '/api/mcp/v1/mcp'}`);
  await client.connect(new TransportV2(url, { requestInit: { headers: { Authorization: `Bearer ${options.token ?? board.token}` } } }));
  return client;
}
