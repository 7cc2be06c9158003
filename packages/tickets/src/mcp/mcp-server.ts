import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { fromDatabaseError, isAppError, type Logger } from '@switchboard/core';
import type { BoardContext } from '../service/board-context.ts';
import { errorBody } from '../http/error-handler.ts';
import { TOOLS } from '../tools/catalogue.ts';
import { MCP_INSTRUCTIONS } from '../tools/instructions.ts';
import { runTool, type ToolDefinition } from '../tools/tool.ts';

/** Name and version the server reports in `initialize`. */
export const SERVER_INFO = { name: 'switchboard-tickets', version: '1.0.0' } as const;

function jsonSchemaOf(tool: ToolDefinition): Tool['inputSchema'] {
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema as Tool['inputSchema'];
}

// Computed once per process: a stateless server answers tools/list without converting 19 schemas per request.
const TOOL_LIST: Tool[] = TOOLS.map((tool) => ({
  name: tool.name,
  description: tool.description,
  inputSchema: jsonSchemaOf(tool),
  annotations: {
    readOnlyHint: tool.rest.method === 'GET',
    destructiveHint: tool.rest.method === 'DELETE',
    idempotentHint: tool.rest.method !== 'POST',
    openWorldHint: false,
  },
}));
const TOOL_BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));
// The SDK builds an Ajv instance per Server by default (only used for elicitation); one shared instance keeps a request cheap.
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/** A tool's result: the JSON as structuredContent and the same JSON as text. */
export function toolResult(result: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result as Record<string, unknown> };
}

/** Whether `name` is a tool of this server. */
export function isTool(name: string): boolean {
  return TOOL_BY_NAME.has(name);
}

/** Runs a tool for tools/call: its result, or a refusal as an isError result that says how to fix the call. */
export async function callTool(tool: ToolDefinition | string, ctx: BoardContext, logger: Logger, args: unknown): Promise<CallToolResult> {
  const definition = typeof tool === 'string' ? TOOL_BY_NAME.get(tool)! : tool;
  try {
    return toolResult(await runTool(definition, ctx, args ?? {}));
  } catch (error) {
    // A database fault (out of reach, disk full) is the catalogue's 503 unavailable, which says to retry.
    const known = isAppError(error) ? error : fromDatabaseError(error);
    if (!known) {
      logger.error({ err: error, tool: definition.name }, 'tool failed');
      return { isError: true, content: [{ type: 'text', text: `${definition.name} failed with an internal error; retry the call, and report it if it persists.` }] };
    }
    if (!isAppError(error)) logger.warn({ err: error, tool: definition.name }, 'database unavailable; the tool call was refused');
    return { isError: true, content: [{ type: 'text', text: known.message }], structuredContent: errorBody(known) };
  }
}

/**
 * An MCP server for one request of one caller (stateless Streamable HTTP: any
 * instance answers any request). Only the low-level Server is built per
 * request; tool schemas and handlers are shared.
 */
export function createMcpServer(ctx: BoardContext, logger: Logger): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: MCP_INSTRUCTIONS, jsonSchemaValidator: SHARED_VALIDATOR });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = TOOL_BY_NAME.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}". Valid tools: ${TOOLS.map((t) => t.name).join(', ')}.`);
    return callTool(tool, ctx, logger, request.params.arguments);
  });
  return server;
}
