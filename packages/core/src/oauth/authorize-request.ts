import type { ClientRegistry } from './client-registry.ts';
import { displayName } from './client-metadata.ts';
import { OAuthError, type OAuthErrorCode } from './oauth-errors.ts';
import {
  challengeProblem,
  matchResource,
  offeredLevels,
  parseScope,
  redirectUriMatches,
  shorten,
  type AccessLevel,
  type MatchedResource,
} from './oauth-rules.ts';
import type { StoredClient } from './oauth-store.ts';
import type { OAuthResourceSpec } from './resource-spec.ts';

/** The parameters of an authorization request the consent form carries back (RFC 6749 §4.1.1, RFC 7636, RFC 8707). */
export const AUTHORIZE_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const;

/** A checked authorization request: the client, where its answer goes, and what may be granted. */
export interface AuthorizeRequest {
  client: StoredClient;
  /** The name the consent page shows: the client's own, else its redirect host. */
  clientName: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  /** The endpoint URL the token is for. */
  resource: string;
  matched: MatchedResource;
  /** The access levels the person may choose from, narrowest first. */
  levels: AccessLevel[];
  /** The request's own parameters, for the consent form to send back. */
  params: Record<string, string>;
}

/**
 * An authorization error answered by redirecting to the client (RFC 6749 §4.1.2.1), because the client and
 * its redirect URI were valid; errors about those two are shown to the person instead.
 */
export class RedirectedError extends OAuthError {
  constructor(
    code: OAuthErrorCode,
    description: string,
    readonly redirectUri: string,
    readonly state: string | undefined,
  ) {
    super(code, description);
    this.name = 'RedirectedError';
  }
}

/**
 * The parameters of a query or form, each once: RFC 6749 §3.1 forbids repeating one (`invalid_request`).
 * Parameters sent empty count as absent.
 */
export function singleParams(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name in out) throw new OAuthError('invalid_request', `${shorten(name)} is given more than once`);
    if (value !== '') out[name] = value;
  }
  return out;
}

/** The redirect URI of an answer: the client's own, with the answer's parameters and `iss` (RFC 9207) added to its query. */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * Checks an authorization request (GET /oauth/authorize, and again when the consent form is posted). The
 * client and its redirect URI first: an unknown client or a redirect URI it did not register throws an
 * OAuthError shown on a page, never a redirect to an unchecked address. Then, answered by a redirect
 * (RedirectedError): `response_type=code`, `state`, PKCE S256, a `resource` that is one of this service's
 * MCP endpoints (`invalid_target`), and a well-formed `scope`.
 */
export async function checkAuthorizeRequest(
  params: Record<string, string>,
  clients: ClientRegistry,
  spec: OAuthResourceSpec,
  base: string,
): Promise<AuthorizeRequest> {
  const client = await clients.resolve(params.client_id);
  const redirectUri = params.redirect_uri;
  if (redirectUri === undefined) {
    // OAuth 2.1 lets a client with one redirect URI leave it out; these clients all send it, and the code is bound to it.
    throw new OAuthError('invalid_request', 'redirect_uri is required');
  }
  if (!redirectUriMatches(client.metadata.redirect_uris, redirectUri)) {
    throw new OAuthError('invalid_request', `redirect_uri "${shorten(redirectUri)}" is not one of the client's registered redirect URIs`);
  }
  const state = params.state;
  const fail = (code: OAuthErrorCode, description: string) => new RedirectedError(code, description, redirectUri, state);
  if (params.response_type !== 'code') {
    throw fail(
      params.response_type === undefined ? 'invalid_request' : 'unsupported_response_type',
      `response_type must be "code"${params.response_type ? `, not "${shorten(params.response_type)}"` : ''}`,
    );
  }
  if (state === undefined) throw fail('invalid_request', 'state is required');
  const pkce = challengeProblem(params.code_challenge, params.code_challenge_method);
  if (pkce) throw fail('invalid_request', pkce);
  const matched = matchResource(params.resource, base, spec.endpoints);
  if (typeof matched === 'string') throw fail('invalid_target', matched);
  let requested: string[] | undefined;
  try {
    requested = parseScope(params.scope);
  } catch (error) {
    throw fail('invalid_scope', (error as Error).message);
  }
  const levels = offeredLevels(spec.levels, requested, matched.endpoint.readOnly === true);
  if (levels.length === 0) throw fail('invalid_scope', 'No access can be granted on this endpoint');
  const echoed = Object.fromEntries(AUTHORIZE_PARAMS.filter((name) => params[name] !== undefined).map((name) => [name, params[name]]));
  return {
    client,
    clientName: displayName(client.metadata),
    redirectUri,
    state,
    codeChallenge: params.code_challenge!,
    resource: params.resource!,
    matched,
    levels,
    params: echoed,
  };
}
