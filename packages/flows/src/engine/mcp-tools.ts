import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpToolData } from '../domain/flow-definition.ts';
import { renderTemplate, type Scope } from '../domain/references.ts';
import type { RunServices } from './run-services.ts';
import { policyFetch } from './safe-fetch.ts';
import type { FlowTool } from './tool-nodes.ts';

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
 * by `allow`. A server that cannot be reached does not fail the run: it
 * becomes one tool, named after the node, whose every call reports why.
 */
export async function connectMcpTools(nodeId: string, data: McpToolData, scope: Scope, services: RunServices, signal: AbortSignal): Promise<{ tools: FlowTool[]; close(): Promise<void> }> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(data.headers ?? {})) headers[name] = renderTemplate(value, scope);
  const timeout = data.timeout_ms ?? services.toolTimeoutMs;
  const client = new Client({ name: 'switchboard-flows', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(renderTemplate(data.url, scope)), { requestInit: { headers }, fetch: policyFetch(services.policy) });
  try {
    await client.connect(transport, { signal, timeout });
    const listed = await client.listTools(undefined, { signal, timeout });
    const allow = data.allow ? new Set(data.allow) : undefined;
    const tools: FlowTool[] = listed.tools
      .filter((tool) => !allow || allow.has(tool.name))
      .map((tool) => ({
        name: tool.name,
        description: tool.description ?? tool.title ?? tool.name,
        parameters: tool.inputSchema as Record<string, unknown>,
        node: nodeId,
        async call(args, callSignal) {
          const result = await client.callTool({ name: tool.name, arguments: args }, undefined, { signal: callSignal, timeout });
          const value = resultValue(result as { content?: unknown; structuredContent?: unknown });
          if (result.isError) throw new Error(typeof value === 'string' ? value : JSON.stringify(value));
          return value;
        },
      }));
    return { tools, close: () => client.close().catch(() => undefined) };
  } catch (error) {
    await client.close().catch(() => undefined);
    const message = `MCP server of tool node "${nodeId}" unavailable: ${(error as Error).message}`;
    const unavailable: FlowTool = {
      name: nodeId.replace(/[^A-Za-z0-9_-]/g, '_'),
      description: `Tools of an MCP server that could not be reached (${message})`,
      parameters: { type: 'object', properties: {} },
      node: nodeId,
      call: async () => {
        throw new Error(message);
      },
    };
    return { tools: [unavailable], close: async () => undefined };
  }
}
