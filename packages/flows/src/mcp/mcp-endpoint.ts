import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import {
  SERVED_PROTOCOL_VERSIONS,
  isAppError,
  registerMcpEndpoint,
  toolCallResponseBody,
  type App,
  type Logger,
  type McpGuardOptions,
  type PlainToolCall,
} from '@switchboard/core';
import { FlowsError } from '../domain/errors.ts';
import { orgNotFound, type Authorize } from '../http/auth.ts';
import { ORG_MCP_PATH } from '../http/mcp-routes.ts';
import { GET_FLOW_RUN, flowOfTool, getFlowRun, listFlowTools, runFlowTool, type FlowToolsDeps, type FlowsMcpCaller, type ProgressSink } from './flow-tools.ts';

/** Name and version the server reports (`initialize`, `server/discover` and every 2026-07-28 result). */
export const FLOWS_SERVER_INFO = { name: 'switchboard-flows', version: '1.0.0' } as const;

// The SDK builds a validator per Server by default (used only for elicitation); one shared instance keeps a request cheap.
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/** An MCP server for one request of one caller (stateless): the organization's enabled flows as tools, and get_flow_run. */
export function createFlowsMcpServer(deps: FlowToolsDeps, caller: FlowsMcpCaller): Server {
  const server = new Server(FLOWS_SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: 'Each tool runs one of the organization\'s flows; a call that answers status "running" is finished later: ask get_flow_run with its run_id.',
    jsonSchemaValidator: SHARED_VALIDATOR,
    supportedProtocolVersions: [...SERVED_PROTOCOL_VERSIONS],
    // Flows are enabled and disabled from the dashboard: a client keeps the list a few seconds at most.
    cacheHints: { 'tools/list': { ttlMs: 5_000, cacheScope: 'private' }, 'server/discover': { ttlMs: 60_000, cacheScope: 'private' } },
  });
  server.setRequestHandler('tools/list', async () => ({ tools: await listFlowTools(deps, caller.principal) }));
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    if (name === GET_FLOW_RUN) return getFlowRun(deps, caller.principal, args);
    const flow = await flowOfTool(deps, caller.principal, name);
    if (!flow) throw await unknownTool(deps, caller, name);
    const token = ctx.mcpReq._meta?.progressToken;
    let sent = 0;
    const progress: ProgressSink | undefined =
      token === undefined
        ? undefined
        : (message) => {
            sent += 1;
            ctx.mcpReq
              .notify({ method: 'notifications/progress', params: { progressToken: token, progress: sent, message } })
              .catch((error: unknown) => caller.logger.debug({ err: error }, 'an MCP progress notification was not delivered'));
          };
    // The signal aborts when the client goes away (its stream cancelled): the call stops waiting and reporting.
    return runFlowTool(deps, caller, flow, args, progress, ctx.mcpReq.signal);
  });
  return server;
}

/** The protocol error of a call to a tool the endpoint does not list (unknown, disabled or deleted flow). */
async function unknownTool(deps: FlowToolsDeps, caller: FlowsMcpCaller, name: string): Promise<ProtocolError> {
  const names = (await listFlowTools(deps, caller.principal)).map((tool) => tool.name);
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${name}". Valid tools: ${names.join(', ')}.`);
}

/**
 * Answers a plain tools/call of a flow tool (core's plainToolCall, either era) without the SDK's web
 * Request/Response and second serialization, byte for byte as the SDK would (mcp.test.ts compares both paths).
 * Undefined leaves the call to the SDK: get_flow_run, a tool the endpoint does not list, a progress token.
 */
async function directFlowCall(deps: FlowToolsDeps, caller: FlowsMcpCaller, call: PlainToolCall, body: unknown): Promise<string | undefined> {
  if (call.name === GET_FLOW_RUN || (body as { params?: { _meta?: { progressToken?: unknown } } }).params?._meta?.progressToken !== undefined) return undefined;
  const flow = await flowOfTool(deps, caller.principal, call.name);
  if (!flow) return undefined;
  const result = await runFlowTool(deps, caller, flow, call.args);
  // A success's text is the JSON of its structuredContent (toolResult): reused, not made a second time.
  const first = result.content[0];
  return toolCallResponseBody(call, result, FLOWS_SERVER_INFO, !result.isError && first?.type === 'text' ? first.text : undefined);
}

/**
 * Mounts `POST /api/llm/{org_code}/mcp` on core's dual-era plumbing. Its caller is authenticated like `POST …/run`
 * (a run or manage token, a session, an OAuth token with `flows:run`; the same rate limit) after the Origin/Host
 * check; a token of another organization is told the organization does not exist, as a stranger is.
 */
export function registerFlowsMcpEndpoint(app: App, deps: FlowToolsDeps & { guard: McpGuardOptions; authorize: Authorize }): void {
  registerMcpEndpoint<FlowsMcpCaller>(app, {
    paths: [ORG_MCP_PATH],
    guard: deps.guard,
    callerOf: (request) => ({ principal: request.principal!, logger: request.log as Logger }),
    serverFor: (caller) => createFlowsMcpServer(deps, caller),
    fastPath: (request, caller, call) => directFlowCall(deps, caller, call, request.body),
    progressStreams: true,
  });
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.url !== ORG_MCP_PATH || request.method !== 'POST') return;
    const { org_code: orgCode } = request.params as { org_code: string };
    try {
      request.principal = await deps.authorize(request, orgCode, 'run');
    } catch (error) {
      if (isAppError(error) && error instanceof FlowsError && error.apiCode === 'permission_denied') throw orgNotFound(orgCode);
      throw error;
    }
  });
}
