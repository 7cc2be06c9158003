import { oneLine, registerTenantCreateRoute, registerTenantMemberRoutes, type App, type PlatformTables, type WebSessions } from '@switchboard/core';
import type { Kysely } from 'kysely';
import { invalidWith } from '../domain/errors.ts';
import { ORG_CODE_PATTERN } from '../domain/slug.ts';
import type { OrgStore } from '../store/org-store.ts';
import { orgNotFound } from './auth.ts';

/** Longest organization name. */
const ORG_NAME_MAX = 200;

/** 422 `invalid_input` naming every problem by its field (`param`). */
const invalid = (problems: Array<{ field: string; message: string }>) =>
  invalidWith(
    'invalid_input',
    problems.map((problem) => ({ param: problem.field, message: problem.message })),
  );

/**
 * The organizations' administration for admins (web.md, "Administration"; README, "Organizations and
 * members"): `POST /api/orgs` creates one, `/api/llm/{org_code}/members` lists, adds and removes its members.
 * Admin sessions only: a non-admin and a token get the 404 of a missing route.
 */
export function registerTenantRoutes(app: App, deps: { web: WebSessions; platform: Kysely<PlatformTables>; orgs: OrgStore }): void {
  const { web, orgs } = deps;
  registerTenantCreateRoute(app, {
    web,
    service: 'flows',
    path: '/api/orgs',
    tags: ['organizations'],
    summary: 'Create an organization (admin session only)',
    event: 'organization_created',
    rules: [
      {
        field: 'org_code',
        required: true,
        check: (code) => (ORG_CODE_PATTERN.test(code) ? undefined : 'org_code must be 2 to 40 characters of a-z, 0-9 and -'),
      },
      { field: 'name', max: ORG_NAME_MAX, check: oneLine('name') },
    ],
    invalid,
    async create(fields) {
      const org = await orgs.createOrg(fields.org_code ?? '', fields.name);
      return { key: org.code, answer: { org_code: org.code, name: org.name } };
    },
  });
  registerTenantMemberRoutes(app, {
    web,
    platform: deps.platform,
    service: 'flows',
    path: '/api/llm/:org_code/members',
    param: 'org_code',
    find: async (code) => (await orgs.findOrg(code))?.code,
    errors: { invalid, notFound: orgNotFound },
    tags: ['members'],
  });
}
