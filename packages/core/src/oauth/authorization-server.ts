import type { Kysely } from 'kysely';
import type { Rate } from '../config.ts';
import { issueSecret } from '../secrets.ts';
import type { PlatformTables } from '../users.ts';
import type { SessionUser } from '../web-session.ts';
import { checkAuthorizeRequest, redirectWith, type AuthorizeRequest } from './authorize-request.ts';
import { ClientRegistry, type DocumentFetchOptions } from './client-registry.ts';
import { OAuthError } from './oauth-errors.ts';
import { AUTHORIZATION_CODE_LIFETIME_MS, OAUTH_PREFIX, expiryOf, matchEndpointPath } from './oauth-rules.ts';
import { PlatformOAuthStore, type OAuthStore } from './oauth-store.ts';
import { bearerChallenge, resourceMetadataUrl, scopesOf, type GrantChoice, type OAuthResourceSpec } from './resource-spec.ts';
import { TokenService, type OAuthAccess } from './token-service.ts';

/** What an authorization server is built from. */
export interface AuthorizationServerOptions {
  /** The platform database (users, grants, tokens), shared by every instance and service. */
  platform: Kysely<PlatformTables>;
  /** The service the server signs in to. */
  spec: OAuthResourceSpec;
  /** How client ID metadata documents are fetched (the SSRF guard's policy, limits). */
  documents: DocumentFetchOptions;
  /** The clock (tests move it instead of sleeping). */
  now?: () => Date;
  /** Dynamic registrations stored per client address within a window (OAUTH_REGISTRATION_RATE; default 20 an hour). */
  registrationRate?: Rate;
}

/** A grant as the grants lists show it: never a token. */
export interface PresentedGrant {
  id: string;
  client_name: string;
  client_id: string;
  user_email: string;
  /** The access level granted (`read`, `write`, `run`). */
  access: string;
  scope: string;
  created_at: string;
  last_used_at: string | null;
}

/**
 * The OAuth 2.1 authorization server of one service (mcp.md, "Signing in"): its metadata, the checks and
 * consent of an authorization request, the token endpoint's exchanges, access token checks for the
 * service's authentication, and the grants its people list and revoke.
 */
export class AuthorizationServer {
  readonly spec: OAuthResourceSpec;
  readonly clients: ClientRegistry;
  readonly tokens: TokenService;
  private readonly store: OAuthStore;
  private readonly now: () => Date;

  constructor(options: AuthorizationServerOptions) {
    this.spec = options.spec;
    this.now = options.now ?? (() => new Date());
    this.store = new PlatformOAuthStore(options.platform);
    this.clients = new ClientRegistry(this.store, options.documents, this.now, options.registrationRate);
    this.tokens = new TokenService(this.store, options.spec.service, this.now);
  }

  /** Authorization server metadata (RFC 8414), with the client ID metadata document support of the MCP spec. */
  metadata(base: string) {
    return {
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      scopes_supported: scopesOf(this.spec),
    };
  }

  /**
   * Protected resource metadata (RFC 9728) of the endpoint at `path`, or undefined when `path` is none of the
   * service's. A read-only endpoint lists only the scopes its read levels grant.
   */
  resourceMetadata(base: string, path: string) {
    const matched = matchEndpointPath(this.spec.endpoints, path);
    if (!matched) return undefined;
    const levels = matched.endpoint.readOnly ? this.spec.levels.filter((level) => level.readOnly) : this.spec.levels;
    return {
      resource: `${base}${path.replace(/\/+$/, '')}`,
      authorization_servers: [base],
      scopes_supported: scopesOf({ levels }),
      bearer_methods_supported: ['header'],
      resource_name: `Switchboard ${this.spec.title.replace(/^the /, '')}`,
    };
  }

  /**
   * The metadata at the bare well-known path: the main endpoint's, or, when every endpoint's path names an
   * organization (flows), the service as a whole (the resource whose well-known URL this is, RFC 9728 §3.3).
   */
  rootResourceMetadata(base: string) {
    const main = this.spec.endpoints[0].path;
    if (!main.includes('{')) return this.resourceMetadata(base, main)!;
    return {
      resource: base,
      authorization_servers: [base],
      scopes_supported: scopesOf(this.spec),
      bearer_methods_supported: ['header'],
      resource_name: `Switchboard ${this.spec.title.replace(/^the /, '')}`,
    };
  }

