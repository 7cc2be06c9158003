import { api } from '@switchboard/web-kit';

/** One ready-made snippet for calling a flow. */
export interface Snippet {
  id: string;
  title: string;
  language: string;
  code: string;
}

/** `GET …/flows/{slug}/snippets`. */
export interface SnippetsAnswer {
  /** The environment variable the snippets read the token from. */
  token_variable: string;
  snippets: Snippet[];
}

/** A flow's input schema and snippets, of the organization whose API is at `base`. */
export function flowApi(base: string, slug: string) {
  const flow = `${base}/flows/${encodeURIComponent(slug)}`;
  return {
    schema: (signal?: AbortSignal) => api<Record<string, unknown>>(`${flow}/schema`, { signal }),
    snippets: (signal?: AbortSignal) => api<SnippetsAnswer>(`${flow}/snippets`, { signal }),
  };
}

/** `GET|PUT …/flows/{slug}/mcp`: whether the flow is a tool of the organization's MCP endpoint, and as what. */
export interface McpSettings {
  enabled: boolean;
  tool_name: string;
  /** Null: the flow's own description. */
  description: string | null;
  mcp_url: string;
}

/** A flow's MCP settings, of the organization whose API is at `base`. */
export function mcpSettingsApi(base: string, slug: string) {
  const path = `${base}/flows/${encodeURIComponent(slug)}/mcp`;
  return {
    get: (signal?: AbortSignal) => api<McpSettings>(path, { signal }),
    put: (body: { enabled: boolean; tool_name?: string; description?: string | null }) => api<McpSettings>(path, { method: 'PUT', body }),
  };
}
