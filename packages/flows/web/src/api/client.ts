import { api } from '@switchboard/web-kit';
import type { Flow, FlowSummary, FlowTemplate, ProviderInfo, TokenInfo } from './types.ts';

/** The management API of one organization, `/api/llm/{org_code}/…`. */
export function orgApi(orgCode: string) {
  const base = `/api/llm/${encodeURIComponent(orgCode)}`;
  return {
    base,
    flows: (signal?: AbortSignal) => api<{ flows: FlowSummary[] }>(`${base}/flows`, { signal }),
    flow: (slug: string, signal?: AbortSignal) => api<Flow>(`${base}/flows/${encodeURIComponent(slug)}`, { signal }),
    saveFlow: (body: unknown) => api<Flow>(`${base}/flows`, { method: 'POST', body }),
    tokens: (signal?: AbortSignal) => api<{ tokens: TokenInfo[] }>(`${base}/tokens`, { signal }),
    providers: (signal?: AbortSignal) => api<{ providers: ProviderInfo[] }>(`${base}/providers`, { signal }),
    /** Flows to start from, with what each needs. */
    templates: (signal?: AbortSignal) => api<{ templates: FlowTemplate[] }>(`${base}/templates`, { signal }),
    /** Creates version 1 of a flow from a template (422 `invalid_bindings` names every problem). */
    fromTemplate: (body: { name?: string; template: string; bindings: Record<string, string> }) => api<Flow>(`${base}/flows`, { method: 'POST', body }),
    duplicate: (slug: string, name: string) => api<Flow>(`${base}/flows/${encodeURIComponent(slug)}/duplicate`, { method: 'POST', body: { name } }),
    deleteFlow: (slug: string) => api<{ deleted: true }>(`${base}/flows/${encodeURIComponent(slug)}`, { method: 'DELETE' }),
    knowledgeBaseNames: (signal?: AbortSignal) =>
      api<{ knowledge_bases: Array<{ name: string }> }>(`${base}/knowledge-bases`, { signal }).then((a) => a.knowledge_bases.map((kb) => kb.name)),
    secretNames: (signal?: AbortSignal) => api<{ secrets: Array<{ name: string }> }>(`${base}/secrets`, { signal }).then((a) => a.secrets.map((s) => s.name)),
    setSecret: (name: string, value: string) => api<unknown>(`${base}/secrets/${encodeURIComponent(name)}`, { method: 'PUT', body: { value } }),
    models: (provider: string, signal?: AbortSignal) =>
      api<{ models: Array<{ id: string }> }>(`${base}/providers/${encodeURIComponent(provider)}/models`, { signal }).then((a) => a.models.map((m) => m.id)),
  };
}

/** The client of one organization. */
export type OrgApi = ReturnType<typeof orgApi>;
