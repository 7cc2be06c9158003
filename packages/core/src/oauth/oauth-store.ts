import type { Kysely } from 'kysely';
import type { PlatformTables } from '../users.ts';
import type { ClientMetadata } from './client-metadata.ts';
import type { OAuthCodeTable, OAuthGrantTable, OAuthTokenTable } from './oauth-schema.ts';

/** A client the server knows: registered here, or fetched from its metadata document. */
export interface StoredClient {
  clientId: string;
  kind: 'registered' | 'document';
  metadata: ClientMetadata;
  createdAt: string;
  fetchedAt: string;
  /** The client address a registered client came from (POST /oauth/register). */
  registeredFrom?: string;
}

/** What an access token stands for: its grant, the person behind it and when it expires. */
export interface AccessRecord {
  grant: OAuthGrantTable;
  expiresAt: string;
  user: { id: string; email: string; name: string; role: 'admin' | 'member' };
}

/** A live grant as Settings → MCP Connection and LLM Hub → Tokens list it. */
export interface GrantListing {
  grant: OAuthGrantTable;
  userEmail: string;
}

/** A redeemed code or refresh token, and whether this was its first redemption (a second one means theft). */
export interface Redemption<Row> {
  row: Row;
  firstUse: boolean;
}

/** Where the authorization server keeps clients, codes, grants and tokens: the platform database, shared by every instance. */
export interface OAuthStore {
  saveClient(client: StoredClient): Promise<void>;
  /** How many clients were registered from `address` after `since` (ISO 8601), and when the first of them was. */
  registrationsFrom(address: string, since: string): Promise<{ count: number; first: string | null }>;
  findClient(clientId: string): Promise<StoredClient | undefined>;
  insertCode(row: OAuthCodeTable): Promise<void>;
  /** Marks a code used, atomically across instances; undefined for a code never issued (or swept). */
  redeemCode(codeHash: string, now: string): Promise<Redemption<OAuthCodeTable> | undefined>;
  /** Stores the grant a code became with its first tokens, and notes the grant on the code. */
  createGrant(grant: OAuthGrantTable, tokens: OAuthTokenTable[], codeHash: string): Promise<void>;
  /** Marks a refresh token used, atomically across instances; undefined for one never issued (or swept). */
  redeemRefresh(tokenHash: string, now: string): Promise<Redemption<OAuthTokenTable> | undefined>;
  insertTokens(tokens: OAuthTokenTable[]): Promise<void>;
  findGrant(grantId: string): Promise<OAuthGrantTable | undefined>;
  /** The grant and user of a live grant's access token (expiry is the caller's to check); undefined otherwise. */
  findAccess(tokenHash: string): Promise<AccessRecord | undefined>;
  /** The grant of any token (access or refresh), for revocation. */
  grantOfToken(tokenHash: string): Promise<OAuthGrantTable | undefined>;
  touchGrant(grantId: string, now: string): Promise<void>;
  /** Revokes a grant (its tokens fail from then on); `where` narrows it to one service's scope. False when none was live. */
  revokeGrant(grantId: string, now: string, where?: { service: string; scopeKey: string }): Promise<boolean>;
  /** The live grants of a project or organization, newest first. */
  listGrants(service: string, scopeKey: string): Promise<GrantListing[]>;
  /** Deletes what can no longer be used: expired codes and tokens, grants revoked or without tokens for a day. */
  sweep(now: Date): Promise<void>;
}

// A used code is kept past its expiry a while, so that its late replay is still recognised and revokes its grant.
const USED_CODE_KEEP_MS = 10 * 60_000;
const DEAD_GRANT_KEEP_MS = 86_400_000;

/** The OAuth store on the platform database (Kysely, one query path for SQLite and PostgreSQL). */
export class PlatformOAuthStore implements OAuthStore {
  constructor(private readonly db: Kysely<PlatformTables>) {}

  async saveClient(client: StoredClient): Promise<void> {
    const values = { kind: client.kind, metadata: JSON.stringify(client.metadata), fetched_at: client.fetchedAt };
    await this.db
      .insertInto('oauth_clients')
      .values({ client_id: client.clientId, created_at: client.createdAt, registered_from: client.registeredFrom ?? null, ...values })
      .onConflict((oc) => oc.column('client_id').doUpdateSet(values))
      .execute();
  }

