import { AppError } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import type { OrgStore } from '../store/org-store.ts';

/** The one answer for every credential failure, so nothing reveals whether an organization exists. */
export function invalidCredentials(): AppError {
  return new AppError('unauthorized', 'Invalid credentials');
}

/** A request header's value; the first one when it was sent several times. */
export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The secret key a request presents: `X-Secret-Key`, then `?key=` when
 * allowed (the webhook), then `Authorization: Bearer` when it holds one of
 * our keys (httpSMS puts its own JWT there).
 */
export function presentedKey(request: FastifyRequest, allowQuery: boolean): string | undefined {
  const direct = header(request, 'x-secret-key');
  if (direct) return direct.trim();
  if (allowQuery) {
    const query = (request.query as Record<string, string | string[] | undefined>).key;
    const value = Array.isArray(query) ? query[query.length - 1] : query;
    if (value) return value;
  }
  const authorization = header(request, 'authorization');
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (match && (!allowQuery || match[1].startsWith('sms_'))) return match[1];
  return undefined;
}

/** Checks that `key` is a live key of `orgId`; throws the uniform 401 otherwise. */
export async function requireOrgKey(orgs: OrgStore, orgId: string, key: string | undefined): Promise<void> {
  if (!key) throw invalidCredentials();
  const owner = await orgs.organizationOfKey(key, new Date());
  if (owner !== orgId) throw invalidCredentials();
}
