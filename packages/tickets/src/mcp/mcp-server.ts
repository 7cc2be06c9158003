import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult, type Tool } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { z } from 'zod';
import { SERVED_PROTOCOL_VERSIONS, fromDatabaseError, isAppError, toolFailure, toolResult, type Logger } from '@switchboard/core';
import type { BoardContext } from '../service/board-context.ts';
import { TOOLS } from '../tools/catalogue.ts';
import { MCP_INSTRUCTIONS } from '../tools/instructions.ts';
import { runTool, type McpToolDefinition } from '../tools/tool.ts';

/** Name and version the server reports (`initialize`, `server/discover` and every 2026-07-28 result). */
export const SERVER_INFO = { name: 'switchboard-tickets', version: '1.0.0' } as const;

/** A caller of the MCP endpoint: its board, and whether it may see only the read tools (a read token, or …/mcp/readonly). */
export interface McpCaller {
  ctx: BoardContext;
  readOnly: boolean;
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  // Input mode leaves objects open (no additionalProperties: false): an answer that gains a field stays valid for
  // clients that check it against an older list (SDK 1.x clients validate structuredContent). The tests check the
  // closed form too, so every field an answer has is in its schema.
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function toolOf(tool: McpToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.input) as Tool['inputSchema'],
    outputSchema: jsonSchemaOf(tool.output) as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

// Computed once per process: a stateless server answers tools/list without converting 19 schemas per request.
const ALL_TOOLS: Tool[] = TOOLS.map(toolOf);
const READ_TOOLS: Tool[] = ALL_TOOLS.filter((tool) => tool.annotations?.readOnlyHint === true);
const TOOL_BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));
// The SDK builds a validator per Server by default (used only for elicitation); one shared instance keeps a request cheap.
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/** The tools a caller sees and may call: the read tools only for a read-only caller. */
export function toolsFor(caller: McpCaller): Tool[] {
  return caller.readOnly ? READ_TOOLS : ALL_TOOLS;
}

/** The caller's tool of that name, or undefined when it does not exist or the caller may not call it (a read-only caller, another tool). */
export function toolFor(caller: McpCaller, name: string): McpToolDefinition | undefined {
  const tool = TOOL_BY_NAME.get(name);
  return tool && (!caller.readOnly || tool.annotations.readOnlyHint) ? tool : undefined;
}

/** Runs a tool for tools/call: its result, or a refusal as an isError result that says how to fix the call. */
export async function callTool(tool: McpToolDefinition | string, ctx: BoardContext, logger: Logger, args: unknown): Promise<CallToolResult> {
  const definition = typeof tool === 'string' ? TOOL_BY_NAME.get(tool)! : tool;
  try {
    return toolResult(await runTool(definition, ctx, args ?? {}));
  } catch (error) {
    // A database fault (out of reach, disk full) is the catalogue's 503 unavailable, which says to retry.
    const known = isAppError(error) ? error : fromDatabaseError(error);
    if (!known) {
      logger.error({ err: error, tool: definition.name }, 'tool failed');
      return toolFailure('internal', `${definition.name} failed with an internal error; retry the call, and report it if it persists.`);
    }
    if (!isAppError(error)) logger.warn({ err: error, tool: definition.name }, 'database unavailable; the tool call was refused');
    return toolFailure(known.code, known.message, known.details);
  }
}

/** The protocol error of a call to a tool the caller does not have: the same for one that does not exist and one a read token may not call. */
export function unknownTool(caller: McpCaller, name: string): ProtocolError {
  const names = toolsFor(caller).map((tool) => tool.name);
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${name}". Valid tools: ${names.join(', ')}.`);
}

/**
 * An MCP server for one request of one caller (stateless: any instance answers any request), for either
 * protocol era. Only the low-level Server is built per request; tool schemas and handlers are shared.
 */
export function createMcpServer(caller: McpCaller, logger: Logger): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: MCP_INSTRUCTIONS,
    jsonSchemaValidator: SHARED_VALIDATOR,
    supportedProtocolVersions: [...SERVED_PROTOCOL_VERSIONS],
    // The list depends on the caller's access and changes only with a new version of the board: one client may keep it a minute.
    cacheHints: { 'tools/list': { ttlMs: 60_000, cacheScope: 'private' }, 'server/discover': { ttlMs: 60_000, cacheScope: 'private' } },
  });
  server.setRequestHandler('tools/list', async () => ({ tools: toolsFor(caller) }));
  server.setRequestHandler('tools/call', async (request): Promise<CallToolResult> => {
    const tool = toolFor(caller, request.params.name);
    if (!tool) throw unknownTool(caller, request.params.name);
    return callTool(tool, caller.ctx, logger, request.params.arguments);
  });
  return server;
}
