import { expect } from 'vitest';
import { MembershipStore, UserStore, openPlatformDatabase } from '@switchboard/core';
import type { Board } from './helpers.ts';

/** A user of the deployment, signed in: its id, email and session cookie (`sb_session=…`). */
export interface SignedIn {
  id: string;
  email: string;
  cookie: string;
}

/** Creates a user in the platform database (optionally an admin, optionally a member of projects). */
export async function addUser(
  board: Board,
  email: string,
  options: { admin?: boolean; memberOf?: string[]; name?: string } = {},
): Promise<{ id: string; email: string; password: string }> {
  const platform = await openPlatformDatabase(board.env);
  try {
    const password = `${email.split('@')[0]}-password-1`;
    const { user } = await new UserStore(platform.db).create({ email, password, admin: options.admin, name: options.name });
    for (const key of options.memberOf ?? []) await new MembershipStore(platform.db).add('tickets', key, user.id);
    return { id: user.id, email: user.email, password };
  } finally {
    await platform.close();
  }
}

/** Signs a user in over POST /api/session and returns its cookie. */
export async function signIn(board: Board, email: string, password: string): Promise<string> {
  const response = await fetch(`${board.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(200);
  return response.headers.get('set-cookie')!.split(';')[0];
}

/** Creates a user and signs it in. */
export async function signedInUser(board: Board, email: string, options: { admin?: boolean; memberOf?: string[]; name?: string } = {}): Promise<SignedIn> {
  const user = await addUser(board, email, options);
  return { id: user.id, email: user.email, cookie: await signIn(board, email, user.password) };
}

/** What a web call sends: method, JSON body, extra headers; `origin: false` leaves the Origin header out. */
export interface WebInit {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  origin?: string | false;
}

/** An HTTP answer: status and parsed JSON body (undefined when empty). */
export interface WebAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the JSON as parsed, of whichever route answered; each test reads and asserts the fields it expects.
  body: any;
  headers: Headers;
}

/**
 * Calls the board's API as the web UI does: the session cookie, and on writes the service's own Origin
 * (a browser sends it), unless told otherwise.
 */
export async function webCall(board: Board, cookie: string | undefined, path: string, init: WebInit = {}): Promise<WebAnswer> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { ...(cookie ? { cookie } : {}), ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && init.origin !== false) headers.origin = init.origin ?? board.url;
  const response = await fetch(`${board.url}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** A caller bound to one cookie (or one Bearer token when `token` is given instead). */
export function webClient(board: Board, auth: { cookie: string } | { token: string }) {
  return (path: string, init: WebInit = {}) =>
    'cookie' in auth
      ? webCall(board, auth.cookie, path, init)
      : webCall(board, undefined, path, { ...init, origin: false, headers: { authorization: `Bearer ${auth.token}`, ...init.headers } });
}
