import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from './errors.ts';
import type { App } from './http-server.ts';
import { MembershipStore, type MembershipService } from './memberships.ts';
import { actingAdmin, adminOnly } from './people/people-access.ts';
import type { WebSessions } from './session-routes.ts';
import { UserStore, type PlatformTables } from './users.ts';
import type { SessionUser } from './web-session.ts';

/** One problem of a request, named by the field it is about (a service turns a list of them into its 422). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** How a service says the errors of its tenant administration in its own error shape. */
export interface TenantErrors {
  /** 422 naming every problem. */
  invalid(problems: FieldProblem[]): AppError;
  /** 404 for a tenant that does not exist (an admin sees every one, so this is the only reason). */
  notFound(key: string): AppError;
}

/** A person of a tenant as its Members list shows them: a member, or an admin (who sees every tenant). */
export interface TenantPerson {
  id: string;
  name: string;
  email: string;
  role: 'admin' | 'member';
}

const byEmail = (a: { email: string }, b: { email: string }) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0);

/**
 * The people of one service's tenants (flows and SMS organizations, board projects): the members kept in the
 * platform database plus every admin, added by email and removed by id. Shared by the three services' APIs.
 */
export class TenantMembers {
  private readonly users: UserStore;
  private readonly memberships: MembershipStore;

  constructor(
    private readonly db: Kysely<PlatformTables>,
    private readonly service: MembershipService,
  ) {
    this.users = new UserStore(db);
    this.memberships = new MembershipStore(db);
  }

  /** A tenant's members and every admin, by email (code unit order, the same on both engines). */
  async list(key: string): Promise<TenantPerson[]> {
    const members = this.db.selectFrom('memberships').select('user_id').where('service', '=', this.service).where('scope_key', '=', key);
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'name', 'email', 'role'])
      .where((eb) => eb.or([eb('role', '=', 'admin'), eb('id', 'in', members)]))
      .execute();
    return rows.sort(byEmail).map(({ id, name, email, role }) => ({ id, name, email, role }));
  }

  /**
   * Makes the user with this email a member; adding one who already is changes nothing and answers the same
   * (as `switchboard … member add` does). An empty or unknown email is a 422 naming `email`.
   */
  async add(key: string, email: unknown, errors: Pick<TenantErrors, 'invalid'>): Promise<{ email: string; added: true; user_id: string }> {
    const text = typeof email === 'string' ? email.trim() : '';
    if (!text) throw errors.invalid([{ field: 'email', message: 'email is required: the email of a user of this deployment' }]);
    const user = await this.users.findByEmail(text);
    if (!user) {
      throw errors.invalid([
        { field: 'email', message: `No user has the email ${text.toLowerCase()}: invite them first (or create them with switchboard user create)` },
      ]);
    }
    await this.memberships.add(this.service, key, user.id);
    return { email: user.email, added: true, user_id: user.id };
  }

  /** Ends a user's membership; false when they were not a member. */
  remove(key: string, userId: string): Promise<boolean> {
    return this.memberships.remove(this.service, key, userId);
  }
}

/**
 * Admits only a signed-in admin to a route, in its `onRequest` (before the body is read), as the people API
 * does (people-access.ts): a bearer token, and a person who is not an admin, get the service's own 404 for a
 * missing route (nothing is revealed); no live session 401; a write from a foreign Origin 403.
 * `admin(request)` is then the acting admin, in the handler.
 */
export function adminGate(web: WebSessions) {
  return { onRequest: adminOnly(web), admin: (request: FastifyRequest) => actingAdmin(web, request) };
}

/** Logs an administration change with the admin who made it (their id and email; never a secret). */
export function logAdminChange(request: FastifyRequest, admin: SessionUser, event: string, fields: Record<string, unknown>): void {
  request.log.info({ event, actor: `user:${admin.email}`, actor_id: admin.id, ...fields }, event.replaceAll('_', ' '));
}

/** What registerTenantMemberRoutes needs: whose members, where, and how the service words its errors. */
export interface TenantMemberRoutesOptions {
  web: WebSessions;
  /** The platform database (users, memberships). */
  platform: Kysely<PlatformTables>;
  service: MembershipService;
  /** The list's URL with the tenant as a path parameter, e.g. `/api/orgs/:org_id/members`. */
  path: string;
  /** The name of that parameter. */
  param: string;
  /** The stored key of the tenant the path names, or undefined when there is none. */
  find(key: string): Promise<string | undefined>;
  errors: TenantErrors;
  /** OpenAPI tags of the three routes. */
  tags: string[];
  /** The parsed body of a request (default `request.body`; the SMS service reads its bodies itself). */
  bodyOf?(request: FastifyRequest): unknown;
}

/**
 * A tenant's Members for admins (web.md, "Administration"): `GET {path}` → `{"members": [{id, name, email,
 * role}]}` (members and every admin, by email); `POST {path}` `{"email"}` → 200 `{"email", "added": true}`
 * (again for a member changes nothing; 422 naming `email` for no such user); `DELETE {path}/{user_id}` → 200
 * `{"removed": true}` (404 when not a member). Each change is logged with the acting admin.
 */
