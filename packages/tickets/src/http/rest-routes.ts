import { AppError, type App } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { REST_ENDPOINTS } from '../tools/catalogue.ts';
import { webEndpoints } from '../tools/web-endpoints.ts';
import { grantEndpoints } from '../tools/grant-endpoints.ts';
import { runTool, type ToolDefinition } from '../tools/tool.ts';
import { boardOf } from './caller.ts';
import { accessOf } from '../service/board-context.ts';
import { BASE_PATH } from './paths.ts';

export { BASE_PATH } from './paths.ts';

function restArguments(tool: ToolDefinition, request: FastifyRequest): Record<string, unknown> {
  const { method, idParam, aliases } = tool.rest;
  const source = method === 'GET' || method === 'DELETE' ? request.query : request.body;
  const args: Record<string, unknown> = source && typeof source === 'object' && !Array.isArray(source) ? { ...(source as object) } : {};
  if (source !== undefined && source !== null && (typeof source !== 'object' || Array.isArray(source))) {
    throw new AppError('invalid_request', `The request body of ${tool.name} must be a JSON object of its parameters.`);
  }
  for (const [alias, field] of Object.entries(aliases ?? {})) {
    if (alias in args) {
      if (!(field in args)) args[field] = args[alias];
      delete args[alias];
    }
  }
  if (idParam) args[idParam] = (request.params as { id: string }).id;
  return args;
}

/** Where a set of tool routes is mounted, and how its callers authenticate. */
export interface ToolMount {
  /** The path the tools' REST paths are appended to. */
  prefix: string;
  /** OpenAPI tag of the routes. */
  tag?: string;
  /** Set for /api/projects/:key: the routes' callers are a session or a project token of KEY. */
  projectScoped?: boolean;
  /** The endpoints mounted: the 19 tools and the REST-only ones, plus the web UI's own under /api/projects. */
  endpoints: readonly ToolDefinition[];
}

/** The mount of the token API: /api/mcp/v1, the token decides the project. */
export const TOKEN_MOUNT: ToolMount = { prefix: BASE_PATH, endpoints: REST_ENDPOINTS };

/** The mount of the web UI's API: /api/projects/{KEY}, with a session cookie or a project token of KEY. */
export const PROJECT_MOUNT: ToolMount = {
  prefix: '/api/projects/:key',
  tag: 'projects (web UI)',
  projectScoped: true,
  endpoints: [...REST_ENDPOINTS, ...webEndpoints, ...grantEndpoints],
};

/** The `{KEY}` path parameter of the project routes. */
export const projectKeyParam = z.string().describe('The project key, e.g. DEMO');

/** Documentation schema of an endpoint (OpenAPI); validation itself runs in runTool, the same for MCP and REST. */
function docSchema(tool: ToolDefinition, mount: ToolMount) {
  const { method, idParam, aliases } = tool.rest;
  let input = idParam ? tool.input.omit({ [idParam]: true } as never) : tool.input;
  for (const [alias, field] of Object.entries(aliases ?? {})) input = input.extend({ [alias]: tool.input.shape[field] }).partial({ [field]: true } as never);
  return {
    summary: tool.name,
    description: tool.description,
    tags: [mount.tag ?? (tool.mcp === false ? 'REST only' : 'tools')],
    security: (mount.projectScoped ? [{ session: [] }, { bearer: [] }] : [{ bearer: [] }]) as Array<Record<string, string[]>>,
    ...(idParam || mount.projectScoped
      ? {
          params: z.object({
            ...(mount.projectScoped ? { key: projectKeyParam } : {}),
            ...(idParam ? { id: z.string().describe(`${idParam}: key, number or UUID`) } : {}),
          }),
        }
      : {}),
    ...(method === 'GET' || method === 'DELETE' ? (Object.keys(input.shape).length ? { querystring: input } : {}) : { body: input }),
  };
}

/**
 * Mounts every tool (and the REST-only endpoints) at its spec'd method and path under the mount's prefix:
 * the same definitions, handlers and validation wherever they are mounted.
 */
export function registerRestRoutes(app: App, mount: ToolMount = TOKEN_MOUNT): void {
  for (const tool of mount.endpoints) {
    app.route({
      method: tool.rest.method,
      url: mount.prefix + tool.rest.path.replace('{id}', ':id'),
      schema: docSchema(tool, mount),
      ...(mount.projectScoped ? { config: { projectAccess: tool.access ?? 'project' } } : {}),
      // The tool validates its own input (one code path and one message style for MCP and REST).
      validatorCompiler: () => (data: unknown) => ({ value: data }),
      handler: async (request, reply) => {
        const ctx = boardOf(request);
        if (tool.rest.method !== 'GET' && accessOf(ctx.caller) === 'read') {
          // A 403 with the step-up challenge (error handler): the client may ask the person for write access.
          const remedy = ctx.caller.kind === 'oauth' ? 'sign in again and grant Read and write' : 'use a token made with write access (the default)';
          throw new AppError('insufficient_scope', `This token may only read (${tool.name} changes the project): ${remedy}.`);
        }
        const result = await runTool(tool, ctx, restArguments(tool, request));
        return reply.code(tool.rest.status ?? 200).send(result);
      },
    });
  }
}
