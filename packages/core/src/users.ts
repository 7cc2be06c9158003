import { randomBytes, randomUUID, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import { openDatabase, isoNow, type Database } from './database.ts';
import { AppError } from './errors.ts';
import type { Env } from './config.ts';
import { envUrl } from './config.ts';
import { resolve } from 'node:path';
import { webSignInMigrations, type MembershipTable, type SessionTable, type SignInFailureTable } from './platform-schema.ts';
import { oauthMigrations, type OAuthTables } from './oauth/oauth-schema.ts';
import { peopleMigrations, type InvitationTable } from './people/people-schema.ts';
import { MIN_PASSWORD_LENGTH } from './people/people-rules.ts';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** The deployment's people: they log in to the web UIs and are the ticket board's members. */
export interface UserTable {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'member';
  /** The scrypt hash; empty while an invited person has not set a password yet (no password matches it). */
  password_hash: string;
  created_at: string;
  /** Set while the user is disabled: no sign-in, no session, no OAuth token. */
  disabled_at: string | null;
}

/** Tables of the platform database: users, the web UIs' sessions, memberships and failed sign-ins, invitations, and OAuth's grants. */
export interface PlatformTables extends OAuthTables {
  users: UserTable;
  invitations: InvitationTable;
  sessions: SessionTable;
  memberships: MembershipTable;
  sign_in_failures: SignInFailureTable;
}

/** A user as the API shows it (never the password hash). */
export interface User {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'member';
  created_at: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Opens the platform database: `DATA_DIR/switchboard.db`, or schema `platform` on DATABASE_URL. */
export function openPlatformDatabase(env: Env = process.env): Promise<Database<PlatformTables>> {
  const dataDir = resolve(env.DATA_DIR || './data');
  return openDatabase<PlatformTables>({
    url: envUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    urlVariable: 'DATABASE_URL',
    sqliteFile: join(dataDir, 'switchboard.db'),
    schema: 'platform',
    migrations: {
      '0001_users': {
        async up(db) {
          await db.schema
            .createTable('users')
            .addColumn('id', 'text', (c) => c.primaryKey())
            .addColumn('email', 'text', (c) => c.notNull().unique())
            .addColumn('name', 'text', (c) => c.notNull())
            .addColumn('role', 'text', (c) => c.notNull())
            .addColumn('password_hash', 'text', (c) => c.notNull())
            .addColumn('created_at', 'text', (c) => c.notNull())
            .execute();
        },
      },
      ...webSignInMigrations,
      ...oauthMigrations,
      ...peopleMigrations,
    },
  });
}

/** Opens the platform database beside a service's own, already open: when it cannot be opened, `own` is closed before the error goes on. */
export async function openPlatformBeside(env: Env, own: { close(): Promise<void> }): Promise<Database<PlatformTables>> {
  try {
    return await openPlatformDatabase(env);
  } catch (error) {
    await own.close();
    throw error;
  }
}

/** Hashes a password with scrypt (`scrypt$salt$hash`, base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Checks a password against a stored scrypt hash in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected);
}

/** Users of the deployment. */
export class UserStore {
  constructor(private readonly db: Kysely<PlatformTables>) {}

  /** Creates a user; a missing password is generated and returned once. */
  async create(input: { email: string; password?: string; admin?: boolean; name?: string }): Promise<{ user: User; password: string }> {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email)) throw new AppError('invalid_request', `"${input.email}" is not an email address`);
    const password = input.password ?? randomBytes(12).toString('base64url');
    // The same rule as an invitation's and the Account page's: a password chosen on the command line or in
    // SWITCHBOARD_ADMIN_PASSWORD is no weaker than one chosen in the browser.
    if (password.length < MIN_PASSWORD_LENGTH) throw new AppError('invalid_request', `password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    const existing = await this.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    if (existing) throw new AppError('conflict', `a user with email ${email} already exists`);
    const row: UserTable = {
      id: randomUUID(),
      email,
      name: input.name ?? email.split('@')[0],
      role: input.admin ? 'admin' : 'member',
      password_hash: await hashPassword(password),
      created_at: isoNow(),
      disabled_at: null,
    };
    await this.db.insertInto('users').values(row).execute();
    return { user: presentUser(row), password };
  }

  /** Every user, oldest first. */
  async list(): Promise<User[]> {
    const rows = await this.db.selectFrom('users').selectAll().orderBy('created_at').orderBy('email').execute();
    return rows.map(presentUser);
  }

  /** The number of users (zero means the deployment was never bootstrapped). */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The user with these credentials, or undefined. An unknown email (and a
   * disabled user, or an invited one without a password yet) costs the same
   * scrypt as a wrong password, so the answer's timing does not say which it was.
   */
  async authenticate(email: string, password: string): Promise<User | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
    if (!row || row.disabled_at !== null || row.password_hash === '') {
      await verifyPassword(password, await unknownUserHash());
      return undefined;
    }
    if (!(await verifyPassword(password, row.password_hash))) return undefined;
    return presentUser(row);
  }

  /** The user with this email (any case), or undefined. */
  async findByEmail(email: string): Promise<User | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
    return row && presentUser(row);
  }

  /** The user with this email, or a not_found error naming it (the CLI's membership commands). */
  async requireByEmail(email: string): Promise<User> {
    const user = await this.findByEmail(email);
    if (!user) throw new AppError('not_found', `No user with email ${email.trim().toLowerCase()}; create one with \`switchboard user create\``);
    return user;
  }
}

let dummyHash: Promise<string> | undefined;

/** A scrypt hash of a random password, made once per process: what an unknown email's password is checked against. */
function unknownUserHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  return dummyHash;
}

function presentUser(row: UserTable): User {
  return { id: row.id, email: row.email, name: row.name, role: row.role, created_at: row.created_at };
}
