import { oneLine, registerTenantCreateRoute, registerTenantMemberRoutes, type App, type PlatformTables } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { isValidOrgId } from '../domain/org-id.ts';
import { organizationNotFound } from './caller.ts';
import type { SmsContext } from './context.ts';
import { validationFailed } from './error-handler.ts';
import { decodeBody } from './request-body.ts';

/** Longest organization name. */
const ORG_NAME_MAX = 200;

/** 422 in pydantic's shape: one `value_error` per problem, at `["body", field]`. */
const invalid = (problems: Array<{ field: string; message: string }>) =>
  validationFailed(problems.map((problem) => ({ type: 'value_error', loc: ['body', problem.field], msg: problem.message, input: null })));

const bodyOf = (request: FastifyRequest) => decodeBody(request.body, request.headers['content-type']);

/**
 * The organizations' administration for admins (web.md, "Administration"; README, "Organizations and
 * members"): `POST /api/orgs` creates one (without a key: the Keys page makes them), and
 * `/api/orgs/{org_id}/members` lists, adds and removes its members. Admin sessions only: a non-admin and a
 * secret key get the 404 of a missing route.
 */
export function registerTenantRoutes(app: App, context: SmsContext, platform: Kysely<PlatformTables>): void {
  const { web, orgs } = context;
  registerTenantCreateRoute(app, {
    web,
    service: 'sms',
    path: '/api/orgs',
    tags: ['organizations'],
    summary: 'Create an organization (admin session only)',
    event: 'organization_created',
    rules: [
      {
        field: 'org_id',
        required: true,
        check: (id) => (isValidOrgId(id) ? undefined : 'org_id must be 1 to 64 characters of a-z, 0-9, _ and -, starting with a letter or digit'),
      },
      { field: 'name', max: ORG_NAME_MAX, check: oneLine('name') },
    ],
    invalid,
    bodyOf,
    async create(fields) {
      const org = await orgs.addOrganization(fields.org_id ?? '', fields.name, new Date());
      return { key: org.org_id, answer: org };
    },
  });
  registerTenantMemberRoutes(app, {
    web,
    platform,
    service: 'sms',
    path: '/api/orgs/:org_id/members',
    param: 'org_id',
    find: async (id) => (await orgs.findOrganization(id))?.org_id,
    errors: { invalid, notFound: () => organizationNotFound() },
    bodyOf,
    tags: ['members'],
  });
}
