import { api, type OAuthGrant } from '@switchboard/web-kit';
import type { ProviderInfo, SecretInfo, TokenInfo } from './types.ts';

/** The answer of token creation: the only time the secret is sent. */
export interface CreatedToken extends TokenInfo {
  token_id: string;
  token: string;
}

/** What a provider connection is saved with (`PUT …/providers/{name}`). */
export interface ProviderInput {
  kind: ProviderInfo['kind'];
  base_url?: string;
  api_key?: string | null;
}

/** `POST …/providers/{name}/test`: the provider's model ids, or its error. */
export type ProviderTest = { ok: true; models: string[] } | { ok: false; error: string };

/** LLM Hub (tokens, provider connections and secrets) of the organization whose API is at `base`. */
export function hubApi(base: string) {
  return {
    tokens: (signal?: AbortSignal) => api<{ tokens: TokenInfo[] }>(`${base}/tokens`, { signal }),
    createToken: (body: { name: string; scope: 'run' | 'manage' }) => api<CreatedToken>(`${base}/tokens`, { method: 'POST', body }),
    revokeToken: (id: string) => api<{ revoked: true }>(`${base}/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    grants: (signal?: AbortSignal) => api<{ grants: OAuthGrant[] }>(`${base}/oauth-grants`, { signal }),
    revokeGrant: (id: string) => api<{ revoked: true }>(`${base}/oauth-grants/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    providers: (signal?: AbortSignal) => api<{ providers: ProviderInfo[] }>(`${base}/providers`, { signal }),
    saveProvider: (name: string, body: ProviderInput) =>
      api<{ name: string; kind: string }>(`${base}/providers/${encodeURIComponent(name)}`, { method: 'PUT', body }),
    deleteProvider: (name: string) => api<{ deleted: true }>(`${base}/providers/${encodeURIComponent(name)}`, { method: 'DELETE' }),
    testProvider: (name: string, signal?: AbortSignal) => api<ProviderTest>(`${base}/providers/${encodeURIComponent(name)}/test`, { method: 'POST', signal }),
    secrets: (signal?: AbortSignal) => api<{ secrets: SecretInfo[] }>(`${base}/secrets`, { signal }),
    // The value goes in and never comes back: the answer is the secret as listed.
    setSecret: (name: string, value: string) =>
      api<SecretInfo & { set: true }>(`${base}/secrets/${encodeURIComponent(name)}`, { method: 'PUT', body: { value } }),
    deleteSecret: (name: string) => api<{ deleted: true }>(`${base}/secrets/${encodeURIComponent(name)}`, { method: 'DELETE' }),
  };
}
