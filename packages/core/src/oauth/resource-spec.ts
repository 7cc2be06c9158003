import type { MembershipService } from '../memberships.ts';
import type { SessionUser } from '../web-session.ts';
import type { AccessLevel, ResourceEndpoint } from './oauth-rules.ts';

/** A project or organization a person may grant a client. */
export interface GrantChoice {
  key: string;
  name: string;
}

/**
 * What a service tells the authorization server about itself as a protected resource (RFC 9728): its MCP
 * endpoints, its scopes as access levels, and what a grant is for (a project, an organization).
 */
export interface OAuthResourceSpec {
  /** The service whose memberships decide what may be granted: `tickets` (projects) or `flows` (organizations). */
  service: MembershipService;
  /** The `realm` of its `WWW-Authenticate` challenges. */
  realm: string;
  /** What the consent page calls the service: "the ticket board". */
  title: string;
  /** The endpoints tokens are issued for, the first being the main one (what the root metadata describes). */
  endpoints: ResourceEndpoint[];
  /** The access a person may grant, narrowest first. */
  levels: AccessLevel[];
  /** What a grant is for, in words: `project`, `organization`. */
  scopeNoun: string;
  /** Where people see and revoke grants, as the consent page tells them: "Settings → MCP Connection". */
  grantsPlace: string;
  /**
   * The projects or organizations `user` may grant, sorted as the picker lists them; `pinned` is the one the
   * endpoint's own path names (flows' `/api/llm/{org_code}/mcp`), the only one offered then.
   */
  choices(user: SessionUser, pinned: string | undefined): Promise<GrantChoice[]>;
}

/** Every scope a resource knows, in the order its levels introduce them (`scopes_supported`). */
export function scopesOf(spec: Pick<OAuthResourceSpec, 'levels'>): string[] {
  return [...new Set(spec.levels.flatMap((level) => level.scopes))];
}

/** The URL of a resource's metadata (RFC 9728 §3.1): the well-known prefix before the endpoint's path. */
export function resourceMetadataUrl(base: string, path: string): string {
  return `${base}/.well-known/oauth-protected-resource${path}`;
}

/** Quotes a value for an auth-param of `WWW-Authenticate` (RFC 9110 §11.2): backslash before `"` and `\`. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * A `WWW-Authenticate: Bearer …` challenge: the realm, the metadata URL a client discovers sign-in from, the
 * scope to ask for, and for a 403 `error="insufficient_scope"` (RFC 6750 §3, the MCP authorization spec's
 * step-up).
 */
export function bearerChallenge(options: {
  realm: string;
  resourceMetadata: string;
  scope: string;
  error?: 'invalid_token' | 'insufficient_scope';
  description?: string;
}): string {
  const parts = [`realm=${quoted(options.realm)}`];
  if (options.error) parts.push(`error=${quoted(options.error)}`);
  if (options.description) parts.push(`error_description=${quoted(options.description)}`);
  parts.push(`resource_metadata=${quoted(options.resourceMetadata)}`, `scope=${quoted(options.scope)}`);
  return `Bearer ${parts.join(', ')}`;
}
