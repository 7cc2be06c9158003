import type { DialectName, PresentedGrant, SessionUser, WakeBus } from '@switchboard/core';
import type { Db, ProjectRow } from '../store/project-store.ts';
import type { AccessLevel } from '../domain/vocabulary.ts';

/** A deployment user who can be assigned tickets. */
export interface Member {
  id: string;
  name: string;
  email: string;
  role: string;
}

/** Where members come from: the platform database's users and memberships. */
export interface MemberDirectory {
  /** The people of a project: its members plus every admin (admins see every project), by email. */
  list(projectKey: string): Promise<Member[]>;
  /** Makes the user with this email a member of the project (nothing changes when it already is); 422 naming `email` for an unknown one. `actor` is logged. */
  add(projectKey: string, email: string, actor: string): Promise<{ email: string }>;
  /** Ends a user's membership of the project; false when the user was not a member. `actor` is logged. */
  remove(projectKey: string, userId: string, actor: string): Promise<boolean>;
}

/** The OAuth grants of the deployment's authorization server, as a project's settings list and revoke them. */
export interface GrantDirectory {
  /** The project's live grants, newest first. */
  list(projectKey: string): Promise<PresentedGrant[]>;
  /** Revokes one of the project's grants; false when it has no live grant by that id. */
  revoke(projectKey: string, grantId: string): Promise<boolean>;
}

/** Who makes a call: a project token, a signed-in user of the web UI, an OAuth client acting for a user, or the CLI's administration. */
export type Caller =
  /** A project token: `read` ones call only the read tools (made with "access": "read" or --read-only). */
  | { kind: 'token'; tokenId: string; name: string; access: AccessLevel }
  | { kind: 'user'; user: SessionUser }
  /** An MCP client signed in with OAuth: the grant, the person who consented, and what they granted (`tickets:read` → read, `tickets:write` → write). */
  | { kind: 'oauth'; grantId: string; user: SessionUser; clientName: string; access: AccessLevel }
  | { kind: 'system' };

/**
 * Where committed changes are announced (the live-update streams of every instance): the PostgreSQL channel a
 * transaction notifies, and the wake-up of this process's (and through Redis other instances') streams.
 */
export type ChangeSignal = Pick<WakeBus, 'notifyChannel' | 'publish'>;

/** What a caller may do: `read` for a read token or an OAuth grant of `tickets:read` alone (the read tools only), else `write`. */
export function accessOf(caller: Caller): AccessLevel {
  return caller.kind === 'oauth' || caller.kind === 'token' ? caller.access : 'write';
}

/** Everything a tool call runs with: the token's project, who acts, the clock and the database. */
export interface BoardContext {
  db: Db;
  dialect: DialectName;
  /** The project the token belongs to; nothing outside it is reachable. */
  project: ProjectRow;
  /** `token:NAME`, `user:EMAIL` or `system`, written into activity and comments. */
  actor: string;
  /** The token or user behind `actor` (settings check an admin; token management needs a user). */
  caller: Caller;
  /** The MCP endpoint's URL as clients reach it (PUBLIC_BASE_URL, else the request's origin), told with a new token; the transport knows it. */
  mcpUrl: string;
  /** The current time as stored (ISO 8601); a function so tests and imports can fix it. */
  now(): string;
  members: MemberDirectory;
  /** The OAuth grants (absent where no authorization server runs: the CLI's administration). */
  grants?: GrantDirectory;
  /** Announces the project's new events after a commit. */
  signal: ChangeSignal;
  /** Called after a change a ticket summary depends on, to wake the summary worker. */
  onSummaryDue(): void;
}
