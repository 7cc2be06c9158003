// What a client says about itself: the body of a dynamic registration (RFC 7591) or a client ID metadata
// document. Both are checked by the same rules; unknown members are ignored, as RFC 7591 §2 asks.
import { z } from 'zod';
import { OAuthError } from './oauth-errors.ts';
import { redirectUriProblem, shorten } from './oauth-rules.ts';

/** A client as the server keeps it: who it says it is and where its redirects may go. */
export interface ClientMetadata {
  /** Shown on the consent page; the redirect host stands in when the client gives none. */
  client_name: string | undefined;
  redirect_uris: string[];
  /** The client's home page, shown beside its name when given. */
  client_uri: string | undefined;
  /** Always `none`: this server has public clients only, which prove themselves with PKCE. */
  token_endpoint_auth_method: 'none';
  grant_types: string[];
  response_types: string[];
  /** The scope the client says it will ask for, if it said. */
  scope: string | undefined;
}

const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const RESPONSE_TYPES = ['code'];
/** Most redirect URIs one client may list. */
const MAX_REDIRECT_URIS = 20;

const text = (max: number) => z.string().max(max, { error: `must be at most ${max} characters` });

const metadataSchema = z.looseObject({
  redirect_uris: z
    .array(text(2000), { error: 'must be an array of URLs' })
    .max(MAX_REDIRECT_URIS, { error: `must list at most ${MAX_REDIRECT_URIS} URLs` })
    .optional(),
  client_name: text(200).optional(),
  client_uri: text(2000).optional(),
  scope: text(1000).optional(),
  grant_types: z.array(text(100), { error: 'must be an array of strings' }).max(10).optional(),
  response_types: z.array(text(100), { error: 'must be an array of strings' }).max(10).optional(),
  token_endpoint_auth_method: text(100).optional(),
});

/**
 * Checks a client's metadata: 400 `invalid_redirect_uri` when a redirect URI is missing, malformed, or neither
 * https nor loopback http; 400 `invalid_client_metadata` for anything else malformed, a grant or response type
 * this server does not serve, or (for a metadata document) an authentication method other than `none`. A
 * registration asking for a client secret is registered as a public client instead (RFC 7591 §3.2.1 lets the
 * server replace what it does not support); its answer says `none`.
 */
export function parseClientMetadata(body: unknown, source: 'registration' | 'document'): ClientMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new OAuthError('invalid_client_metadata', 'The client metadata must be a JSON object');
  const parsed = metadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.map(String).join('.');
    const code = issue.path[0] === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata';
    throw new OAuthError(code, `${field}: ${issue.message}`);
  }
  const metadata = parsed.data;
  const redirectUris = metadata.redirect_uris ?? [];
  if (redirectUris.length === 0) throw new OAuthError('invalid_redirect_uri', 'redirect_uris must list at least one redirect URI');
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', `redirect_uris: ${problem}`);
  }
  const grantTypes = metadata.grant_types ?? ['authorization_code'];
  const unknownGrant = grantTypes.find((type) => !GRANT_TYPES.includes(type));
  if (unknownGrant !== undefined)
    throw new OAuthError('invalid_client_metadata', `grant_types: "${shorten(unknownGrant)}" is not served here (only ${GRANT_TYPES.join(' and ')})`);
  const responseTypes = metadata.response_types ?? ['code'];
  const unknownResponse = responseTypes.find((type) => !RESPONSE_TYPES.includes(type));
  if (unknownResponse !== undefined)
    throw new OAuthError('invalid_client_metadata', `response_types: "${shorten(unknownResponse)}" is not served here (only code)`);
  const method = metadata.token_endpoint_auth_method;
  if (source === 'document' && method !== undefined && method !== 'none') {
    throw new OAuthError(
      'invalid_client_metadata',
      `token_endpoint_auth_method: a client metadata document's client must be public ("none"), not "${shorten(method)}"`,
    );
  }
  const name = metadata.client_name?.trim();
  return {
    client_name: name === '' ? undefined : name,
    redirect_uris: redirectUris,
    client_uri: metadata.client_uri,
    token_endpoint_auth_method: 'none',
    grant_types: grantTypes,
    response_types: responseTypes,
    scope: metadata.scope,
  };
}

/** The name the consent page and the grants list show: the client's own, else its first redirect URI's host. */
export function displayName(metadata: Pick<ClientMetadata, 'client_name' | 'redirect_uris'>): string {
  if (metadata.client_name) return metadata.client_name;
  try {
    return new URL(metadata.redirect_uris[0]).host;
  } catch {
    return 'an unnamed client';
  }
}
