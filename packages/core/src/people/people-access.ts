import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { isSafeMethod } from '../origin-check.ts';
import type { WebSessions } from '../session-routes.ts';
import type { SessionUser } from '../web-session.ts';

/**
 * The signed-in user of a request's session cookie, or a 401 `not_signed_in`. A request with an
 * `Authorization` header is never taken for a session (a bearer token is not a person signed in).
 */
export async function requireSignedIn(web: WebSessions, request: FastifyRequest): Promise<SessionUser> {
  const user = request.headers.authorization === undefined ? await web.userOf(request) : undefined;
  if (!user) throw new AppError('not_signed_in', 'Not signed in');
  return user;
}

/** Cookie requests that change something carry the service's own Origin (CSRF), as every cookie write does. */
export function requireSameOriginWrite(web: WebSessions, request: FastifyRequest): void {
  if (!isSafeMethod(request.method)) web.requireSameOrigin(request);
}

/**
 * The onRequest check of every `/api/admin/*` route, before the body is read: a bearer token, and a signed-in
 * person who is not an admin, get the service's own 404 for a missing route (the admin API is not revealed);
 * no session is a 401 (the page signs in again); an admin's write must carry the service's Origin.
 */
export function adminOnly(web: WebSessions) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers.authorization !== undefined) return reply.callNotFound();
    const user = await web.userOf(request);
    if (!user) throw new AppError('not_signed_in', 'Not signed in');
    if (user.role !== 'admin') return reply.callNotFound();
    requireSameOriginWrite(web, request);
  };
}

/** The acting admin of a route behind adminOnly. */
export async function actingAdmin(web: WebSessions, request: FastifyRequest): Promise<SessionUser> {
  return requireSignedIn(web, request);
}

/** Who did something and to whom, as a log line names them (never a token or a password). */
export function auditFields(actor: SessionUser, action: string, target: { id: string; email: string }) {
  return { audit: { action, actor: { id: actor.id, email: actor.email }, target: { id: target.id, email: target.email } } };
}

/**
 * A request's JSON body: as Fastify parsed it, or parsed here on a service that reads every body as bytes
 * (the SMS service verifies signatures over them). The message never quotes the body: it may hold a password.
 */
export function jsonBodyOf(request: FastifyRequest): unknown {
  const body = request.body;
  if (!Buffer.isBuffer(body) && typeof body !== 'string') return body;
  const text = body.toString();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_json', 'Malformed JSON body: expected a JSON object');
  }
}
