import type { FlowNode } from './flow-definition.ts';
import type { FlowGraph } from './flow-graph.ts';
import { SLUG_PATTERN } from './slug.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isInteger(v);
/** Tool names as model APIs accept them. */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

function isHttpUrlTemplate(value: unknown): boolean {
  return typeof value === 'string' && /^https?:\/\/\S+$/i.test(value.trim());
}

function isStringRecord(value: unknown): boolean {
  return isObject(value) && Object.values(value).every((v) => typeof v === 'string');
}

/**
 * Checks the settings of `tool`, `agent` and `retrieval` nodes. Addresses are
 * not checked here: a blocked address is accepted on save and refused at run
 * (it may resolve differently, and FLOWS_ALLOWED_HOSTS may change).
 */
export function checkToolNodeData(node: FlowNode, graph: FlowGraph, byId: Map<string, FlowNode>, at: (message: string, field?: string) => void): void {
  const data = node.data;
  const succs = graph.successors.get(node.id)!;
  switch (node.type) {
    case 'tool': {
      if (succs.length === 0 || succs.some((s) => byId.get(s)?.type !== 'llm'))
        at('a tool node must have edges to llm nodes only (the llm nodes that may call it)');
      if (data.timeout_ms !== undefined && !(isInt(data.timeout_ms) && data.timeout_ms >= 1 && data.timeout_ms <= 300_000))
        at('"timeout_ms" must be an integer from 1 to 300000', 'timeout_ms');
      if (data.kind === 'http') {
        if (typeof data.name !== 'string' || !TOOL_NAME.test(data.name)) at('"name" must be 1-64 letters, digits, "_" or "-"', 'name');
        if (data.description !== undefined && typeof data.description !== 'string') at('"description" must be a string', 'description');
        if (data.parameters !== undefined && !(isObject(data.parameters) && data.parameters.type === 'object'))
          at('"parameters" must be a JSON Schema of type "object"', 'parameters');
        const request = data.request;
        if (!isObject(request)) {
          at('"request" must be {"method", "url", "headers"?, "body"?}', 'request');
          return;
        }
        if (!isHttpUrlTemplate(request.url)) at('"request.url" must be an http(s) URL', 'request.url');
        if (
          request.method !== undefined &&
          !(typeof request.method === 'string' && (METHODS.includes(request.method.toUpperCase()) || request.method.includes('{{')))
        ) {
          at(`"request.method" must be one of ${METHODS.join(', ')}`, 'request.method');
        }
        if (request.headers !== undefined && !isStringRecord(request.headers)) at('"request.headers" must be an object of strings', 'request.headers');
        if (data.max_response_bytes !== undefined && !(isInt(data.max_response_bytes) && data.max_response_bytes >= 1))
          at('"max_response_bytes" must be a positive integer', 'max_response_bytes');
      } else if (data.kind === 'mcp') {
        if (!isHttpUrlTemplate(data.url)) at('"url" must be the http(s) URL of an MCP server (Streamable HTTP)', 'url');
        if (data.headers !== undefined && !isStringRecord(data.headers)) at('"headers" must be an object of strings', 'headers');
        if (data.allow !== undefined && !(Array.isArray(data.allow) && data.allow.every((n) => typeof n === 'string')))
          at('"allow" must be an array of tool names', 'allow');
      } else at('"kind" must be "http" or "mcp"', 'kind');
      return;
    }
    case 'agent': {
      if (typeof data.flow !== 'string' || !SLUG_PATTERN.test(data.flow)) at('"flow" must be the slug of a flow of this organization', 'flow');
      if (data.input !== undefined && !isObject(data.input)) at('"input" must be an object mapping the flow\'s input variables', 'input');
      if (data.name !== undefined && (typeof data.name !== 'string' || !TOOL_NAME.test(data.name)))
        at('"name" must be 1-64 letters, digits, "_" or "-"', 'name');
      if (data.description !== undefined && typeof data.description !== 'string') at('"description" must be a string', 'description');
      return;
    }
    case 'retrieval': {
      if (typeof data.knowledge_base !== 'string' || data.knowledge_base === '') at('"knowledge_base" must name a knowledge base', 'knowledge_base');
      if (typeof data.query !== 'string' || data.query === '') at('"query" must be a non-empty string', 'query');
      if (data.top_k !== undefined && !(isInt(data.top_k) && data.top_k >= 1 && data.top_k <= 50)) at('"top_k" must be an integer from 1 to 50', 'top_k');
      return;
    }
    default:
      return;
  }
}

/** The tool name an http tool or agent node offers its llm node (MCP tools are named by their server). */
export function toolNameOf(node: FlowNode): string | undefined {
  if (node.type === 'tool' && node.data.kind === 'http') return node.data.name as string;
  if (node.type === 'agent') return (node.data.name as string | undefined) ?? String(node.data.flow).replace(/-/g, '_');
  return undefined;
}
