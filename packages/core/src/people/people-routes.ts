import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { baseUrlOf, type App } from '../http-server.ts';
import type { WebSessions } from '../session-routes.ts';
import type { SessionUser } from '../web-session.ts';
import { actingAdmin, adminOnly, auditFields, jsonBodyOf } from './people-access.ts';
import {
  invitationUrl,
  inviteBody,
  parseBody,
  personChangeBody,
  presentPerson,
  refuseInvitingDisabled,
  refuseSelfLockout,
  type Person,
  type PersonChange,
} from './people-rules.ts';
import type { IssuedInvitation, PeopleStore } from './people-store.ts';

/** A person on the wire. */
export const personSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(['admin', 'member']),
  disabled: z.boolean(),
  pending: z.boolean(),
  created_at: z.string(),
});

/** An invitation link on the wire: shown once, never stored. */
const invitationSchema = z.object({ url: z.string(), expires_at: z.string() });
const idParams = z.object({ id: z.string() });
const tags = ['admin'];

/** What a change to a person is called in the log, one line per action. */
function actionsOf(change: PersonChange): string[] {
  const actions: string[] = [];
  if (change.name !== undefined) actions.push('user.rename');
  if (change.admin !== undefined) actions.push(change.admin ? 'user.make_admin' : 'user.remove_admin');
  if (change.disabled !== undefined) actions.push(change.disabled ? 'user.disable' : 'user.enable');
  return actions;
}

/**
 * The admin API of people (web.md, "Administration"): list, invite, change (name, admin, disabled) and a new
 * invitation link. Every route is behind adminOnly; every change is logged with the acting admin.
 */
export function registerAdminPeopleRoutes(app: App, web: WebSessions, people: PeopleStore): void {
  const onRequest = adminOnly(web);
  const linkOf = (request: FastifyRequest, issued: IssuedInvitation) => ({
    url: invitationUrl(baseUrlOf(request, web.publicBaseUrl), issued.token),
    expires_at: issued.expiresAt.toISOString(),
  });
  const personOr404 = async (id: string) => {
    const row = await people.find(id);
    if (!row) throw new AppError('not_found', `No user with id ${id}`);
    return presentPerson(row);
  };
  const log = (request: FastifyRequest, actor: SessionUser, action: string, target: Person) =>
    request.log.info(auditFields(actor, action, target), `people: ${action} ${target.email} by ${actor.email}`);

  app.get(
    '/api/admin/users',
    { onRequest, schema: { tags, summary: 'Every user, by email (admins only)', response: { 200: z.object({ users: z.array(personSchema) }) } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { users: await people.list() };
    },
  );

  app.post(
    '/api/admin/users',
    {
      onRequest,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Invite a person: a user without a password and a one-time link, valid 7 days, to set one',
        body: inviteBody,
        response: { 201: z.object({ user: personSchema, invitation: invitationSchema }) },
      },
    },
    async (request, reply) => {
      const actor = await actingAdmin(web, request);
      const body = parseBody(inviteBody, jsonBodyOf(request));
      const invited = await people.invite(body, actor.id, web.now());
      log(request, actor, 'user.invite', invited.person);
      reply.header('cache-control', 'no-store');
      return reply.code(201).send({ user: invited.person, invitation: linkOf(request, invited) });
    },
  );

  app.patch(
    '/api/admin/users/:id',
    {
      onRequest,
      attachValidation: true,
      schema: {
        tags,
        summary: "Change a user's name, admin role or disabled state; disabling ends their sessions and OAuth grants",
        params: idParams,
        body: personChangeBody,
        response: { 200: z.object({ user: personSchema }) },
      },
    },
    async (request) => {
      const actor = await actingAdmin(web, request);
      await personOr404(request.params.id);
      const change = parseBody(personChangeBody, jsonBodyOf(request));
      refuseSelfLockout(actor.id, request.params.id, change);
      const changed = await people.change(request.params.id, change, web.now());
      if (!changed) throw new AppError('not_found', `No user with id ${request.params.id}`);
      for (const action of actionsOf(change)) log(request, actor, action, changed);
      return { user: changed };
    },
  );

  app.post(
    '/api/admin/users/:id/invitation',
    {
      onRequest,
      schema: {
        tags,
        summary: "A new one-time link for a user (a password reset); the user's earlier links stop working",
        params: idParams,
        response: { 201: z.object({ invitation: invitationSchema }) },
      },
    },
    async (request, reply) => {
      const actor = await actingAdmin(web, request);
      const person = await personOr404(request.params.id);
      refuseInvitingDisabled(person);
      const issued = await people.newInvitation(person.id, actor.id, web.now());
      log(request, actor, 'user.new_invitation', person);
      reply.header('cache-control', 'no-store');
      return reply.code(201).send({ invitation: linkOf(request, issued) });
    },
  );
}