  async registrationsFrom(address: string, since: string): Promise<{ count: number; first: string | null }> {
    const row = await this.db
      .selectFrom('oauth_clients')
      .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min('created_at').as('first')])
      .where('registered_from', '=', address)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), first: row.first ?? null };
  }

  async findClient(clientId: string): Promise<StoredClient | undefined> {
    const row = await this.db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
    if (!row) return undefined;
    return {
      clientId: row.client_id,
      kind: row.kind as StoredClient['kind'],
      metadata: JSON.parse(row.metadata) as ClientMetadata,
      createdAt: row.created_at,
      fetchedAt: row.fetched_at,
    };
  }

  async insertCode(row: OAuthCodeTable): Promise<void> {
    await this.db.insertInto('oauth_codes').values(row).execute();
  }

  async redeemCode(codeHash: string, now: string): Promise<Redemption<OAuthCodeTable> | undefined> {
    // The update claims the code: of two instances redeeming it at once, the second finds used_at set.
    const first = await this.db
      .updateTable('oauth_codes')
      .set({ used_at: now })
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (first) return { row: first, firstUse: true };
    const again = await this.db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
    return again && { row: again, firstUse: false };
  }

  async createGrant(grant: OAuthGrantTable, tokens: OAuthTokenTable[], codeHash: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('oauth_grants').values(grant).execute();
      await trx.insertInto('oauth_tokens').values(tokens).execute();
      await trx.updateTable('oauth_codes').set({ grant_id: grant.id }).where('code_hash', '=', codeHash).execute();
    });
  }

  async redeemRefresh(tokenHash: string, now: string): Promise<Redemption<OAuthTokenTable> | undefined> {
    const first = await this.db
      .updateTable('oauth_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('kind', '=', 'refresh')
      .where('used_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (first) return { row: first, firstUse: true };
    const again = await this.db.selectFrom('oauth_tokens').selectAll().where('token_hash', '=', tokenHash).where('kind', '=', 'refresh').executeTakeFirst();
    return again && { row: again, firstUse: false };
  }

  async insertTokens(tokens: OAuthTokenTable[]): Promise<void> {
    await this.db.insertInto('oauth_tokens').values(tokens).execute();
  }

  findGrant(grantId: string): Promise<OAuthGrantTable | undefined> {
    return this.db.selectFrom('oauth_grants').selectAll().where('id', '=', grantId).executeTakeFirst();
  }

  async findAccess(tokenHash: string): Promise<AccessRecord | undefined> {
    const row = await this.db
      .selectFrom('oauth_tokens as t')
      .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .selectAll('g')
      .select(['t.expires_at as token_expires_at', 'u.email as user_email', 'u.name as user_name', 'u.role as user_role'])
      .where('t.token_hash', '=', tokenHash)
      .where('t.kind', '=', 'access')
      .where('g.revoked_at', 'is', null)
      // Disabling a user revokes their grants; this also refuses a token of a grant made in the same instant.
      .where('u.disabled_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    const { token_expires_at, user_email, user_name, user_role, ...grant } = row;
    return { grant, expiresAt: token_expires_at, user: { id: grant.user_id, email: user_email, name: user_name, role: user_role } };
  }

  grantOfToken(tokenHash: string): Promise<OAuthGrantTable | undefined> {
    return this.db
      .selectFrom('oauth_tokens as t')
      .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
      .selectAll('g')
      .where('t.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  async touchGrant(grantId: string, now: string): Promise<void> {
    await this.db.updateTable('oauth_grants').set({ last_used_at: now }).where('id', '=', grantId).execute();
  }

  async revokeGrant(grantId: string, now: string, where?: { service: string; scopeKey: string }): Promise<boolean> {
    let query = this.db.updateTable('oauth_grants').set({ revoked_at: now }).where('id', '=', grantId).where('revoked_at', 'is', null);
    if (where) query = query.where('service', '=', where.service).where('scope_key', '=', where.scopeKey);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async listGrants(service: string, scopeKey: string): Promise<GrantListing[]> {
    const rows = await this.db
      .selectFrom('oauth_grants as g')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .selectAll('g')
      .select('u.email as user_email')
      .where('g.service', '=', service)
      .where('g.scope_key', '=', scopeKey)
      .where('g.revoked_at', 'is', null)
      .orderBy('g.created_at', 'desc')
      .orderBy('g.id')
      .execute();
    return rows.map(({ user_email, ...grant }) => ({ grant, userEmail: user_email }));
  }

  async sweep(now: Date): Promise<void> {
    const stamp = now.toISOString();
    await this.db
      .deleteFrom('oauth_codes')
      .where('expires_at', '<', new Date(now.getTime() - USED_CODE_KEEP_MS).toISOString())
      .execute();
    await this.db.deleteFrom('oauth_tokens').where('expires_at', '<', stamp).execute();
    const dead = new Date(now.getTime() - DEAD_GRANT_KEEP_MS).toISOString();
    await this.db.deleteFrom('oauth_grants').where('revoked_at', '<', dead).execute();
    await this.db
      .deleteFrom('oauth_grants')
      .where('created_at', '<', dead)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('oauth_tokens').select('oauth_tokens.grant_id').whereRef('oauth_tokens.grant_id', '=', 'oauth_grants.id'))),
      )
      .execute();
  }
}
