import { classifyInboundRequest, type CallToolResult, type Implementation } from '@modelcontextprotocol/server';
import type { FastifyRequest } from 'fastify';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION, type ProtocolEra } from './protocol-eras.ts';

/** A `tools/call` in its plainest form, which a service may answer without the SDK (the answer must be the SDK's, byte for byte). */
export interface PlainToolCall {
  era: ProtocolEra;
  id: string | number;
  name: string;
  args: Record<string, unknown> | undefined;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const LEGACY_PARAMS = new Set(['name', 'arguments']);
const MODERN_PARAMS = new Set(['name', 'arguments', '_meta']);
/** The `_meta` key the 2026-07-28 codec stamps the server's identity under in every result. */
const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: Set<string>): boolean {
  for (const key of Object.keys(value)) if (!allowed.has(key)) return false;
  return true;
}

/**
 * Envelopes the SDK's classifier accepted, by their JSON: a client sends the same `_meta` on every request, and
 * with the method and headers pinned as modernCall pins them, the classifier's answer depends on the envelope
 * alone. Bounded: emptied when full.
 */
const acceptedEnvelopes = new Set<string>();
const ENVELOPES_KEPT = 256;

/** The 2026-07-28 call the SDK would serve as is: the headers name exactly what the body does, and its classifier accepts the envelope. */
function modernCall(request: FastifyRequest, body: Record<string, unknown>, params: Record<string, unknown>): boolean {
  const { 'mcp-method': method, 'mcp-name': name } = request.headers;
  if (method !== 'tools/call' || typeof name !== 'string' || name !== params.name || name.startsWith('=?')) return false;
  if (!onlyKeys(params, MODERN_PARAMS) || !isPlainObject(params._meta)) return false;
  const envelope = JSON.stringify(params._meta);
  if (acceptedEnvelopes.has(envelope)) return true;
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    body,
    protocolVersionHeader: MODERN_PROTOCOL_VERSION,
    mcpMethodHeader: method,
    mcpNameHeader: name,
  });
  const accepted = route.kind === 'modern' && route.messageKind === 'request' && route.classification.revision === MODERN_PROTOCOL_VERSION;
  if (accepted) {
    if (acceptedEnvelopes.size >= ENVELOPES_KEPT) acceptedEnvelopes.clear();
    acceptedEnvelopes.add(envelope);
  }
  return accepted;
}

/**
 * The one kind of request a service may answer itself: POST with Content-Type exactly application/json, a single
 * JSON-RPC request `tools/call` with a string or integer id and `{name, arguments?}`; in the legacy era with
 * Accept naming JSON and SSE and a legacy (or no) `MCP-Protocol-Version`, in the modern era with the envelope and
 * the three headers exactly as the body says. Anything else (batches, notifications, `_meta` on a legacy call,
 * odd headers) returns undefined and goes through the SDK, which owns the protocol.
 */
export function plainToolCall(request: FastifyRequest): PlainToolCall | undefined {
  if (request.method !== 'POST' || request.headers['content-type'] !== 'application/json') return undefined;
  const body = request.body;
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call' || !onlyKeys(body, REQUEST_KEYS)) return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  if (!isPlainObject(params) || typeof params.name !== 'string') return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  const call = { id, name: params.name, args: params.arguments as Record<string, unknown> | undefined };
  const version = request.headers['mcp-protocol-version'];
  if (version === MODERN_PROTOCOL_VERSION) return modernCall(request, body, params) ? { era: 'modern', ...call } : undefined;
  if (version !== undefined && (typeof version !== 'string' || !LEGACY_PROTOCOL_VERSIONS.includes(version))) return undefined;
  const accept = request.headers.accept;
  if (typeof accept !== 'string' || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  return onlyKeys(params, LEGACY_PARAMS) ? { era: 'legacy', ...call } : undefined;
}

/**
 * The JSON-RPC response to a plain call exactly as the SDK writes it: `{result, jsonrpc, id}`, the result's
 * fields in the order of its schema (`_meta`, `content`, `structuredContent`, `isError`), and in the modern era
 * `resultType` and the server's identity in `_meta`. `structuredText`, when given, is the JSON of
 * `structuredContent` already made (a success's text is that JSON: the record is serialized once, not twice).
 */
export function toolCallResponseBody(call: PlainToolCall, result: CallToolResult, serverInfo: Implementation, structuredText?: string): string {
  const modern = call.era === 'modern';
  let fields = '';
  if (result._meta !== undefined) fields += `"_meta":${JSON.stringify(modern ? { ...result._meta, [SERVER_INFO_META_KEY]: serverInfo } : result._meta)},`;
  fields += `"content":${JSON.stringify(result.content)}`;
  if (result.structuredContent !== undefined) fields += `,"structuredContent":${structuredText ?? JSON.stringify(result.structuredContent)}`;
  if (result.isError !== undefined) fields += `,"isError":${JSON.stringify(result.isError)}`;
  if (modern) {
    fields += ',"resultType":"complete"';
    if (result._meta === undefined) fields += `,"_meta":${JSON.stringify({ [SERVER_INFO_META_KEY]: serverInfo })}`;
  }
  return `{"result":{${fields}},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`;
}
