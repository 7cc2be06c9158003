import { randomUUID } from 'node:crypto';
import { hashSecret, issueSecret } from '../secrets.ts';
import type { SessionUser } from '../web-session.ts';
import { OAuthError } from './oauth-errors.ts';
import { ACCESS_TOKEN_LIFETIME_S, OAUTH_PREFIX, REFRESH_TOKEN_LIFETIME_MS, expiryOf, hasExpired, parseScope, shorten, verifierMatches } from './oauth-rules.ts';
import type { OAuthCodeTable, OAuthGrantTable, OAuthTokenTable } from './oauth-schema.ts';
import type { OAuthStore } from './oauth-store.ts';

/** The token endpoint's answer (RFC 6749 §5.1). */
export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** What a valid access token stands for, as a service's authentication needs it. */
export interface OAuthAccess {
  grantId: string;
  /** The person who gave consent (their current name and role). */
  user: SessionUser;
  clientId: string;
  clientName: string;
  /** The project key or organization code granted. */
  scopeKey: string;
  /** The endpoint URL the token was issued for. */
  resource: string;
  scopes: string[];
  /** How activity names the caller: `user:EMAIL via CLIENT_NAME`. */
  actor: string;
}

// Writing last_used_at on every call would make each call a write; a minute's precision is enough.
const TOUCH_MS = 60_000;

/** The token side of the authorization server: codes and refresh tokens exchanged, tokens checked and revoked. */
export class TokenService {
  constructor(
    private readonly store: OAuthStore,
    /** The service whose tokens these are: a code or token of another service is refused here. */
    private readonly service: string,
    private readonly now: () => Date,
  ) {}

