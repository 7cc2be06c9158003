import { MCP_PATH } from '../packages/tickets/src/index.ts';

/** Project sizes whose answers are measured: the listing tools must fit an agent's context at every size. */
export const SIZE_PROJECTS = [100, 1_000, 10_000] as const;

/** One measured answer: characters of the result text (content[0].text) and of the whole JSON-RPC response. */
export interface AnswerSize {
  call: string;
  text: number;
  response: number;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

/** The part of tools/list's answer read here. */
interface ToolsListAnswer {
  result: { tools: Array<{ name: string; inputSchema?: { properties?: { limit?: { maximum?: unknown } } } }> };
}

/** The part of tools/call's answer read here: its text content. */
interface ToolCallAnswer {
  result: { isError?: boolean; content: Array<{ text: string }> };
}

/** One JSON-RPC call; `T` names the parts of the answer the caller reads. */
async function rpc<T>(url: string, token: string, method: string, params: object): Promise<{ body: string; parsed: T }> {
  const response = await fetch(`${url}${MCP_PATH}`, {
    method: 'POST',
    headers: { ...HEADERS, authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`MCP ${method} answered ${response.status}: ${body.slice(0, 300)}`);
  return { body, parsed: JSON.parse(body) };
}

/** The largest `limit` a tool's input schema allows, as tools/list announces it. */
async function maxLimits(url: string, token: string): Promise<Record<string, number>> {
  const { parsed } = await rpc<ToolsListAnswer>(url, token, 'tools/list', {});
  const limits: Record<string, number> = {};
  for (const tool of parsed.result.tools) {
    const max = tool.inputSchema?.properties?.limit?.maximum;
    if (typeof max === 'number') limits[tool.name] = max;
  }
  return limits;
}

/**
 * Sizes of the answers an agent gets over MCP (tools/call, as the issue measures them): get_project_status,
 * get_all_tickets without arguments, list_tickets and search at their maximum limit.
 */
export async function answerSizes(url: string, token: string, searchFor: string): Promise<AnswerSize[]> {
  const limits = await maxLimits(url, token);
  const calls: Array<[string, Record<string, unknown>]> = [
    ['get_project_status', {}],
    ['get_all_tickets', {}],
    ['list_tickets', { limit: limits.list_tickets }],
    ['search', { query: searchFor, limit: limits.search }],
  ];
  const sizes: AnswerSize[] = [];
  for (const [name, args] of calls) {
    const { body, parsed } = await rpc<ToolCallAnswer>(url, token, 'tools/call', { name, arguments: args });
    if (parsed.result?.isError) throw new Error(`${name} failed: ${parsed.result.content[0].text}`);
    const shown = Object.entries(args)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    sizes.push({ call: shown ? `${name} ${shown}` : name, text: parsed.result.content[0].text.length, response: body.length });
  }
  return sizes;
}

/** The sizes as a note: `get_project_status 38,120 / 86,400; …` (text / whole response, characters). */
export function sizeNote(sizes: readonly AnswerSize[]): string {
  const n = (value: number) => value.toLocaleString('en');
  return `answer sizes in characters, text / whole MCP response: ${sizes.map((size) => `${size.call} ${n(size.text)} / ${n(size.response)}`).join('; ')}`;
}