  /** The `WWW-Authenticate` challenge of a request to `path` (a 401; a 403 with `insufficient_scope`). */
  challenge(base: string, path: string, error?: 'invalid_token' | 'insufficient_scope'): string {
    const matched = matchEndpointPath(this.spec.endpoints, path);
    const endpointPath = matched ? path.replace(/\/+$/, '') : this.spec.endpoints[0].path;
    const levels = matched?.endpoint.readOnly ? this.spec.levels.filter((level) => level.readOnly) : this.spec.levels;
    return bearerChallenge({ realm: this.spec.realm, resourceMetadata: resourceMetadataUrl(base, endpointPath), scope: scopesOf({ levels }).join(' '), error });
  }

  /** Checks an authorization request; see checkAuthorizeRequest for what is refused and how. */
  checkRequest(params: Record<string, string>, base: string): Promise<AuthorizeRequest> {
    return checkAuthorizeRequest(params, this.clients, this.spec, base);
  }

  /** What `user` may grant for this request: their projects or organizations (only the one its endpoint names, if it names one). */
  choices(request: AuthorizeRequest, user: SessionUser): Promise<GrantChoice[]> {
    return this.spec.choices(user, request.matched.scopeKey);
  }

  /**
   * Consent given: issues a single-use code (stored as its hash, 60 s) bound to the client, redirect URI,
   * PKCE challenge, resource, the chosen project or organization and access level, and answers the redirect
   * back to the client with `code`, `state` and `iss`. A choice the person was not offered is refused.
   */
  async approve(
    request: AuthorizeRequest,
    user: SessionUser,
    choice: { scopeKey: string | undefined; access: string | undefined },
    base: string,
  ): Promise<string> {
    const choices = await this.choices(request, user);
    const picked = choices.find((candidate) => candidate.key === choice.scopeKey);
    if (!picked) throw new OAuthError('access_denied', `You cannot grant access to that ${this.spec.scopeNoun}: pick one of yours`);
    const level = request.levels.find((candidate) => candidate.id === choice.access);
    if (!level) throw new OAuthError('invalid_request', `Pick the access to grant: ${request.levels.map((l) => l.label).join(' or ')}`);
    const now = this.now();
    const code = issueSecret(OAUTH_PREFIX.code);
    await this.store.insertCode({
      code_hash: code.hash,
      client_id: request.client.clientId,
      client_name: request.clientName,
      user_id: user.id,
      redirect_uri: request.redirectUri,
      code_challenge: request.codeChallenge,
      resource: request.resource,
      service: this.spec.service,
      scope_key: picked.key,
      scope: level.scopes.join(' '),
      created_at: now.toISOString(),
      expires_at: expiryOf(now, AUTHORIZATION_CODE_LIFETIME_MS),
      used_at: null,
      grant_id: null,
    });
    return redirectWith(request.redirectUri, { code: code.value, state: request.state, iss: base });
  }

  /** Consent refused: the redirect back to the client with `error=access_denied`. */
  deny(request: AuthorizeRequest, base: string): string {
    return redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'The user denied access', state: request.state, iss: base });
  }

  /** The grant behind an access token of this service, or undefined (see TokenService.verify). */
  verifyAccessToken(token: string): Promise<OAuthAccess | undefined> {
    return this.tokens.verify(token);
  }

  /** The live grants of a project or organization, newest first. */
  async listGrants(scopeKey: string): Promise<PresentedGrant[]> {
    const rows = await this.store.listGrants(this.spec.service, scopeKey);
    return rows.map(({ grant, userEmail }) => ({
      id: grant.id,
      client_name: grant.client_name,
      client_id: grant.client_id,
      user_email: userEmail,
      access: this.accessOf(grant.scope.split(' ')),
      scope: grant.scope,
      created_at: grant.created_at,
      last_used_at: grant.last_used_at,
    }));
  }

  /** Revokes a grant of a project or organization: its tokens fail on their next use, on every instance. False when there was no live one. */
  revokeGrant(scopeKey: string, grantId: string): Promise<boolean> {
    return this.store.revokeGrant(grantId, this.now().toISOString(), { service: this.spec.service, scopeKey });
  }

  /** The access level a set of scopes is: the widest level whose scopes it holds. */
  accessOf(scopes: readonly string[]): string {
    const held = this.spec.levels.filter((level) => level.scopes.every((scope) => scopes.includes(scope)));
    return held.length > 0 ? held[held.length - 1].id : 'none';
  }
}
