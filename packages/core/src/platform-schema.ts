import type { VersionedMigration } from './migrations.ts';

/** A signed-in browser: the cookie's token is stored only as its SHA-256 hash. */
export interface SessionTable {
  /** SHA-256 hex of the `sb_session` cookie value; the lookup key. */
  token_hash: string;
  user_id: string;
  created_at: string;
  /** Refreshed at most once a minute, so a page load is not a write per request. */
  last_used_at: string;
  /** last_used_at plus the idle lifetime (14 days): the session slides while it is used. */
  expires_at: string;
}

/** Who may see what outside the admin role: ('flows', ORG_CODE, user) or ('tickets', KEY, user). */
export interface MembershipTable {
  /** The service the scope belongs to: `flows` or `tickets`. */
  service: string;
  /** The organization code (flows) or project key (tickets). */
  scope_key: string;
  user_id: string;
  created_at: string;
}

/** Failed sign-ins counted per email and per client address, shared by every instance. */
export interface SignInFailureTable {
  /** `email:ADDRESS` or `address:IP`. */
  key: string;
  /** When the window's first failure happened (ms since the epoch); the window lasts a minute from here. */
  first_failure_at: number;
  failures: number;
}

/** Migrations of the platform database for web sign-in: sessions, memberships, failed sign-ins. */
export const webSignInMigrations: Record<string, VersionedMigration> = {
  '0002_sessions': {
    async up(db) {
      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
      await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();
    },
  },
  '0003_memberships': {
    async up(db) {
      await db.schema
        .createTable('memberships')
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('scope_key', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['service', 'scope_key', 'user_id'])
        .execute();
      // "Which organizations may this user see": the lookup behind GET /api/session.
      await db.schema.createIndex('memberships_user').on('memberships').columns(['user_id', 'service']).execute();
    },
  },
  '0004_sign_in_failures': {
    async up(db) {
      await db.schema
        .createTable('sign_in_failures')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('first_failure_at', 'bigint', (c) => c.notNull())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sign_in_failures_first').on('sign_in_failures').column('first_failure_at').execute();
    },
  },
};
