import { toolCallResponseBody, type Logger, type PlainToolCall } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import { SERVER_INFO, callTool, toolFor, type McpCaller } from './mcp-server.ts';

/**
 * Answers a plain tools/call (core's plainToolCall: either era, the plainest form) without the SDK's web
 * Request/Response, JSON-RPC re-validation and second serialization, about a third of an MCP ticket read.
 * The answer is byte-identical to the SDK's (mcp-direct-call.test.ts compares both paths for both eras).
 * Undefined for a tool the caller does not have: the SDK answers that refusal.
 */
export async function directToolCall(request: FastifyRequest, caller: McpCaller, call: PlainToolCall): Promise<string | undefined> {
  const tool = toolFor(caller, call.name);
  if (!tool) return undefined;
  const result = await callTool(tool, caller.ctx, request.log as Logger, call.args);
  // A success's text is the JSON of its structuredContent (toolResult): reused, not made a second time.
  const first = result.content[0];
  const structuredText = !result.isError && first?.type === 'text' ? first.text : undefined;
  return toolCallResponseBody(call, result, SERVER_INFO, structuredText);
}
