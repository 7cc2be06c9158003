import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FlowNode, McpToolData } from '../domain/flow-definition.ts';
import { renderTemplate, type Scope } from '../domain/references.ts';
import type { RunServices } from './run-services.ts';
import { policyFetch } from '@switchboard/core';
import type { FlowTool } from './flow-tool.ts';
import { MissingSecret, toolSecrets, type ToolSecrets } from './tool-secrets.ts';

/** The text of an MCP tool result: structured content when given, else its text parts (JSON parsed when it is JSON). */
function resultValue(result: { content?: unknown; structuredContent?: unknown }): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const parts = Array.isArray(result.content) ? (result.content as Array<{ type: string; text?: string }>) : [];
  const text = parts.map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type}]`)).join('\n');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Connects to an MCP server over Streamable HTTP with the official SDK client
 * (every request through the address policy) and exposes its tools, filtered
 * by `allow`. A server that cannot be reached, or whose headers reference a
 * secret that is not set, does not fail the run: it becomes one tool, named
 * after the node, whose every call reports why. The values of the secrets in
 * its headers are masked in everything the server sends back (tool names,
 * descriptions, schemas, results, errors).
 */
export async function connectMcpTools(
  node: FlowNode,
  nodeIds: ReadonlyMap<string, unknown>,
  scope: Scope,
  services: RunServices,
  signal: AbortSignal,
): Promise<{ tools: FlowTool[]; close(): Promise<void> }> {
  const nodeId = node.id;
  const data = node.data as unknown as McpToolData;
  let secrets: ToolSecrets;
  try {
    secrets = await toolSecrets(node, nodeIds, scope, services);
  } catch (error) {
    if (error instanceof MissingSecret) return unavailable(nodeId, error.message);
    throw error;
  }
  const { mask } = secrets;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(data.headers ?? {})) headers[name] = renderTemplate(value, secrets.scope);
  const timeout = data.timeout_ms ?? services.toolTimeoutMs;
  const client = new Client({ name: 'switchboard-flows', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(renderTemplate(data.url, scope)), {
    requestInit: { headers },
    fetch: policyFetch(services.policy),
  });
  try {
    await client.connect(transport, { signal, timeout });
    const listed = await client.listTools(undefined, { signal, timeout });
    const allow = data.allow ? new Set(data.allow) : undefined;
    const tools: FlowTool[] = listed.tools
      .filter((tool) => !allow || allow.has(tool.name))
      .map((tool) => ({
        name: mask.text(tool.name),
        description: mask.text(tool.description ?? tool.title ?? tool.name),
        parameters: mask.value(tool.inputSchema as Record<string, unknown>),
        node: nodeId,
        async call(args, callSignal) {
          let value: unknown;
          try {
            const result = await client.callTool({ name: tool.name, arguments: args }, undefined, { signal: callSignal, timeout });
            value = resultValue(result as { content?: unknown; structuredContent?: unknown });
            if (result.isError) throw new Error(typeof value === 'string' ? value : JSON.stringify(value));
          } catch (error) {
            throw mask.empty ? error : mask.error(error);
          }
          return mask.value(value);
        },
      }));
    return { tools, close: () => client.close().catch(() => undefined) };
  } catch (error) {
    await client.close().catch(() => undefined);
    return unavailable(nodeId, `MCP server of tool node "${nodeId}" unavailable: ${mask.text((error as Error).message)}`);
  }
}

/** One tool standing for a server that cannot be used: every call reports `message`. */
function unavailable(nodeId: string, message: string): { tools: FlowTool[]; close(): Promise<void> } {
  const tool: FlowTool = {
    name: nodeId.replace(/[^A-Za-z0-9_-]/g, '_'),
    description: `Tools of an MCP server that could not be reached (${message})`,
    parameters: { type: 'object', properties: {} },
    node: nodeId,
    call: async () => {
      throw new Error(message);
    },
  };
  return { tools: [tool], close: async () => undefined };
}
