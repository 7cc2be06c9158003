import type { DialectName } from '@switchboard/core';
import type { Db, ProjectRow } from '../store/project-store.ts';

/** A deployment user who can be assigned tickets. */
export interface Member {
  id: string;
  name: string;
  email: string;
  role: string;
}

/** Where members come from (core's UserStore on the platform database). */
export interface MemberDirectory {
  list(): Promise<Member[]>;
}

/** Everything a tool call runs with: the token's project, who acts, the clock and the database. */
export interface BoardContext {
  db: Db;
  dialect: DialectName;
  /** The project the token belongs to; nothing outside it is reachable. */
  project: ProjectRow;
  /** `token:NAME`, `user:EMAIL` or `system`, written into activity and comments. */
  actor: string;
  /** The current time as stored (ISO 8601); a function so tests and imports can fix it. */
  now(): string;
  members: MemberDirectory;
  /** Called after a change a ticket summary depends on, to wake the summary worker. */
  onSummaryDue(): void;
}
