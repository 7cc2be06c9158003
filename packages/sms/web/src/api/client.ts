import { ApiError, api as kitApi, type ApiOptions, type TenantPerson } from '@switchboard/web-kit';
import { firstConversationsUrl, FIRST_CONVERSATIONS } from '../../../src/domain/console-pages.ts';
import { describeIssues, type Issue } from './issues.ts';
import type { GatewayField } from '../../../src/domain/gateway-fields.ts';
import type {
  ConsoleKey,
  Conversation,
  ConversationPage,
  CreatedKey,
  Direction,
  GatewayDriver,
  GatewayTestResult,
  GatewayView,
  KeyListing,
  SentMessage,
  SimRecord,
  ThreadPage,
} from './types.ts';

const path = encodeURIComponent;

/** The kit's fetch, with the service's 422s said in words instead of the array they carry. */
async function api<T>(url: string, options?: ApiOptions): Promise<T> {
  try {
    return await kitApi<T>(url, options);
  } catch (error) {
    const detail = (error as ApiError).body && ((error as ApiError).body as { detail?: unknown }).detail;
    if (error instanceof ApiError && Array.isArray(detail)) throw new ApiError(error.status, describeIssues(detail as Issue[]), error.code, error.body);
    throw error;
  }
}

/** Creates an organization (admins; README, "Organizations and members"): it has no key until the Keys page makes one. */
export function createOrganization(body: { org_id: string; name?: string }) {
  return api<{ org_id: string; name: string }>('/api/orgs', { method: 'POST', body });
}

/** What a list or thread is narrowed to. */
export interface MessageFilter {
  sim: string;
  direction: Direction | '';
}

function filterQuery(filter: MessageFilter | undefined, params: URLSearchParams): void {
  if (filter?.sim) params.set('sim', filter.sim);
  if (filter?.direction) params.set('direction', filter.direction);
}

/** The console's API of one organization: the service's public API with the session cookie (README, "Console API"). */
export function orgApi(orgId: string) {
  const base = `/api/orgs/${path(orgId)}`;
  return {
    orgId,
    /** The live stream of the organization's changes. */
    eventsUrl: `${base}/events`,
    /** A page of conversations; the first unfiltered page is the URL the service preloads with the inbox. */
    conversations(filter: MessageFilter | undefined, before: number | null, signal?: AbortSignal) {
      const params = new URLSearchParams({ limit: String(FIRST_CONVERSATIONS) });
      if (before !== null) params.set('before', String(before));
      filterQuery(filter, params);
      const url = !filter?.sim && !filter?.direction && before === null ? firstConversationsUrl(orgId) : `${base}/conversations?${params}`;
      return api<ConversationPage>(url, { signal });
    },
    thread(peer: string, filter: MessageFilter | undefined, before: number | null, signal?: AbortSignal) {
      const params = new URLSearchParams({ limit: '50' });
      if (before !== null) params.set('before', String(before));
      filterQuery(filter, params);
      return api<ThreadPage>(`${base}/conversations/${path(peer)}/messages?${params}`, { signal });
    },
    markRead: (peer: string, upToId: number) => api<Conversation>(`${base}/conversations/${path(peer)}/read`, { method: 'POST', body: { up_to_id: upToId } }),
    send: (message: { to: string; body: string; sim?: string }) => api<SentMessage>(`/send/${path(orgId)}`, { method: 'POST', body: message }),
    gateway: (signal?: AbortSignal) => api<GatewayView>(`${base}/gateway`, { signal }),
    setGateway: (driver: GatewayDriver, settings: Partial<Record<GatewayField, string | null>>) =>
      api<GatewayView>(`${base}/gateway`, { method: 'PUT', body: { driver, ...settings } }),
    testGateway: (to: string, body?: string) => api<GatewayTestResult>(`${base}/gateway/test`, { method: 'POST', body: body ? { to, body } : { to } }),
    async keys(signal?: AbortSignal): Promise<ConsoleKey[]> {
      const answer = await api<{ keys: KeyListing[] }>(`${base}/keys`, { signal });
      return answer.keys.map((key) => ({ ...key, id: String(key.key_id) }));
    },
    createKey: (name: string) => api<CreatedKey>(`${base}/keys`, { method: 'POST', body: { name } }),
    revokeKey: (keyId: number) => api<{ revoked: true }>(`${base}/keys/${keyId}`, { method: 'DELETE' }),
    /** Members (admins): the people besides the admins who may see the organization. */
    members: (signal: AbortSignal) => api<{ members: TenantPerson[] }>(`${base}/members`, { signal }).then((answer) => answer.members),
    addMember: (email: string) => api<unknown>(`${base}/members`, { method: 'POST', body: { email } }),
    removeMember: (userId: string) => api<unknown>(`${base}/members/${path(userId)}`, { method: 'DELETE' }),
    sims: (signal?: AbortSignal) => api<{ sims: SimRecord[] }>(`${base}/sims`, { signal }).then((answer) => answer.sims),
    setSim: (sim: string, change: { label: string | null; phone_number: string | null }) =>
      api<SimRecord>(`${base}/sims/${path(sim)}`, { method: 'PATCH', body: change }),
  };
}

/** The API of one organization. */
export type OrgApi = ReturnType<typeof orgApi>;
