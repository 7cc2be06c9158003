// The palette's node kinds: one per entry (a `tool` node is an HTTP tool or an MCP tool by its `kind`). Pure.
import type { DefNode } from './definition.ts';

/** A palette entry and the canvas node type it draws as. */
export type NodeKind = 'input' | 'llm' | 'retrieval' | 'switch' | 'agent' | 'http_tool' | 'mcp_tool' | 'template' | 'output';

/** One palette entry: its name as people see it, what it does, and the data a new node starts with. */
export interface KindInfo {
  kind: NodeKind;
  /** The palette name, also shown on the node: **Input**, **LLM**, … */
  name: string;
  /** One line under the name in the palette. */
  blurb: string;
  /** The definition type it saves as. */
  type: DefNode['type'];
  /** The id a new node of this kind gets (`llm`, then `llm_2`…). */
  idBase: string;
  /** Settings of a new node. */
  defaults: () => Record<string, unknown>;
}

/** The palette, in the order it is shown. */
export const KINDS: readonly KindInfo[] = [
  {
    kind: 'input',
    name: 'Input',
    blurb: 'Typed variables the caller sends',
    type: 'input',
    idBase: 'input',
    defaults: () => ({ variables: [{ name: 'message', type: 'string', required: true }] }),
  },
  {
    kind: 'llm',
    name: 'LLM',
    blurb: 'A chat model call, with tools',
    type: 'llm',
    idBase: 'llm',
    defaults: () => ({ provider: '', model: '', prompt: '{{input.message}}' }),
  },
  {
    kind: 'retrieval',
    name: 'Retrieval',
    blurb: 'Search a knowledge base',
    type: 'retrieval',
    idBase: 'retrieval',
    defaults: () => ({ knowledge_base: '', query: '', top_k: 4 }),
  },
  {
    kind: 'switch',
    name: 'Switch',
    blurb: 'Route by conditions',
    type: 'switch',
    idBase: 'switch',
    defaults: () => ({ cases: [{ if: { left: '', op: 'equals', right: '' }, then: '' }] }),
  },
  { kind: 'agent', name: 'Agent', blurb: 'Run another flow (or a tool)', type: 'agent', idBase: 'agent', defaults: () => ({ flow: '', input: {} }) },
  {
    kind: 'http_tool',
    name: 'HTTP tool',
    blurb: 'A request the model can make',
    type: 'tool',
    idBase: 'http_tool',
    defaults: () => ({
      kind: 'http',
      name: 'tool',
      description: '',
      parameters: { type: 'object', properties: {} },
      request: { method: 'GET', url: 'https://' },
    }),
  },
  { kind: 'mcp_tool', name: 'MCP tool', blurb: "An MCP server's tools", type: 'tool', idBase: 'mcp_tool', defaults: () => ({ kind: 'mcp', url: 'https://' }) },
  { kind: 'template', name: 'Template', blurb: 'Text with references', type: 'template', idBase: 'template', defaults: () => ({ template: '' }) },
  { kind: 'output', name: 'Output', blurb: 'The response shape', type: 'output', idBase: 'output', defaults: () => ({ format: 'raw' }) },
];

/** Palette entries by kind. */
export const KIND_INFO: Readonly<Record<NodeKind, KindInfo>> = Object.fromEntries(KINDS.map((info) => [info.kind, info])) as Record<NodeKind, KindInfo>;

/** The palette kind of a definition node: a `tool` is an MCP tool when its kind says so, else an HTTP tool. */
export function kindOf(node: Pick<DefNode, 'type' | 'data'>): NodeKind {
  if (node.type === 'tool') return node.data?.kind === 'mcp' ? 'mcp_tool' : 'http_tool';
  return (KIND_INFO as Record<string, KindInfo | undefined>)[node.type] ? (node.type as NodeKind) : 'template';
}

/** Palette entries whose name or blurb contains every word of `query` (case-insensitive). */
export function filterKinds(query: string): KindInfo[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return KINDS.filter((info) => words.every((word) => `${info.name} ${info.blurb} ${info.type}`.toLowerCase().includes(word)));
}

const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value));
const firstLine = (value: string) =>
  value
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim() ?? '';

/** The one-line summary of a node's settings shown on the canvas. */
export function summaryOf(node: Pick<DefNode, 'type' | 'data'>): string {
  const data = node.data ?? {};
  switch (kindOf(node)) {
    case 'input': {
      const variables = Array.isArray(data.variables) ? (data.variables as Array<{ name?: unknown }>) : [];
      return variables.length === 0 ? 'No variables' : variables.map((v) => text(v?.name)).join(', ');
    }
    case 'llm':
      return [text(data.provider) || 'no provider', text(data.model) || 'no model'].join(' · ');
    case 'retrieval':
      return `${text(data.knowledge_base) || 'no knowledge base'} · top ${text(data.top_k) || 4}`;
    case 'switch': {
      const cases = Array.isArray(data.cases) ? data.cases.length : 0;
      return `${cases} case${cases === 1 ? '' : 's'}${data.else ? ' + else' : ''}`;
    }
    case 'agent':
      return data.flow ? `runs ${text(data.flow)}` : 'no flow chosen';
    case 'http_tool': {
      const request = (data.request ?? {}) as { method?: unknown; url?: unknown };
      return `${text(data.name) || 'unnamed'} · ${text(request.method) || 'GET'} ${text(request.url)}`;
    }
    case 'mcp_tool': {
      const allow = Array.isArray(data.allow) ? ` · ${data.allow.length} allowed` : '';
      return `${text(data.url) || 'no URL'}${allow}`;
    }
    case 'template':
      return firstLine(text(data.template)) || 'Empty template';
    case 'output':
      return text(data.format) || 'no format';
  }
}
