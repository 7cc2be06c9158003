import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import type { App } from '../http-server.ts';
import { sessionUserBody, type WebSessions } from '../session-routes.ts';
import { hashPassword, verifyPassword } from '../users.ts';
import { presentSessionUser, sessionTokenOf, setSessionCookie } from '../web-session.ts';
import { auditFields, jsonBodyOf, requireSameOriginWrite, requireSignedIn } from './people-access.ts';
import { signInKeys } from '../sign-in-limit.ts';
import { acceptBody, accountBody, invalidInvitation, invitationUsable, parseBody, passwordChangeBody, wrongCurrentPassword } from './people-rules.ts';
import type { PeopleStore } from './people-store.ts';

const tokenParams = z.object({ token: z.string() });

/**
 * A person's own account (`PATCH /api/account`, `POST /api/account/password`) and the invitation links'
 * acceptance (`GET`/`POST /api/invitations/{token}`), which needs no session: it makes one.
 */
export function registerAccountRoutes(app: App, web: WebSessions, people: PeopleStore): void {
  const signedInWrite = async (request: FastifyRequest) => {
    const user = await requireSignedIn(web, request);
    requireSameOriginWrite(web, request);
    return user;
  };

  app.patch(
    '/api/account',
    { attachValidation: true, schema: { tags: ['account'], summary: 'Change your own name', body: accountBody, response: { 200: sessionUserBody } } },
    async (request) => {
      const user = await signedInWrite(request);
      const { name } = parseBody(accountBody, jsonBodyOf(request));
      await people.rename(user.id, name);
      request.log.info(auditFields(user, 'account.rename', user), `people: account.rename by ${user.email}`);
      return { user: presentSessionUser({ ...user, name }) };
    },
  );

  app.post(
    '/api/account/password',
    {
      attachValidation: true,
      schema: { tags: ['account'], summary: 'Change your own password (the current one required); your other sessions end', body: passwordChangeBody },
    },
    async (request, reply) => {
      const user = await signedInWrite(request);
      const body = parseBody(passwordChangeBody, jsonBodyOf(request));
      // A stolen cookie must not make a free password oracle: wrong guesses count as failed sign-ins.
      const now = web.now().getTime();
      const keys = signInKeys(user.email, request.ip);
      const wait = await web.signIns.retryAfter(keys, now);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new AppError('rate_limited', `Too many wrong passwords: try again in ${wait} s`, undefined, wait);
      }
      const stored = await people.passwordHashOf(user.id);
      if (!stored || !(await verifyPassword(body.current_password, stored))) {
        await web.signIns.recordFailure(keys, now);
        wrongCurrentPassword();
      }
      const ended = await people.changePassword(user.id, await hashPassword(body.new_password), sessionTokenOf(request) ?? '');
      request.log.info({ ...auditFields(user, 'account.change_password', user), sessions_ended: ended }, `people: account.change_password by ${user.email}`);
      return reply.code(204).send();
    },
  );

  /** The invitation of a token if it works at all, else a failure counted against the address and the one 404. */
  const usableInvitation = async (request: FastifyRequest, token: string, reply: FastifyReply) => {
    const now = web.now();
    const keys = [`invitation:${request.ip}`];
    const wait = await web.signIns.retryAfter(keys, now.getTime());
    if (wait > 0) {
      // Set here as well as by the service's error handler: not every handler sends Retry-After.
      reply.header('retry-after', String(wait));
      throw new AppError('rate_limited', `Too many invalid invitation links: try again in ${wait} s`, undefined, wait);
    }
    const invitation = await people.findInvitation(token);
    if (!invitation || !invitationUsable(invitation, now)) {
      await web.signIns.recordFailure(keys, now.getTime());
      throw invalidInvitation();
    }
    return invitation;
  };

  app.get(
    '/api/invitations/:token',
    {
      schema: {
        tags: ['account'],
        summary: 'Whom an invitation link is for (404 for a link that does not work)',
        params: tokenParams,
        response: { 200: z.object({ email: z.string(), name: z.string() }) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const invitation = await usableInvitation(request, request.params.token, reply);
      return { email: invitation.email, name: invitation.name };
    },
  );

  app.post(
    '/api/invitations/:token',
    {
      attachValidation: true,
      // Login CSRF, as on sign-in: a page elsewhere must not sign a browser in; clients without an Origin may.
      onRequest: async (request) => {
        if (request.headers.origin !== undefined) web.requireSameOrigin(request);
      },
      schema: {
        tags: ['account'],
        summary: 'Set the password with an invitation link: signs in (the sb_session cookie); the link is then used',
        params: tokenParams,
        body: acceptBody,
        response: { 200: sessionUserBody },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      await usableInvitation(request, request.params.token, reply);
      const { password } = parseBody(acceptBody, jsonBodyOf(request));
      const person = await people.accept(request.params.token, await hashPassword(password), web.now());
      if (!person) throw invalidInvitation();
      // A browser signed in as someone else leaves that session behind, as a sign-in does.
      const previous = sessionTokenOf(request);
      if (previous !== undefined) await web.sessions.delete(previous);
      const { token } = await web.sessions.create(person.id, web.now());
      setSessionCookie(reply, token, web.publicBaseUrl);
      request.log.info(auditFields(person, 'invitation.accept', person), `people: invitation.accept by ${person.email}`);
      return { user: presentSessionUser(person) };
    },
  );
}
