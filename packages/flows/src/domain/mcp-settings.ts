import { invalidWith, type ProblemDetail } from './errors.ts';

/** What a tool name may be (design/mcp.md, "Flows as MCP tools"). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
/** The longest tool description kept. */
export const MAX_TOOL_DESCRIPTION = 2000;

/** A `PUT …/flows/{slug}/mcp` body, checked. */
export interface McpSettingsRequest {
  enabled: boolean;
  /** Null: the default name (the slug with `-` as `_`). */
  toolName: string | null;
  /** Null: the flow's own description. */
  description: string | null;
}

/** Checks a settings body; 422 `invalid_request` naming every problem. */
export function parseMcpSettings(body: unknown): McpSettingsRequest {
  const problems: ProblemDetail[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidWith('invalid_request', [{ param: 'body', message: 'The body must be an object: {"enabled": true, "tool_name"?, "description"?}' }]);
  }
  const { enabled, tool_name: toolName, description, ...rest } = body as Record<string, unknown>;
  for (const key of Object.keys(rest)) problems.push({ param: key, message: `Unknown field "${key}" (expected enabled, tool_name, description)` });
  if (typeof enabled !== 'boolean') problems.push({ param: 'enabled', message: '"enabled" must be true or false' });
  if (toolName !== undefined && toolName !== null && (typeof toolName !== 'string' || !TOOL_NAME_PATTERN.test(toolName))) {
    problems.push({ param: 'tool_name', message: '"tool_name" must be 1 to 64 letters, digits, "_", "." or "-"' });
  }
  if (description !== undefined && description !== null && (typeof description !== 'string' || description.length > MAX_TOOL_DESCRIPTION)) {
    problems.push({ param: 'description', message: `"description" must be a string of at most ${MAX_TOOL_DESCRIPTION} characters` });
  }
  if (problems.length > 0) throw invalidWith('invalid_request', problems);
  return {
    enabled: enabled as boolean,
    toolName: typeof toolName === 'string' ? toolName : null,
    description: typeof description === 'string' && description.trim() !== '' ? description : null,
  };
}

/** The description a tool shows: the one given, else the flow's, else "Runs the flow NAME". */
export function toolDescriptionOf(flow: { name: string; description: string | null; toolDescription: string | null }): string {
  return flow.toolDescription ?? (flow.description?.trim() ? flow.description : `Runs the flow ${flow.name}`);
}
