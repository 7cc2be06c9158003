import type { Kysely } from 'kysely';
import { isoNow } from './database.ts';
import type { PlatformTables } from './users.ts';

/** The services whose scopes have members: flows organizations, ticket-board projects, SMS organizations. */
export type MembershipService = 'flows' | 'tickets' | 'sms';

/** A member of a scope, as Settings → Members lists them. */
export interface Member {
  user_id: string;
  email: string;
  name: string;
  role: 'admin' | 'member';
  added_at: string;
}

/** A user with a role, as access checks need it. */
interface RoleHolder {
  id: string;
  role: 'admin' | 'member';
}

/**
 * Who may see which organization (flows, SMS) or project (tickets) besides the
 * admins, who see everything. Kept in the platform database, next to the
 * users, so both services read one list.
 */
export class MembershipStore {
  constructor(private readonly db: Kysely<PlatformTables>) {}

  /** Makes a user a member of a scope; true when added, false when already a member. */
  async add(service: MembershipService, scopeKey: string, userId: string, now = new Date()): Promise<boolean> {
    const result = await this.db
      .insertInto('memberships')
      .values({ service, scope_key: scopeKey, user_id: userId, created_at: isoNow(now) })
      .onConflict((oc) => oc.columns(['service', 'scope_key', 'user_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Removes a membership; true when there was one. */
  async remove(service: MembershipService, scopeKey: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('memberships')
      .where('service', '=', service)
      .where('scope_key', '=', scopeKey)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Whether the user is a member of the scope (admins are not listed: see canAccess). */
  async isMember(service: MembershipService, scopeKey: string, userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('memberships')
      .select('user_id')
      .where('service', '=', service)
      .where('scope_key', '=', scopeKey)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Whether a user may see a scope: every admin may, any other user when a member. */
  async canAccess(service: MembershipService, scopeKey: string, user: RoleHolder): Promise<boolean> {
    return user.role === 'admin' || this.isMember(service, scopeKey, user.id);
  }

  /** The scope keys a user is a member of, sorted by code unit (the same on both engines, whatever PostgreSQL's collation). */
  async scopesOf(service: MembershipService, userId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('memberships').select('scope_key').where('user_id', '=', userId).where('service', '=', service).execute();
    return rows.map((row) => row.scope_key).sort();
  }

  /** The members of a scope, by email. */
  async members(service: MembershipService, scopeKey: string): Promise<Member[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.id', 'users.email', 'users.name', 'users.role', 'memberships.created_at'])
      .where('memberships.service', '=', service)
      .where('memberships.scope_key', '=', scopeKey)
      .execute();
    rows.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
    return rows.map((row) => ({ user_id: row.id, email: row.email, name: row.name, role: row.role, added_at: row.created_at }));
  }
}
