import { AppError, isSafeMethod, sessionTokenOf, type SessionUser } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import type { SmsContext } from './context.ts';
import { invalidCredentials, presentedKey } from './credentials.ts';

/**
 * Who calls an organization's endpoint: a secret key of the organization, or a signed-in user who may see it
 * (a session counts as one of the organization's keys). `reader` names whose read marks the unread counts use.
 */
export type SmsCaller = { orgId: string; reader: string } & ({ kind: 'key'; keyId: number } | { kind: 'user'; user: SessionUser });

/** 404 for an organization a user may not see, worded exactly as for one that does not exist. */
export function organizationNotFound(): AppError {
  return new AppError('not_found', 'Organization not found');
}

/**
 * The caller of `orgId`'s endpoint. A secret key (X-Secret-Key, or `Authorization: Bearer sms_…`) wins: the
 * uniform 401 for a wrong, revoked or other organization's key. Without one, the `sb_session` cookie: 401
 * without a live session, 403 for a write whose Origin is not this service's, 404 for an organization the
 * user may not see (an admin sees every one, a member those of their memberships). Neither: the same 401 as
 * a wrong key.
 */
export async function callerOf(context: SmsContext, request: FastifyRequest, orgId: string): Promise<SmsCaller> {
  const key = presentedKey(request, false);
  if (key !== undefined) {
    const found = await context.orgs.authenticateKey(key, new Date());
    if (!found || found.orgId !== orgId) throw invalidCredentials();
    return { kind: 'key', orgId, keyId: found.keyId, reader: `key:${found.keyId}` };
  }
  const { web } = context;
  if (!web.hasSessionCookie(request)) throw invalidCredentials();
  const user = await web.userOf(request);
  if (!user) throw new AppError('not_signed_in', 'Not signed in: the session expired or was signed out; sign in again');
  // CSRF: a browser sends the cookie with a form posted from any site, but the Origin tells where it came from.
  if (!isSafeMethod(request.method)) web.requireSameOrigin(request);
  if (!(await mayAccess(context, orgId, user))) throw organizationNotFound();
  return { kind: 'user', orgId, user, reader: `user:${user.id}` };
}

/** Whether a signed-in user may see an organization: it exists, and the user is an admin or one of its members. */
export async function mayAccess(context: SmsContext, orgId: string, user: SessionUser): Promise<boolean> {
  if (!(await context.orgs.findOrganization(orgId))) return false;
  return context.web.memberships.canAccess('sms', orgId, user);
}

/** The caller when it must be a signed-in user (managing keys): 403 for a secret key. */
export function requireUser(caller: SmsCaller): SessionUser {
  if (caller.kind !== 'user') throw new AppError('forbidden', 'Managing keys needs a signed-in user: use the console, or the CLI (switchboard sms key …)');
  return caller.user;
}

/** Whether the caller of an open stream may still see the organization: its key is live, or its session is and its user may. */
export async function stillAllowed(context: SmsContext, request: FastifyRequest, caller: SmsCaller): Promise<boolean> {
  if (caller.kind === 'key') {
    const key = presentedKey(request, false);
    const found = key === undefined ? undefined : await context.orgs.authenticateKey(key, new Date());
    return found?.keyId === caller.keyId;
  }
  const token = sessionTokenOf(request);
  const user = token === undefined ? undefined : await context.web.sessions.resolve(token, context.web.now());
  return user !== undefined && user.id === caller.user.id && (await mayAccess(context, caller.orgId, user));
}
