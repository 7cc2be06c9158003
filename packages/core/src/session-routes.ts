import type { FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Rate } from './config.ts';
import type { Database } from './database.ts';
import { AppError } from './errors.ts';
import type { App } from './http-server.ts';
import { MembershipStore } from './memberships.ts';
import { requireSameOrigin } from './origin-check.ts';
import { SIGN_IN_FAILURE_RATE, SignInLimiter, signInKeys } from './sign-in-limit.ts';
import { UserStore, type PlatformTables } from './users.ts';
import { SessionStore, clearSessionCookie, presentSessionUser, sessionTokenOf, setSessionCookie, type SessionUser } from './web-session.ts';

/** What a service needs to accept web UI sessions: the stores, and the two checks its own authentication calls. */
export interface WebSessions {
  users: UserStore;
  sessions: SessionStore;
  memberships: MembershipStore;
  signIns: SignInLimiter;
  /** PUBLIC_BASE_URL, when configured: its origin is accepted by the Origin check and https makes the cookie Secure. */
  publicBaseUrl: string | undefined;
  /** The clock the sessions and sign-in counters read (tests move it instead of sleeping). */
  now: () => Date;
  /** True when the request carries an `sb_session` cookie (valid or not). */
  hasSessionCookie(request: FastifyRequest): boolean;
  /** The user of the request's session cookie, or undefined; looked up once per request. */
  userOf(request: FastifyRequest): Promise<SessionUser | undefined>;
  /** 403 (`forbidden`) unless the request's Origin, or Referer, is this service's or PUBLIC_BASE_URL's. */
  requireSameOrigin(request: FastifyRequest): void;
}

/** Options of createWebSessions. */
export interface WebSessionOptions {
  /** PUBLIC_BASE_URL of the service, if any. */
  publicBaseUrl: string | undefined;
  /** The clock; `() => new Date()` unless a test passes its own. */
  now?: () => Date;
  /** Failed sign-ins allowed per email and per address (default 10 per 60 s). */
  signInRate?: Rate;
}

/** Builds the session machinery on the platform database (without routes: see registerSessionRoutes). */
export function createWebSessions(platform: Kysely<PlatformTables>, options: WebSessionOptions): WebSessions {
  const sessions = new SessionStore(platform);
  const now = options.now ?? (() => new Date());
  const resolved = new WeakMap<FastifyRequest, Promise<SessionUser | undefined>>();
  return {
    users: new UserStore(platform),
    sessions,
    memberships: new MembershipStore(platform),
    signIns: new SignInLimiter(platform, options.signInRate ?? SIGN_IN_FAILURE_RATE),
    publicBaseUrl: options.publicBaseUrl,
    now,
    hasSessionCookie: (request) => sessionTokenOf(request) !== undefined,
    userOf(request) {
      let user = resolved.get(request);
      if (!user) {
        const token = sessionTokenOf(request);
        user = token === undefined ? Promise.resolve(undefined) : sessions.resolve(token, now());
        resolved.set(request, user);
      }
      return user;
    },
    requireSameOrigin: (request) => requireSameOrigin(request, options.publicBaseUrl),
  };
}

/** Options of registerSessionRoutes. */
export interface SessionRoutesOptions extends WebSessionOptions {
  /** The platform database (users, sessions, memberships). */
  platform: Database<PlatformTables>;
  /**
   * Fields `GET /api/session` adds beside `user`: the flows service lists
   * `organizations`, the ticket board `projects`.
   */
  describe?: (user: SessionUser) => Promise<Record<string, unknown>>;
}

/** `{"email", "password"}` of a sign-in. */
export const signInBody = z.object({
  email: z.string().min(1).max(320),
  password: z.string().min(1).max(1024),
});

/** `{"user": {...}}`: the signed-in user. */
export const sessionUserBody = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string(), role: z.enum(['admin', 'member']) }),
});

const NOT_SIGNED_IN = 'Not signed in';
const INVALID_CREDENTIALS = 'Invalid email or password';

/**
 * Registers the sign-in API every service shares (web.md, "Signing in"):
 * `POST /api/session` (sign in; 401 `invalid_credentials`, 429 after 10
 * failures a minute per email or address, 403 for a foreign Origin),
 * `GET /api/session` (the user plus `describe`'s fields; 401
 * `not_signed_in`) and `DELETE /api/session` (204, the session deleted and
 * the cookie cleared). Errors are AppErrors, so each service's own error
 * handler gives them its shape. Registers @fastify/cookie when the app does
 * not have it yet.
 */
export async function registerSessionRoutes(app: App, options: SessionRoutesOptions): Promise<WebSessions> {
  if (!app.hasRequestDecorator('cookies')) await app.register(fastifyCookie);
  const web = createWebSessions(options.platform.db, options);
  const tags = ['session'];

  app.post(
    '/api/session',
    {
      schema: { tags, summary: 'Sign in: sets the sb_session cookie', body: signInBody, response: { 200: sessionUserBody } },
      // Login CSRF: a page elsewhere must not sign a browser in to an account of its choosing. Clients
      // without an Origin (curl, scripts) are not browsers and may sign in.
      onRequest: async (request) => {
        if (request.headers.origin !== undefined) web.requireSameOrigin(request);
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const now = web.now();
      const keys = signInKeys(request.body.email, request.ip);
      const wait = await web.signIns.retryAfter(keys, now.getTime());
      if (wait > 0) {
        // Set here as well as by the service's error handler: not every handler sends Retry-After.
        reply.header('retry-after', String(wait));
        throw new AppError('rate_limited', `Too many failed sign-ins: try again in ${wait} s`, undefined, wait);
      }
      const user = await web.users.authenticate(request.body.email, request.body.password);
      if (!user) {
        await web.signIns.recordFailure(keys, now.getTime());
        throw new AppError('invalid_credentials', INVALID_CREDENTIALS);
      }
      await web.signIns.sweep(now.getTime());
      // A browser signing in again replaces its session rather than leaving the old one alive.
      const previous = sessionTokenOf(request);
      if (previous !== undefined) await web.sessions.delete(previous);
      const { token } = await web.sessions.create(user.id, now);
      setSessionCookie(reply, token, options.publicBaseUrl);
      return { user: presentSessionUser(user) };
    },
  );

  app.get(
    '/api/session',
    { schema: { tags, summary: 'The signed-in user (401 when not signed in)', response: { 200: sessionUserBody.loose() } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const user = await web.userOf(request);
      if (!user) {
        // A cookie the server no longer knows (expired, signed out elsewhere) is removed from the browser too.
        if (web.hasSessionCookie(request)) clearSessionCookie(reply, options.publicBaseUrl);
        throw new AppError('not_signed_in', NOT_SIGNED_IN);
      }
      return { user: presentSessionUser(user), ...(options.describe ? await options.describe(user) : {}) };
    },
  );

  app.delete('/api/session', { schema: { tags, summary: 'Sign out: deletes the session and clears the cookie' } }, async (request, reply) => {
    const token = sessionTokenOf(request);
    if (token !== undefined) {
      // Signing out changes state with the cookie: the same Origin rule as every other cookie write.
      web.requireSameOrigin(request);
      await web.sessions.delete(token);
    }
    clearSessionCookie(reply, options.publicBaseUrl);
    reply.header('cache-control', 'no-store');
    return reply.code(204).send();
  });
  return web;
}
