import { z } from 'zod';
import { projectGrants, revokeGrantInProject } from '../service/grant-service.ts';
import { defineTool } from './tool.ts';

/**
 * Settings → MCP Connection's OAuth grants (mcp.md, "Where people see it"), beside the tokens: under
 * /api/projects/{KEY} only, for a signed-in user of the project, never over MCP or with a token.
 */
export const grantEndpoints = [
  defineTool({
    name: 'list_oauth_grants',
    description: 'The MCP clients people signed in to this project with (OAuth): client name, user, access (read or write), created, last used. Never a token.',
    input: z.strictObject({}),
    rest: { method: 'GET', path: '/oauth-grants' },
    mcp: false,
    access: 'user',
    handler: (ctx) => projectGrants(ctx),
  }),
  defineTool({
    name: 'revoke_oauth_grant',
    description: "Revokes an OAuth grant: the client's access and refresh tokens are refused from their next use, on every instance.",
    input: z.strictObject({ grant_id: z.string().trim().min(1).describe("The grant's id (from GET …/oauth-grants).") }),
    rest: { method: 'DELETE', path: '/oauth-grants/{id}', idParam: 'grant_id' },
    mcp: false,
    access: 'user',
    handler: (ctx, input) => revokeGrantInProject(ctx, input),
  }),
];
