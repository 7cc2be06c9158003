import { projectTools, restOnlyEndpoints } from './project-tools.ts';
import { ticketTools } from './ticket-tools.ts';
import type { McpToolDefinition, ToolDefinition } from './tool.ts';

/** The 19 tools of the spec, in the spec's order; each is served over MCP and REST. */
export const TOOLS: readonly McpToolDefinition[] = [...projectTools.slice(0, 3), ...ticketTools, ...projectTools.slice(3)];

/** Everything served over REST: the 19 tools and the REST-only endpoints. */
export const REST_ENDPOINTS: readonly ToolDefinition[] = [...TOOLS, ...restOnlyEndpoints];
