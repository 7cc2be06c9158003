import type { AgentNodeData, FlowNode, HttpToolData } from '../domain/flow-definition.ts';
import { inputJsonSchema } from '../domain/input-variables.ts';
import { renderJsonTemplate, renderTemplate, stringify, type Scope } from '../domain/references.ts';
import { toolNameOf } from '../domain/node-validation.ts';
import { callSubFlow, mappedInput } from './agent-node.ts';
import { connectMcpTools } from './mcp-tools.ts';
import type { NodeContext, NodeResult } from './node-handler.ts';
import type { FlowTool, ToolSet } from './flow-tool.ts';
import type { RunServices } from './run-services.ts';
import { readLimited, safeRequest } from '@switchboard/core';
import { toolSecrets } from './tool-secrets.ts';

/** `tool` as a step of the graph: nothing to do until its llm node calls it; its output names the tool. */
export async function runToolNode(context: NodeContext): Promise<NodeResult> {
  const data = context.node.data;
  return { output: { tool: data.kind === 'mcp' ? data.url : data.name, kind: data.kind } };
}

const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {} };

function missingRequired(schema: Record<string, unknown>, args: Record<string, unknown>): string[] {
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return required.filter((name) => args[name] === undefined || args[name] === null);
}

/**
 * An http tool's call: reveals the secrets its request references (a missing
 * one fails this call only), sends the request, and masks the secrets'
 * values wherever the answer or an error echoes them, before the model, the
 * stream or the trace see it.
 */
async function callHttpTool(node: FlowNode, context: NodeContext, services: RunServices, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
  const { scope, mask } = await toolSecrets(node, context.flow.nodes, context.scope, services);
  try {
    return mask.value(await sendHttpRequest(node.data as unknown as HttpToolData, scope, services, args, signal));
  } catch (error) {
    throw mask.empty ? error : mask.error(error);
  }
}

/** Renders and sends an http tool's request; the parsed JSON (or text) answer is the result, an HTTP error status an error. */
async function sendHttpRequest(data: HttpToolData, scope: Scope, services: RunServices, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
  const missing = missingRequired(data.parameters ?? EMPTY_OBJECT_SCHEMA, args);
  if (missing.length > 0) throw new Error(`Missing required argument(s): ${missing.join(', ')}`);
  const withArgs: Scope = { ...scope, args };
  // Arguments inside the URL are percent-encoded, so an argument cannot change the path or the host.
  const encoded: Scope = { ...scope, args: Object.fromEntries(Object.entries(args).map(([k, v]) => [k, encodeURIComponent(stringify(v))])) };
  const url = renderTemplate(data.request.url, encoded);
  const method = renderTemplate(data.request.method ?? 'GET', withArgs).toUpperCase();
  const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9, */*;q=0.5' };
  for (const [name, value] of Object.entries(data.request.headers ?? {})) headers[name.toLowerCase()] = renderTemplate(value, withArgs);
  let body: string | undefined;
  if (data.request.body !== undefined) {
    body =
      typeof data.request.body === 'string' ? renderTemplate(data.request.body, withArgs) : JSON.stringify(renderJsonTemplate(data.request.body, withArgs));
    if (typeof data.request.body !== 'string') headers['content-type'] ??= 'application/json';
  } else if (method !== 'GET' && method !== 'HEAD' && method !== 'DELETE') {
    body = JSON.stringify(args);
    headers['content-type'] ??= 'application/json';
  }
  const timeout = AbortSignal.timeout(data.timeout_ms ?? services.toolTimeoutMs);
  const combined = AbortSignal.any([signal, timeout]);
  try {
    const { response } = await safeRequest(url, { method, headers, body, signal: combined }, services.policy);
    const raw = await readLimited(response, data.max_response_bytes ?? services.toolMaxResponseBytes);
    const text = raw.toString('utf8');
    const type = String(response.headers['content-type'] ?? '');
    let parsed: unknown = text;
    if (type.includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    const status = response.statusCode ?? 0;
    if (status >= 400) throw new Error(`HTTP ${status}: ${text.slice(0, 500)}`);
    return parsed;
  } catch (error) {
    if (timeout.aborted && !signal.aborted) throw new Error(`The tool did not answer within ${data.timeout_ms ?? services.toolTimeoutMs} ms`);
    throw error;
  }
}

async function agentTool(node: FlowNode, context: NodeContext, services: RunServices): Promise<FlowTool> {
  const data = node.data as unknown as AgentNodeData;
  let parameters: Record<string, unknown> = EMPTY_OBJECT_SCHEMA;
  let description = data.description;
  try {
    const sub = await services.describeFlow(data.flow);
    parameters = inputJsonSchema(sub.variables, sub.name) as Record<string, unknown>;
    description ??= sub.description ?? `Runs the flow "${sub.name}"`;
  } catch {
    // An unknown flow still becomes a tool: calling it reports the error to the model.
  }
  delete parameters.$schema;
  delete parameters.title;
  return {
    name: toolNameOf(node)!,
    description: description ?? `Runs the flow "${data.flow}"`,
    parameters,
    node: node.id,
    async call(args, signal) {
      const input = { ...mappedInput(context, data), ...args };
      const result = await callSubFlow(services, data.flow, input, context.scope.metadata, signal, context.trace);
      return typeof result.output === 'string' ? result.output : result.text !== '' ? result.text : result.output;
    },
  };
}

/** Builds the tools wired into an llm node (http tools, MCP servers' tools, agents), with unique names. */
export async function buildTools(context: NodeContext, services: RunServices): Promise<ToolSet> {
  const ids = context.flow.tools.toolsOf.get(context.node.id) ?? [];
  const tools: FlowTool[] = [];
  const closers: Array<() => Promise<void>> = [];
  const sets = await Promise.all(
    ids.map(async (id): Promise<FlowTool[]> => {
      const node = context.flow.nodes.get(id)!;
      if (node.type === 'agent') return [await agentTool(node, context, services)];
      if (node.data.kind === 'mcp') {
        const mcp = await connectMcpTools(node, context.flow.nodes, context.scope, services, context.signal);
        closers.push(mcp.close);
        return mcp.tools;
      }
      const data = node.data as unknown as HttpToolData;
      return [
        {
          name: data.name,
          description: data.description ?? `HTTP ${data.request.method ?? 'GET'} request`,
          parameters: data.parameters ?? EMPTY_OBJECT_SCHEMA,
          node: node.id,
          call: (args, signal) => callHttpTool(node, context, services, args, signal),
        },
      ];
    }),
  );
  const seen = new Set<string>();
  for (const tool of sets.flat()) {
    let name = tool.name;
    for (let n = 2; seen.has(name); n++) name = `${tool.name}_${n}`;
    seen.add(name);
    tools.push({ ...tool, name });
  }
  return { tools, close: async () => void (await Promise.allSettled(closers.map((c) => c()))) };
}
