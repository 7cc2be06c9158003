// Administering people (web.md, "Administration"): the admin API, a person's own account, invitation links.
import type { Kysely } from 'kysely';
import type { App } from '../http-server.ts';
import type { WebSessions } from '../session-routes.ts';
import type { PlatformTables } from '../users.ts';
import { registerAccountRoutes } from './account-routes.ts';
import { registerAdminPeopleRoutes } from './people-routes.ts';
import { PeopleStore } from './people-store.ts';

export { INVITATION_LIFETIME_MS, INVALID_INVITATION, MIN_PASSWORD_LENGTH, presentPerson, type Person } from './people-rules.ts';
export { PeopleStore } from './people-store.ts';
export { peopleMigrations, type InvitationTable } from './people-schema.ts';

/**
 * Mounts the people API every service shares, beside its session routes: `/api/admin/users…` (admins only;
 * anyone else gets the service's 404 for a missing route), `/api/account…` (every signed-in person) and
 * `/api/invitations/{token}` (no session: the link's page sets a password and signs in). Errors are
 * AppErrors, so the service's own error handler gives them its shape.
 */
export function registerPeopleRoutes(app: App, options: { platform: Kysely<PlatformTables>; web: WebSessions }): PeopleStore {
  const people = new PeopleStore(options.platform);
  registerAdminPeopleRoutes(app, options.web, people);
  registerAccountRoutes(app, options.web, people);
  return people;
}
