// The rules of the authorization server that need no storage and no clock: lifetimes, PKCE, redirect URIs,
// scopes, resources and client ID URLs. Time is passed in where a rule needs it.
import { createHash } from 'node:crypto';
import { constantTimeEqual } from '../secrets.ts';

/** An authorization code lives 60 seconds and is redeemed once (mcp.md, "Token"). */
export const AUTHORIZATION_CODE_LIFETIME_MS = 60_000;
/** An access token lives an hour (`expires_in: 3600`). */
export const ACCESS_TOKEN_LIFETIME_S = 3600;
/** A refresh token lives 30 days; each refresh replaces it with a new one, so a grant in use never ends by itself. */
export const REFRESH_TOKEN_LIFETIME_MS = 30 * 86_400_000;

/** The readable prefixes of what the server hands out: access tokens, refresh tokens, authorization codes. */
export const OAUTH_PREFIX = { access: 'sbo_', refresh: 'sbr_', code: 'sbc_' } as const;

// RFC 7636 §4.1: 43 to 128 unreserved characters; an S256 challenge is a SHA-256 in base64url, 43 characters.
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
// RFC 6749 §3.3: scope tokens are printable ASCII without space, `"` or `\`.
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The S256 code challenge of a verifier: base64url(SHA-256(verifier)). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Why a PKCE challenge cannot be accepted (only S256, RFC 7636), or undefined when it can. */
export function challengeProblem(challenge: string | undefined, method: string | undefined): string | undefined {
  if (challenge === undefined || challenge === '') return 'code_challenge is required (PKCE with S256)';
  if (method !== 'S256') return `code_challenge_method must be S256${method ? `, not "${shorten(method)}"` : ' (plain is not accepted)'}`;
  if (!CHALLENGE.test(challenge)) return 'code_challenge must be the 43-character base64url SHA-256 of the verifier';
  return undefined;
}

/** Whether a code verifier is well formed and hashes to the challenge (compared in constant time). */
export function verifierMatches(verifier: string | undefined, challenge: string): boolean {
  if (verifier === undefined || !VERIFIER.test(verifier)) return false;
  return constantTimeEqual(s256Challenge(verifier), challenge);
}

/** `text` cut to 100 characters, for messages that quote what a client sent. */
export function shorten(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

/** Whether a URL's host is a loopback address as a native client's redirect may use (127.0.0.1, [::1], localhost). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * Why a redirect URI cannot be registered, or undefined when it can: it must be absolute, without fragment or
 * credentials, and `https`, or `http` on a loopback address (mcp.md, "Clients"; OAuth 2.1 §2.3.1).
 */
export function redirectUriProblem(uri: string): string | undefined {
  const url = parseUrl(uri);
  if (!url) return `"${shorten(uri)}" is not an absolute URL`;
  if (uri.includes('#')) return `"${shorten(uri)}" must not contain a fragment`;
  if (url.username || url.password) return `"${shorten(uri)}" must not contain a user name or password`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return `"${shorten(uri)}" must be an https URL, or http on a loopback address (127.0.0.1, [::1] or localhost)`;
}

/**
 * Whether a redirect URI presented with a request is one the client registered: the same string, or for a
 * loopback http URI the same one on another port, since a native app picks its port when it starts
 * (RFC 8252 §7.3).
 */
export function redirectUriMatches(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  const url = parseUrl(presented);
  if (url?.protocol !== 'http:' || !isLoopbackHost(url.hostname) || presented.includes('#')) return false;
  return registered.some((candidate) => {
    const known = parseUrl(candidate);
    return (
      known !== undefined && known.protocol === 'http:' && known.hostname === url.hostname && known.pathname === url.pathname && known.search === url.search
    );
  });
}

/**
 * The scope tokens of a `scope` parameter, without repeats; undefined when absent or empty. Throws a message
 * when a token has characters RFC 6749 does not allow.
 */
export function parseScope(text: string | undefined): string[] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const tokens = [...new Set(text.split(' ').filter((token) => token !== ''))];
  const bad = tokens.find((token) => !SCOPE_TOKEN.test(token));
  if (bad !== undefined) throw new Error(`scope "${shorten(bad)}" has characters a scope may not contain`);
  return tokens;
}

/** One choice of access on the consent page: what the person sees, and the scopes it grants. */
export interface AccessLevel {
  /** The form's value: `read`, `write`, `run`. */
  id: string;
  /** What the person reads: "Read only", "Read and write". */
  label: string;
  /** What the level allows, in a line under its label. */
  description?: string;
  /** The scopes granted, the level's own last (`tickets:read tickets:write` for write). */
  scopes: readonly string[];
  /** True when the level changes nothing: the only kind a read-only endpoint offers. */
  readOnly?: boolean;
}

