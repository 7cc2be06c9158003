import { registerMcpEndpoint as mountMcpEndpoint, type App, type Logger, type McpGuardOptions } from '@switchboard/core';
import { boardOf } from '../http/caller.ts';
import { MCP_PATH, READONLY_MCP_PATH } from '../http/paths.ts';
import { accessOf } from '../service/board-context.ts';
import { directToolCall } from './direct-tool-call.ts';
import { createMcpServer, type McpCaller } from './mcp-server.ts';

export { MCP_PATH, READONLY_MCP_PATH } from '../http/paths.ts';

/**
 * Mounts the MCP endpoints on core's dual-era plumbing: `…/mcp` with the tools the caller's access allows and
 * `…/mcp/readonly` with the read tools only, whatever the token may do (it narrows, never widens). Register it
 * before the authentication hook (core's Origin/Host check runs first).
 */
export function registerMcpEndpoint(app: App, guard: McpGuardOptions): void {
  mountMcpEndpoint<McpCaller & { logger: Logger }>(app, {
    paths: [MCP_PATH, READONLY_MCP_PATH],
    guard,
    callerOf(request) {
      const ctx = boardOf(request);
      const readOnly = request.routeOptions.url === READONLY_MCP_PATH || accessOf(ctx.caller) === 'read';
      return { ctx, readOnly, logger: request.log as Logger };
    },
    serverFor: (caller) => createMcpServer(caller, caller.logger),
    fastPath: (request, caller, call) => directToolCall(request, caller, call),
  });
}
