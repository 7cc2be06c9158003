import { SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import type { BoardContext } from '../service/board-context.ts';
import { callTool, isTool } from './mcp-server.ts';

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The one plain `tools/call` the SDK transport would accept as is: POST, Accept
 * with JSON and SSE, Content-Type exactly application/json, a supported (or no)
 * protocol version header, a single JSON-RPC request with exactly
 * {jsonrpc, id, method, params: {name, arguments?}} and a known tool. Anything
 * else (batches, notifications, initialize, _meta, tasks, unknown tools, odd
 * headers) returns undefined and goes through the SDK, which owns the protocol.
 */
function plainToolCall(request: FastifyRequest): { id: string | number; name: string; args: unknown } | undefined {
  const { accept, 'content-type': contentType, 'mcp-protocol-version': version } = request.headers;
  if (typeof accept !== 'string' || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (contentType !== 'application/json') return undefined;
  if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return undefined;
  const body = request.body;
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  for (const key of Object.keys(body)) if (!REQUEST_KEYS.has(key)) return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  if (!isPlainObject(params) || typeof params.name !== 'string' || !isTool(params.name)) return undefined;
  for (const key of Object.keys(params)) if (key !== 'name' && key !== 'arguments') return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  return { id, name: params.name, args: params.arguments };
}

/**
 * The JSON-RPC response exactly as the SDK writes it (`{result, jsonrpc, id}`,
 * the result's fields in CallToolResult schema order), reusing the text of a
 * successful result as its structuredContent: toolResult() makes the text the
 * JSON of structuredContent, so the ticket is serialized once, not twice.
 */
function responseBody(id: string | number, result: CallToolResult): string {
  let fields = `"content":${JSON.stringify(result.content)}`;
  if (result.structuredContent !== undefined) {
    const first = result.content[0];
    const structured = !result.isError && first?.type === 'text' ? first.text : JSON.stringify(result.structuredContent);
    fields += `,"structuredContent":${structured}`;
  }
  if (result.isError !== undefined) fields += `,"isError":${JSON.stringify(result.isError)}`;
  return `{"result":{${fields}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}

/**
 * Answers a plain tools/call without the SDK's web Request/Response, JSON-RPC
 * re-validation and second serialization (about a third of an MCP ticket read);
 * the answer is byte-identical to the SDK's (a test compares both paths).
 * Returns undefined for every other request.
 */
export async function directToolCall(request: FastifyRequest, ctx: BoardContext): Promise<string | undefined> {
  const call = plainToolCall(request);
  if (!call) return undefined;
  return responseBody(call.id, await callTool(call.name, ctx, request.log as Logger, call.args));
}
