import type { VersionedMigration } from '../migrations.ts';

/** A client: registered dynamically (RFC 7591), or the cached copy of a client ID metadata document. */
export interface OAuthClientTable {
  /** A registered client's random id, or the URL of its metadata document. */
  client_id: string;
  /** `registered` or `document`. */
  kind: string;
  /** JSON of the checked ClientMetadata. */
  metadata: string;
  created_at: string;
  /** When a document was last fetched (a registered client: its registration). */
  fetched_at: string;
  /** The client address a registered client was registered from (null for a document, or before 0007). */
  registered_from: string | null;
}

/** An authorization code: its hash, and everything the grant it becomes will carry. */
export interface OAuthCodeTable {
  /** SHA-256 hex of the code. */
  code_hash: string;
  client_id: string;
  client_name: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  /** The MCP endpoint URL the token is for. */
  resource: string;
  /** `tickets` or `flows`. */
  service: string;
  /** The project key or organization code granted. */
  scope_key: string;
  /** Granted scopes, space-separated. */
  scope: string;
  created_at: string;
  expires_at: string;
  /** Set when redeemed: a second redemption revokes the grant it made. */
  used_at: string | null;
  /** The grant the code became. */
  grant_id: string | null;
}

/** A person's consent for a client on one project or organization; its tokens live while it is not revoked. */
export interface OAuthGrantTable {
  id: string;
  user_id: string;
  client_id: string;
  /** The client's name when consent was given (what the grants list shows). */
  client_name: string;
  service: string;
  scope_key: string;
  resource: string;
  scope: string;
  created_at: string;
  /** Refreshed at most once a minute by the tokens' use. */
  last_used_at: string | null;
  revoked_at: string | null;
}

/** An access or refresh token of a grant, kept as its SHA-256 hash only. */
export interface OAuthTokenTable {
  token_hash: string;
  grant_id: string;
  /** `access` or `refresh`. */
  kind: string;
  created_at: string;
  expires_at: string;
  /** A refresh token's rotation: set when exchanged; presenting it again revokes the grant. */
  used_at: string | null;
}

/** The tables of the authorization server, in the platform database. */
export interface OAuthTables {
  oauth_clients: OAuthClientTable;
  oauth_codes: OAuthCodeTable;
  oauth_grants: OAuthGrantTable;
  oauth_tokens: OAuthTokenTable;
}

/** Migrations of the platform database for OAuth: clients, codes, grants and tokens. */
export const oauthMigrations: Record<string, VersionedMigration> = {
  '0005_oauth': {
    async up(db) {
      await db.schema
        .createTable('oauth_clients')
        .addColumn('client_id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('fetched_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('oauth_grants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_name', 'text', (c) => c.notNull())
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('scope_key', 'text', (c) => c.notNull())
        .addColumn('resource', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      // Settings → MCP Connection and LLM Hub → Tokens list a project's or organization's grants.
      await db.schema.createIndex('oauth_grants_scope').on('oauth_grants').columns(['service', 'scope_key']).execute();
      await db.schema.createIndex('oauth_grants_user').on('oauth_grants').column('user_id').execute();
      await db.schema
        .createTable('oauth_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_name', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('resource', 'text', (c) => c.notNull())
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('scope_key', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('grant_id', 'text')
        .execute();
      await db.schema.createIndex('oauth_codes_expires').on('oauth_codes').column('expires_at').execute();
      await db.schema
        .createTable('oauth_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('oauth_tokens_grant').on('oauth_tokens').column('grant_id').execute();
      await db.schema.createIndex('oauth_tokens_expires').on('oauth_tokens').column('expires_at').execute();
    },
  },
  // Registrations are counted per client address (OAUTH_REGISTRATION_RATE): one seek of this index.
  '0007_oauth_registered_from': {
    async up(db) {
      await db.schema.alterTable('oauth_clients').addColumn('registered_from', 'text').execute();
      await db.schema.createIndex('oauth_clients_registered_from').on('oauth_clients').columns(['registered_from', 'created_at']).execute();
    },
  },
};
