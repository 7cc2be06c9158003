import { api } from '@switchboard/web-kit';
import type { Flow, FlowSummary, ProviderInfo, TokenInfo } from './types.ts';

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
  };
}

/** The client of one organization. */
export type OrgApi = ReturnType<typeof orgApi>;