  /**
   * `grant_type=authorization_code`: the code is redeemed once (a second redemption revokes the grant the
   * first made), within 60 s, by the client it was issued to, with the same redirect URI and resource and the
   * PKCE verifier of its challenge; any mismatch is `invalid_grant` and the code stays spent.
   */
  async exchangeCode(form: Record<string, string>): Promise<TokenAnswer> {
    const clientId = required(form, 'client_id');
    const code = required(form, 'code');
    const now = this.now();
    const hash = hashSecret(code);
    const redeemed = await this.store.redeemCode(hash, now.toISOString());
    if (!redeemed || redeemed.row.service !== this.service) throw new OAuthError('invalid_grant', 'Unknown authorization code');
    const row = redeemed.row;
    if (!redeemed.firstUse) {
      if (row.grant_id) await this.store.revokeGrant(row.grant_id, now.toISOString());
      throw new OAuthError('invalid_grant', 'This authorization code was already used: the tokens issued for it are revoked; sign in again');
    }
    if (hasExpired(row.expires_at, now)) throw new OAuthError('invalid_grant', 'This authorization code has expired (codes live 60 seconds); sign in again');
    if (row.client_id !== clientId) throw new OAuthError('invalid_grant', 'This authorization code was issued to another client');
    if (form.redirect_uri !== row.redirect_uri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the one of the authorization request');
    if (!verifierMatches(form.code_verifier, row.code_challenge))
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge (PKCE)');
    if (form.resource !== undefined && form.resource !== row.resource)
      throw new OAuthError('invalid_grant', `resource "${shorten(form.resource)}" is not the one the code was issued for`);
    const grant = grantOf(row, now);
    const { answer, tokens } = issueTokens(grant, now);
    await this.store.createGrant(grant, tokens, hash);
    await this.store.sweep(now);
    return answer;
  }

  /**
   * `grant_type=refresh_token`: a refresh token is exchanged once for a new pair (rotation); presenting one
   * already exchanged revokes the whole grant (RFC 9700 §4.14.2), since one of the two presenters stole it.
   */
  async refresh(form: Record<string, string>): Promise<TokenAnswer> {
    const clientId = required(form, 'client_id');
    const presented = required(form, 'refresh_token');
    const now = this.now();
    const hash = hashSecret(presented);
    const before = await this.store.grantOfToken(hash);
    if (!before || before.service !== this.service) throw new OAuthError('invalid_grant', 'Unknown refresh token');
    // A client presenting another client's token neither uses it up nor revokes its grant.
    if (before.client_id !== clientId) throw new OAuthError('invalid_grant', 'This refresh token was issued to another client');
    const redeemed = await this.store.redeemRefresh(hash, now.toISOString());
    if (!redeemed) throw new OAuthError('invalid_grant', 'Unknown refresh token');
    const grant = await this.store.findGrant(redeemed.row.grant_id);
    if (!grant || grant.revoked_at !== null) throw new OAuthError('invalid_grant', 'This grant was revoked; sign in again');
    if (!redeemed.firstUse) {
      await this.store.revokeGrant(grant.id, now.toISOString());
      throw new OAuthError('invalid_grant', 'This refresh token was already used: the grant is revoked for safety; sign in again');
    }
    if (hasExpired(redeemed.row.expires_at, now)) throw new OAuthError('invalid_grant', 'This refresh token has expired; sign in again');
    if (form.resource !== undefined && form.resource !== grant.resource)
      throw new OAuthError('invalid_target', `resource "${shorten(form.resource)}" is not the one this grant is for`);
    const asked = scopeOf(form.scope);
    const granted = grant.scope.split(' ');
    const extra = asked?.find((scope) => !granted.includes(scope));
    if (extra !== undefined) throw new OAuthError('invalid_scope', `scope "${shorten(extra)}" was not granted; authorize again to ask for it`);
    const { answer, tokens } = issueTokens(grant, now);
    await this.store.insertTokens(tokens);
    return answer;
  }

  /**
   * Revocation (RFC 7009): an access or refresh token revokes its whole grant. Unknown tokens, and tokens of
   * another client, are answered the same (200, nothing done), so the endpoint tells nothing about them.
   */
  async revoke(form: Record<string, string>): Promise<void> {
    const token = required(form, 'token');
    const grant = await this.store.grantOfToken(hashSecret(token));
    if (!grant || grant.service !== this.service) return;
    if (form.client_id !== undefined && form.client_id !== grant.client_id) return;
    await this.store.revokeGrant(grant.id, this.now().toISOString());
  }

  /**
   * The grant behind an access token, or undefined when the token is not one of ours, unknown, expired, of a
   * revoked grant or of another service. Looked up on every call, so a revocation holds on the next request
   * on every instance; only the grant's last_used_at write is throttled.
   */
  async verify(token: string): Promise<OAuthAccess | undefined> {
    if (!token.startsWith(OAUTH_PREFIX.access)) return undefined;
    const record = await this.store.findAccess(hashSecret(token));
    const now = this.now();
    if (!record || record.grant.service !== this.service || hasExpired(record.expiresAt, now)) return undefined;
    const { grant, user } = record;
    if (grant.last_used_at === null || now.getTime() - Date.parse(grant.last_used_at) >= TOUCH_MS) await this.store.touchGrant(grant.id, now.toISOString());
    return {
      grantId: grant.id,
      user,
      clientId: grant.client_id,
      clientName: grant.client_name,
      scopeKey: grant.scope_key,
      resource: grant.resource,
      scopes: grant.scope.split(' '),
      actor: `user:${user.email} via ${grant.client_name}`,
    };
  }
}

function required(form: Record<string, string>, name: string): string {
  const value = form[name];
  if (value === undefined) throw new OAuthError('invalid_request', `${name} is required`);
  return value;
}

function scopeOf(text: string | undefined): string[] | undefined {
  try {
    return parseScope(text);
  } catch (error) {
    throw new OAuthError('invalid_scope', (error as Error).message);
  }
}

/** The grant an authorization code becomes. */
function grantOf(code: OAuthCodeTable, now: Date): OAuthGrantTable {
  return {
    id: randomUUID(),
    user_id: code.user_id,
    client_id: code.client_id,
    client_name: code.client_name,
    service: code.service,
    scope_key: code.scope_key,
    resource: code.resource,
    scope: code.scope,
    created_at: now.toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
}

/** A new access and refresh token for a grant: the answer holds them, the rows only their hashes. */
function issueTokens(grant: OAuthGrantTable, now: Date): { answer: TokenAnswer; tokens: OAuthTokenTable[] } {
  const access = issueSecret(OAUTH_PREFIX.access);
  const refresh = issueSecret(OAUTH_PREFIX.refresh);
  const stamp = now.toISOString();
  return {
    answer: { access_token: access.value, token_type: 'Bearer', expires_in: ACCESS_TOKEN_LIFETIME_S, refresh_token: refresh.value, scope: grant.scope },
    tokens: [
      {
        token_hash: access.hash,
        grant_id: grant.id,
        kind: 'access',
        created_at: stamp,
        expires_at: expiryOf(now, ACCESS_TOKEN_LIFETIME_S * 1000),
        used_at: null,
      },
      { token_hash: refresh.hash, grant_id: grant.id, kind: 'refresh', created_at: stamp, expires_at: expiryOf(now, REFRESH_TOKEN_LIFETIME_MS), used_at: null },
    ],
  };
}
