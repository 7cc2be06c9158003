import { expect } from 'vitest';
import type { TestService } from './helpers.ts';

/** A signed-in user of the deployment: its id, email and session cookie (`sb_session=…`). */
export interface SignedIn {
  id: string;
  email: string;
  cookie: string;
}

/** The Origin a browser sends with the service's own pages (app.inject answers as http://localhost). */
export const OWN_ORIGIN = 'http://localhost';

/** Creates a user (an admin, or a member of `memberOf`) and signs it in over POST /api/session. */
export async function signedInUser(service: TestService, email: string, options: { admin?: boolean; memberOf?: string[] } = {}): Promise<SignedIn> {
  const { web } = service.context;
  const password = `${email.split('@')[0]}-password-1`;
  const { user } = await web.users.create({ email, password, admin: options.admin });
  for (const orgId of options.memberOf ?? []) await web.memberships.add('sms', orgId, user.id);
  const answer = await service.app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { 'content-type': 'application/json', origin: OWN_ORIGIN },
    payload: { email, password },
  });
  expect(answer.statusCode).toBe(200);
  const cookie = /sb_session=[^;]+/.exec(String(answer.headers['set-cookie']))![0];
  return { id: user.id, email: user.email, cookie };
}

/** What a console call sends: method, JSON body, extra headers; `origin: false` leaves the Origin out. */
export interface ConsoleInit {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  origin?: string | false;
}

/** An answer: status and parsed JSON body. */
export interface ConsoleAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: as light-my-request's json() gives it; each test reads and asserts the fields of the answer it expects.
  body: any;
}

/** Calls the service as the console does: the session cookie, and on writes the service's own Origin (a browser sends it). */
export async function consoleCall(service: TestService, cookie: string | undefined, url: string, init: ConsoleInit = {}): Promise<ConsoleAnswer> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { ...(cookie ? { cookie } : {}), ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && init.origin !== false) headers.origin = init.origin ?? OWN_ORIGIN;
  const answer = await service.app.inject({ method, url, headers, payload: init.body === undefined ? undefined : JSON.stringify(init.body) });
  return { status: answer.statusCode, body: answer.body === '' ? undefined : answer.json() };
}

/** Posts received messages through the native webhook; answers their ids. */
export async function receive(service: TestService, messages: Array<{ from: string; body: string; sim?: string; to?: string }>): Promise<number[]> {
  const events = messages.map((message) => ({ event: 'sms.received', message: { to: '+15550009999', sim: 'sim1', ...message } }));
  const answer = await service.app.inject({
    method: 'POST',
    url: '/webhook',
    headers: { 'content-type': 'application/json', 'x-secret-key': service.key },
    payload: { events },
  });
  expect(answer.statusCode).toBe(200);
  return answer.json().stored;
}

/** Sends a message with the organization's key; answers the message record. */
export async function send(service: TestService, to: string, body: string): Promise<{ id: number; status: string }> {
  const answer = await service.app.inject({
    method: 'POST',
    url: `/send/${service.orgId}`,
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    payload: { to, body },
  });
  expect(answer.statusCode).toBe(200);
  return answer.json();
}
