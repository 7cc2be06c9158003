import type { VersionedMigration } from '../migrations.ts';

/** A one-time link that lets a person set their password: a new person's invitation, or a password reset. */
export interface InvitationTable {
  /** SHA-256 hex of the link's token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  /** The admin who made the link. */
  created_by: string;
  created_at: string;
  /** created_at plus 7 days. */
  expires_at: string;
  /** Set when the link is used: it never works twice. */
  used_at: string | null;
}

/** Migrations of the platform database for administering people: invitations, and disabled users. */
export const peopleMigrations: Record<string, VersionedMigration> = {
  '0006_people': {
    async up(db) {
      await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
      await db.schema
        .createTable('invitations')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      // A new link ends the user's earlier ones: found by user.
      await db.schema.createIndex('invitations_user').on('invitations').column('user_id').execute();
    },
  },
};
