import { z } from 'zod';
import { AppError } from '@switchboard/core';
import type { BoardContext } from '../service/board-context.ts';
import { invalidValue } from '../domain/vocabulary.ts';

/** Where a tool lives over REST: method, path under the base, and which parameter `{id}` stands for. */
export interface RestBinding {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path under /api/mcp/v1, with `{id}` for the id parameter. */
  path: string;
  /** The input field `{id}` fills. */
  idParam?: string;
  /** Query or body names that mean an input field (`q` → `query`). */
  aliases?: Record<string, string>;
  /** Success status: 201 for endpoints that create a record, else 200. */
  status?: 200 | 201;
}

/** Who may call an endpoint under /api/projects/{KEY} besides a member's session. */
export type ProjectAccess =
  /** The tools, the board, settings and events: a session or a project token of KEY. */
  | 'project'
  /** Token management: a signed-in user of the project, never a token. */
  | 'user'
  /** Member changes: a signed-in admin. */
  | 'admin';

/**
 * What a tool does to the board, as MCP clients show it (all four said, and true to the handler): read-only, or a
 * change that may overwrite or delete (destructive) and that has no further effect when repeated (idempotent).
 * Nothing reaches outside the board (openWorldHint false).
 */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The hints of a tool that only reads. */
export const READ_ONLY: ToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The hints of a tool that changes the board. */
export function changes(effect: { destructive: boolean; idempotent: boolean }): ToolHints {
  return { readOnlyHint: false, destructiveHint: effect.destructive, idempotentHint: effect.idempotent, openWorldHint: false };
}

/** One tool: defined once, mounted on the MCP server and as a REST endpoint. */
export interface ToolDefinition<S extends z.ZodObject = z.ZodObject> {
  name: string;
  /** Words for people ("Create ticket"): the MCP tool's title. */
  title?: string;
  /** What the tool does and the conventions that concern it (shown to the model). */
  description: string;
  input: S;
  rest: RestBinding;
  /** False for REST-only endpoints (DELETE /documents/{slug}) and the web UI's endpoints. */
  mcp?: boolean;
  /** Who may call it under /api/projects/{KEY} (default `project`). */
  access?: ProjectAccess;
  /** The success answer's schema: the MCP tool's outputSchema. */
  output?: z.ZodType;
  /** What it does to the board; without them, GET endpoints read and the others change (REST-only and web endpoints). */
  annotations?: ToolHints;
  handler(ctx: BoardContext, input: z.output<S>): Promise<object>;
}

/** One of the 19 tools: served over MCP too, so it says its title, answer schema and hints. */
export type McpToolDefinition<S extends z.ZodObject = z.ZodObject> = ToolDefinition<S> & { title: string; output: z.ZodType; annotations: ToolHints };

/** Declares a tool with its input type inferred from the schema. */
export function defineTool<S extends z.ZodObject>(tool: ToolDefinition<S>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/** Declares one of the MCP tools (title, output schema and hints required). */
export function defineMcpTool<S extends z.ZodObject>(tool: McpToolDefinition<S>): McpToolDefinition {
  return tool as unknown as McpToolDefinition;
}

/** Whether a tool or endpoint only reads: what a read-only caller may call. */
export function isReadOnly(tool: ToolDefinition): boolean {
  return tool.annotations?.readOnlyHint ?? tool.rest.method === 'GET';
}

/** A refusal-listing enum: an unknown value names every valid one. */
export function enumParam<const T extends readonly [string, ...string[]]>(field: string, values: T, description: string) {
  return z.enum(values, { error: (issue) => invalidValue(field, issue.input, values).message }).describe(description);
}

/** A ticket id parameter: the key (`DEMO-12`, any case), the number (string or JSON number) or the UUID. */
export function ticketIdParam(description = 'The ticket: its key (e.g. DEMO-12, any case), its number (12) or its UUID.') {
  return z
    .union([z.string().trim().min(1), z.number().int().positive()], { error: () => 'must be a ticket key (e.g. DEMO-12), a number or a UUID' })
    .describe(description);
}

/** A page size parameter from 1 to `max`, refused with the range when out of it. */
export function limitParam(max: number, description: string) {
  return z.coerce
    .number({ error: () => `must be an integer from 1 to ${max}` })
    .int({ error: () => `must be an integer from 1 to ${max}` })
    .min(1, { error: () => `must be at least 1` })
    .max(max, { error: () => `must be at most ${max} (the maximum)` })
    .describe(description);
}

/** The cursor of a paged listing: the next_cursor of the previous answer, passed back unchanged. */
export function cursorParam(tool: string) {
  return z
    .string()
    .trim()
    .min(1)
    .describe(`next_cursor of the previous ${tool} answer, to get the page after it; leave it out for the first page. Pass the same filters again.`);
}

/** An ISO 8601 timestamp parameter (validated by the domain, which names the expected format). */
export function timestampParam(description: string) {
  return z.string().describe(description);
}

function describeIssue(issue: z.core.$ZodIssue, shape: Record<string, unknown>): string {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return `Unknown parameter${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}. Valid parameters: ${Object.keys(shape).join(', ')}.`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${field} is required.`;
  if (issue.code === 'invalid_type') return `${field} must be ${issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}.`;
  if (issue.code === 'too_small' && issue.origin === 'string') return `${field} must not be empty.`;
  return field && !issue.message.startsWith('Unknown ') ? `${field}: ${issue.message}` : issue.message;
}

const hasNul = (value: unknown) => typeof value === 'string' && value.includes('\0');

/** The first parameter holding U+0000: PostgreSQL text cannot store it, so both engines refuse it alike. */
function fieldWithNul(input: Record<string, unknown>): string | undefined {
  for (const field in input) {
    const value = input[field];
    if (hasNul(value) || (Array.isArray(value) && value.some(hasNul))) return field;
  }
  return undefined;
}

/** Validates a tool's arguments; a failure is an invalid_request naming each problem and how to fix it. */
export function parseInput<S extends z.ZodObject>(tool: ToolDefinition<S>, args: unknown): z.output<S> {
  const result = tool.input.safeParse(args ?? {}, { reportInput: true });
  if (result.success) {
    const field = fieldWithNul(result.data);
    if (field === undefined) return result.data;
    const message = `${field} must not contain NUL characters (U+0000).`;
    throw new AppError('invalid_request', `Invalid arguments for ${tool.name}: ${message}`, { issues: [{ path: field, message }] });
  }
  const messages = result.error.issues.map((issue) => describeIssue(issue, tool.input.shape));
  throw new AppError('invalid_request', `Invalid arguments for ${tool.name}: ${messages.join(' ')}`, {
    issues: result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: describeIssue(issue, tool.input.shape) })),
  });
}

/** Runs a tool for a caller: validation, then the handler. Both transports go through here. */
export async function runTool(tool: ToolDefinition, ctx: BoardContext, args: unknown): Promise<object> {
  return tool.handler(ctx, parseInput(tool, args));
}