/**
 * The access levels the consent page offers, narrowest first. Without a requested scope, every level; with
 * one, the levels up to the widest whose own scope was asked for (asking for `tickets:write` offers read and
 * write, asking for `tickets:read` only read). Scopes this server does not know (`openid`, `offline_access`)
 * are ignored. A read-only endpoint offers only levels that change nothing.
 */
export function offeredLevels(levels: readonly AccessLevel[], requested: readonly string[] | undefined, readOnlyEndpoint: boolean): AccessLevel[] {
  const candidates = readOnlyEndpoint ? levels.filter((level) => level.readOnly) : [...levels];
  if (!requested) return candidates;
  let widest = -1;
  candidates.forEach((level, index) => {
    if (requested.includes(level.scopes[level.scopes.length - 1])) widest = index;
  });
  return widest < 0 ? candidates : candidates.slice(0, widest + 1);
}

/** An MCP endpoint of a service that tokens are issued for; `{scope_key}` in its path names an organization or project. */
export interface ResourceEndpoint {
  /** Path of the endpoint, e.g. `/api/mcp/v1/mcp` or `/api/llm/{scope_key}/mcp`. */
  path: string;
  /** True for an endpoint that serves only the read tools (`…/mcp/readonly`). */
  readOnly?: boolean;
}

/** A `resource` matched to an endpoint: the endpoint, and the scope key its path names (flows' organization). */
export interface MatchedResource {
  endpoint: ResourceEndpoint;
  scopeKey: string | undefined;
}

const SCOPE_KEY = '{scope_key}';

/** The endpoint a request path is (trailing slashes ignored), with the scope key its path names; undefined for none. */
export function matchEndpointPath(endpoints: readonly ResourceEndpoint[], path: string): MatchedResource | undefined {
  const clean = path.replace(/\/+$/, '');
  for (const endpoint of endpoints) {
    const at = endpoint.path.indexOf(SCOPE_KEY);
    if (at < 0) {
      if (clean === endpoint.path) return { endpoint, scopeKey: undefined };
      continue;
    }
    const head = endpoint.path.slice(0, at);
    const tail = endpoint.path.slice(at + SCOPE_KEY.length);
    if (!clean.startsWith(head) || !clean.endsWith(tail) || clean.length <= head.length + tail.length) continue;
    const segment = clean.slice(head.length, clean.length - tail.length);
    if (segment.includes('/')) continue;
    try {
      return { endpoint, scopeKey: decodeURIComponent(segment) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The endpoint a `resource` parameter names, or why it names none (RFC 8707: `invalid_target`): an absolute
 * URL without fragment or query on this deployment's origin (`base`) whose path is one of its MCP endpoints.
 */
export function matchResource(resource: string | undefined, base: string, endpoints: readonly ResourceEndpoint[]): MatchedResource | string {
  if (resource === undefined || resource === '') return 'resource is required: the URL of the MCP endpoint the token is for';
  const url = parseUrl(resource);
  if (!url || resource.includes('#') || url.search !== '') return `resource "${shorten(resource)}" must be an absolute URL without query or fragment`;
  const matched = url.origin === new URL(base).origin ? matchEndpointPath(endpoints, url.pathname) : undefined;
  if (!matched)
    return `resource "${shorten(resource)}" is not an MCP endpoint of this server (${endpoints.map((e) => `${base}${e.path.replace(SCOPE_KEY, '…')}`).join(', ')})`;
  return matched;
}

/**
 * The URL of a client ID metadata document when `clientId` is one, or why it cannot be: an https URL with a
 * path, no fragment, no user name or password and no `.` or `..` segments (the Client ID Metadata Document
 * draft, §3). Undefined when the client ID is not a URL at all (a registered client's).
 */
export function clientIdDocumentUrl(clientId: string): URL | string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(clientId)) return undefined;
  const url = parseUrl(clientId);
  if (!url) return `client_id "${shorten(clientId)}" is not a valid URL`;
  if (url.protocol !== 'https:') return `client_id "${shorten(clientId)}" must be an https URL to be fetched as a client metadata document`;
  if (clientId.includes('#') || url.username || url.password) return `client_id "${shorten(clientId)}" must not contain a fragment, user name or password`;
  const path = clientId.slice(url.origin.length).split('?')[0];
  if (path === '' || path === '/') return `client_id "${shorten(clientId)}" must have a path naming the document`;
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return `client_id "${shorten(clientId)}" must not contain . or .. segments`;
  return url;
}

/** When something issued at `now` with a lifetime of `ms` expires, as stored (ISO 8601). */
export function expiryOf(now: Date, ms: number): string {
  return new Date(now.getTime() + ms).toISOString();
}

/** Whether a stored expiry (ISO 8601) has passed at `now`. */
export function hasExpired(expiresAt: string, now: Date): boolean {
  return Date.parse(expiresAt) <= now.getTime();
}
