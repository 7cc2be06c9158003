import type { FastifyReply, FastifyRequest } from 'fastify';
import { fastifyCookie } from '@fastify/cookie';
import type { Kysely } from 'kysely';
import { isoNow } from './database.ts';
import { hashSecret, issueSecret } from './secrets.ts';
import type { PlatformTables, User } from './users.ts';

/** Name of the cookie that carries a web UI session. */
export const SESSION_COOKIE = 'sb_session';
/** A session ends after this long without use (14 days); each use slides it. */
export const SESSION_IDLE_MS = 14 * 86_400_000;
// Sliding the expiry on every request would make each page load a write; a minute's precision is enough.
const SESSION_TOUCH_MS = 60_000;
// 32 random bytes in base64url: anything else is not one of ours and costs no query.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The signed-in user as the session API shows it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'member';
}

/** The fields of a user that go over the wire in `{"user": …}`. */
export function presentSessionUser(user: SessionUser | User): SessionUser {
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

/** Sessions of the web UIs, in the platform database, so every instance of every service sees them. */
export class SessionStore {
  constructor(
    private readonly db: Kysely<PlatformTables>,
    private readonly idleMs: number = SESSION_IDLE_MS,
  ) {}

  /** Opens a session for a user; the token (the cookie's value) is returned here only, the database keeps its hash. */
  async create(userId: string, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
    // issueSecret with no prefix: 32 random bytes, base64url; its hash is the SHA-256 every token here is stored as.
    const issued = issueSecret('');
    const expiresAt = new Date(now.getTime() + this.idleMs);
    await this.db
      .insertInto('sessions')
      .values({ token_hash: issued.hash, user_id: userId, created_at: isoNow(now), last_used_at: isoNow(now), expires_at: isoNow(expiresAt) })
      .execute();
    // Expired rows go when someone signs in (an indexed range), instead of on a timer every instance would run.
    await this.db.deleteFrom('sessions').where('expires_at', '<=', isoNow(now)).execute();
    return { token: issued.value, expiresAt };
  }

  /**
   * The user of a live session, or undefined (unknown, signed out, or idle
   * past its lifetime). A use more than a minute after the last one slides
   * the expiry.
   */
  async resolve(token: string, now = new Date()): Promise<SessionUser | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const hash = hashSecret(token);
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.last_used_at', 'users.id', 'users.email', 'users.name', 'users.role'])
      .where('sessions.token_hash', '=', hash)
      .where('sessions.expires_at', '>', isoNow(now))
      // Disabling a user deletes their sessions; this keeps one that a race let through from working.
      .where('users.disabled_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    if (now.getTime() - Date.parse(row.last_used_at) >= SESSION_TOUCH_MS) {
      await this.db
        .updateTable('sessions')
        .set({ last_used_at: isoNow(now), expires_at: isoNow(new Date(now.getTime() + this.idleMs)) })
        .where('token_hash', '=', hash)
        .execute();
    }
    return { id: row.id, email: row.email, name: row.name, role: row.role };
  }

  /** Ends a session (sign out); unknown tokens are ignored. */
  async delete(token: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', hashSecret(token)).execute();
  }

  /** Ends every session of a user (a removed user, a changed password); returns how many there were. */
  async deleteForUser(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/**
 * The `sb_session` cookie's value of a request, or undefined. Reads
 * `request.cookies` when @fastify/cookie parsed them, else the header itself
 * (an onRequest hook registered before the plugin's runs first).
 */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  return cookiesOf(request)[SESSION_COOKIE] || undefined;
}

/** A request's cookies: as @fastify/cookie parsed them, else from the header (a service without the plugin). */
export function cookiesOf(request: FastifyRequest): Readonly<Record<string, string | undefined>> {
  const parsed = request.cookies as Record<string, string | undefined> | null | undefined;
  if (parsed) return parsed;
  const header = request.headers.cookie;
  return header ? fastifyCookie.parse(header) : {};
}

/** Whether the cookie gets `Secure`: PUBLIC_BASE_URL is https (TLS ends at a proxy), or the request itself came over TLS. */
function secureCookie(request: FastifyRequest, publicBaseUrl: string | undefined): boolean {
  return publicBaseUrl?.startsWith('https:') === true || request.protocol === 'https';
}

/**
 * Sets the session cookie on a reply: HttpOnly, SameSite=Lax, Path=/,
 * Max-Age 14 days, Secure on https. Needs @fastify/cookie (registerSessionRoutes registers it).
 */
export function setSessionCookie(reply: FastifyReply, token: string, publicBaseUrl: string | undefined, maxAgeMs = SESSION_IDLE_MS): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: Math.floor(maxAgeMs / 1000),
    secure: secureCookie(reply.request, publicBaseUrl),
  });
}

/** Removes the session cookie from the browser (Max-Age=0, an expiry in 1970). */
export function clearSessionCookie(reply: FastifyReply, publicBaseUrl: string | undefined): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: secureCookie(reply.request, publicBaseUrl) });
}
