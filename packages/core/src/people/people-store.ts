import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { isoNow } from '../database.ts';
import { AppError } from '../errors.ts';
import { hashSecret, issueSecret } from '../secrets.ts';
import type { PlatformTables } from '../users.ts';
import { INVITATION_PREFIX, invitationExpiry, presentPerson, type Person, type PersonChange, type PersonRow } from './people-rules.ts';

/** A link just made: its token (shown this once) and when it stops working. */
export interface IssuedInvitation {
  token: string;
  expiresAt: Date;
}

/** An invitation found by its token, with its person. */
export interface FoundInvitation {
  user_id: string;
  email: string;
  name: string;
  expires_at: string;
  used_at: string | null;
  disabled_at: string | null;
}

const PERSON_COLUMNS = ['id', 'email', 'name', 'role', 'password_hash', 'disabled_at', 'created_at'] as const;
// Code unit order, the same on both engines (PostgreSQL's collation would sort otherwise than SQLite's).
const byEmail = (a: { email: string }, b: { email: string }) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0);

/** The people of the deployment as admins manage them, and the invitation links, in the platform database. */
export class PeopleStore {
  constructor(private readonly db: Kysely<PlatformTables>) {}

  /** Every person, by email. */
  async list(): Promise<Person[]> {
    const rows = await this.db.selectFrom('users').select(PERSON_COLUMNS).execute();
    return rows.sort(byEmail).map(presentPerson);
  }

  /** The person with this id, or undefined. */
  find(id: string): Promise<PersonRow | undefined> {
    return this.db.selectFrom('users').select(PERSON_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /**
   * Creates a person without a password and their first invitation link, in one transaction; an email taken
   * (whatever its case: emails are stored in lower case) is a 409 `conflict`.
   */
  async invite(input: { email: string; name: string; admin: boolean }, createdBy: string, now: Date): Promise<{ person: Person } & IssuedInvitation> {
    const taken = () => new AppError('conflict', `A user with the email ${input.email} already exists`);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const existing = await trx.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
        if (existing) throw taken();
        const row: PersonRow = {
          id: randomUUID(),
          email: input.email,
          name: input.name,
          role: input.admin ? 'admin' : 'member',
          password_hash: '',
          disabled_at: null,
          created_at: isoNow(now),
        };
        await trx.insertInto('users').values(row).execute();
        const issued = await issueInvitation(trx, row.id, createdBy, now);
        return { person: presentPerson(row), ...issued };
      });
    } catch (error) {
      // Two admins inviting the same email at once: the unique index refuses the second.
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  /**
   * Changes a person. Disabling ends everything they are signed in with, in the same transaction: their
   * sessions are deleted, their OAuth grants revoked (so every access and refresh token of them fails on its
   * next use), their unused authorization codes and invitation links deleted.
   */
  async change(id: string, change: PersonChange, now: Date): Promise<Person | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('users').select(PERSON_COLUMNS).where('id', '=', id).executeTakeFirst();
      if (!current) return undefined;
      const next: PersonRow = { ...current };
      if (change.name !== undefined) next.name = change.name;
      if (change.admin !== undefined) next.role = change.admin ? 'admin' : 'member';
      if (change.disabled !== undefined) next.disabled_at = change.disabled ? (current.disabled_at ?? isoNow(now)) : null;
      await trx.updateTable('users').set({ name: next.name, role: next.role, disabled_at: next.disabled_at }).where('id', '=', id).execute();
      if (change.disabled === true) {
        const stamp = isoNow(now);
        await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
        await trx.updateTable('oauth_grants').set({ revoked_at: stamp }).where('user_id', '=', id).where('revoked_at', 'is', null).execute();
        await trx.deleteFrom('oauth_codes').where('user_id', '=', id).where('used_at', 'is', null).execute();
        await trx.deleteFrom('invitations').where('user_id', '=', id).execute();
      }
      return presentPerson(next);
    });
  }

  /** A new link for a person; their earlier links stop working. */
  newInvitation(userId: string, createdBy: string, now: Date): Promise<IssuedInvitation> {
    return this.db.transaction().execute((trx) => issueInvitation(trx, userId, createdBy, now));
  }

  /** The invitation of a presented token and its person, or undefined (a token of another shape costs no query). */
  async findInvitation(token: string): Promise<FoundInvitation | undefined> {
    if (!token.startsWith(INVITATION_PREFIX) || token.length > 100) return undefined;
    return this.db
      .selectFrom('invitations as i')
      .innerJoin('users as u', 'u.id', 'i.user_id')
      .select(['i.user_id', 'u.email', 'u.name', 'i.expires_at', 'i.used_at', 'u.disabled_at'])
      .where('i.token_hash', '=', hashSecret(token))
      .executeTakeFirst();
  }

  /**
   * Uses a link: sets the person's password and ends their sessions (a password reset signs out everywhere
   * else), all or nothing. The link is claimed first, so of two uses at once only one succeeds; undefined when
   * it no longer works (used, expired, its person disabled meanwhile).
   */
  async accept(token: string, passwordHash: string, now: Date): Promise<PersonRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const stamp = isoNow(now);
      const claimed = await trx
        .updateTable('invitations')
        .set({ used_at: stamp })
        .where('token_hash', '=', hashSecret(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', stamp)
        .returning('user_id')
        .executeTakeFirst();
      if (!claimed) return undefined;
      const person = await trx.selectFrom('users').select(PERSON_COLUMNS).where('id', '=', claimed.user_id).where('disabled_at', 'is', null).executeTakeFirst();
      if (!person) return undefined;
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', person.id).execute();
      await trx.deleteFrom('invitations').where('user_id', '=', person.id).where('used_at', 'is', null).execute();
      await trx.deleteFrom('sessions').where('user_id', '=', person.id).execute();
      return { ...person, password_hash: passwordHash };
    });
  }

  /** Renames a person (their own Account page). */
  async rename(id: string, name: string): Promise<void> {
    await this.db.updateTable('users').set({ name }).where('id', '=', id).execute();
  }

  /** The stored password hash of a person ('' before they set one). */
  async passwordHashOf(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirst();
    return row?.password_hash;
  }

  /** Sets a new password and ends every session of the person but the one it was changed from. */
  async changePassword(id: string, passwordHash: string, keepSessionToken: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
      const ended = await trx.deleteFrom('sessions').where('user_id', '=', id).where('token_hash', '!=', hashSecret(keepSessionToken)).executeTakeFirst();
      return Number(ended.numDeletedRows);
    });
  }
}

/** Makes a link for a person: their other links are deleted, the new one's token stored only as its hash. */
async function issueInvitation(trx: Transaction<PlatformTables>, userId: string, createdBy: string, now: Date): Promise<IssuedInvitation> {
  const issued = issueSecret(INVITATION_PREFIX);
  const expiresAt = invitationExpiry(now);
  await trx.deleteFrom('invitations').where('user_id', '=', userId).execute();
  await trx
    .insertInto('invitations')
    .values({ token_hash: issued.hash, user_id: userId, created_by: createdBy, created_at: isoNow(now), expires_at: isoNow(expiresAt), used_at: null })
    .execute();
  return { token: issued.value, expiresAt };
}

/** A unique index refused an insert (PostgreSQL 23505, SQLite's constraint error). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