export function registerTenantMemberRoutes(app: App, options: TenantMemberRoutesOptions): void {
  const { web, service, errors, tags } = options;
  const people = new TenantMembers(options.platform, service);
  const gate = adminGate(web);
  const tenantOf = async (request: FastifyRequest) => {
    const named = (request.params as Record<string, string>)[options.param];
    const key = await options.find(named);
    if (key === undefined) throw errors.notFound(named);
    return key;
  };
  const route = (summary: string) => ({ schema: { tags, summary }, onRequest: gate.onRequest });
  app.get(options.path, route('Members of a tenant and every admin (admin session only)'), async (request) => ({
    members: await people.list(await tenantOf(request)),
  }));
  app.post(options.path, route('Add a user as a member, by email (admin session only)'), async (request) => {
    const admin = await gate.admin(request);
    const key = await tenantOf(request);
    const body = options.bodyOf ? options.bodyOf(request) : request.body;
    const added = await people.add(key, (body as { email?: unknown } | null)?.email, errors);
    logAdminChange(request, admin, 'member_added', { service, tenant: key, member: added.email, member_id: added.user_id });
    return { email: added.email, added: true };
  });
  app.delete(`${options.path}/:user_id`, route('End a membership (admin session only)'), async (request) => {
    const admin = await gate.admin(request);
    const key = await tenantOf(request);
    const userId = (request.params as { user_id: string }).user_id;
    if (!(await people.remove(key, userId))) throw new AppError('not_found', `User "${userId}" is not a member of ${key}`);
    logAdminChange(request, admin, 'member_removed', { service, tenant: key, member_id: userId });
    return { removed: true };
  });
}

/** A text field of a create body: required or not, its longest length, and its own rule (a message when broken). */
export interface TextFieldRule {
  field: string;
  required?: boolean;
  max?: number;
  /** What is wrong with a present value, or undefined. */
  check?(value: string): string | undefined;
}

/**
 * Reads the text fields of a JSON body, naming every problem at once (missing, not text, too long, broken
 * rule, a field no rule names) in one 422 of the service's shape; the values are trimmed.
 */
export function readTextFields(body: unknown, rules: TextFieldRule[], invalid: TenantErrors['invalid']): Record<string, string | undefined> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid([{ field: 'body', message: `The body must be a JSON object with ${rules.map((rule) => rule.field).join(', ')}` }]);
  }
  const given = body as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  const values: Record<string, string | undefined> = {};
  for (const rule of rules) {
    const raw = given[rule.field];
    if (raw === undefined || raw === null || (typeof raw === 'string' && !raw.trim())) {
      if (rule.required) problems.push({ field: rule.field, message: `${rule.field} is required` });
      continue;
    }
    if (typeof raw !== 'string') {
      problems.push({ field: rule.field, message: `${rule.field} must be a string` });
      continue;
    }
    const value = raw.trim();
    const problem =
      rule.max !== undefined && value.length > rule.max ? `${rule.field} must be at most ${rule.max} characters (got ${value.length})` : rule.check?.(value);
    if (problem) problems.push({ field: rule.field, message: problem });
    else values[rule.field] = value;
  }
  for (const field of Object.keys(given)) {
    if (!rules.some((rule) => rule.field === field))
      problems.push({ field, message: `Unknown field ${field}: expected ${rules.map((rule) => rule.field).join(', ')}` });
  }
  if (problems.length > 0) throw invalid(problems);
  return values;
}

/** A display name's rule: one line (a name is shown in a switcher). */
export function oneLine(field: string): (value: string) => string | undefined {
  return (value) => (/[\r\n]/.test(value) ? `${field} must be one line` : undefined);
}

/** What registerTenantCreateRoute needs: where, the fields' rules, how the service words a 422, and the creation itself. */
export interface TenantCreateRouteOptions {
  web: WebSessions;
  service: MembershipService;
  /** `POST` here creates a tenant: `/api/orgs`, `/api/projects`. */
  path: string;
  tags: string[];
  summary: string;
  /** Logged with the acting admin: `organization_created`, `project_created`. */
  event: string;
  rules: TextFieldRule[];
  invalid: TenantErrors['invalid'];
  /** The parsed body of a request (default `request.body`). */
  bodyOf?(request: FastifyRequest): unknown;
  /** Makes the tenant from the checked fields (409 for a code in use is the service's): its code, and the 201 answer. */
  create(fields: Record<string, string | undefined>): Promise<{ key: string; answer: unknown }>;
}

/**
 * `POST {path}` for admins (adminGate): every field problem named in one 422, then the service's creation, a
 * 201 with its answer, and a log line naming the acting admin and the new tenant.
 */
export function registerTenantCreateRoute(app: App, options: TenantCreateRouteOptions): void {
  const gate = adminGate(options.web);
  app.post(options.path, { schema: { tags: options.tags, summary: options.summary }, onRequest: gate.onRequest }, async (request, reply) => {
    const admin = await gate.admin(request);
    const fields = readTextFields(options.bodyOf ? options.bodyOf(request) : request.body, options.rules, options.invalid);
    const created = await options.create(fields);
    logAdminChange(request, admin, options.event, { service: options.service, tenant: created.key });
    return reply.code(201).send(created.answer);
  });
}
