import type { ColumnType, Generated } from 'kysely';

/** A project: the unit a token is scoped to. */
export interface ProjectsTable {
  id: string;
  key: string;
  name: string;
  description: string;
  /** 1 when Auto-Summary is on. */
  auto_summary: number;
  /** Last ticket number handed out; numbers are never reused. */
  ticket_counter: number;
  created_at: string;
  updated_at: string;
}

/** A board of a project. */
export interface BoardsTable {
  id: string;
  project_id: string;
  name: string;
  position: number;
  created_at: string;
}

/** A column of a board. */
export interface BoardColumnsTable {
  id: string;
  board_id: string;
  project_id: string;
  name: string;
  position: number;
  /** 1 for the board's done column. */
  is_done: number;
}

/** A ticket (its state is its column). */
export interface TicketsTable {
  /** Integer row id: the FTS5 rowid on SQLite. */
  seq: Generated<number>;
  id: string;
  project_id: string;
  number: number;
  title: string;
  description: string;
  priority: string;
  ticket_type: string;
  column_id: string;
  /** Order within the lane, lower first (domain/rank-rules.ts); 0 when an insert leaves it out. */
  rank: ColumnType<number, number | undefined, number>;
  parent_id: string | null;
  /** JSON `{id, name, email}` of the assigned member, copied at assignment. */
  assignee: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  ai_summary: string | null;
  ai_summary_source: string | null;
  /** Bumped by every change the summary depends on. */
  summary_version: number;
  /** The summary_version the stored summary was made from. */
  summarized_version: number;
  /** A worker holds the summary job until then. */
  summary_claimed_until: string | null;
}

/** Labels attached to tickets. */
export interface TicketLabelsTable {
  ticket_id: string;
  label_id: string;
}

/** A project label. */
export interface LabelsTable {
  id: string;
  project_id: string;
  name: string;
  color: string;
  created_at: string;
}

/** A comment on a ticket. */
export interface CommentsTable {
  id: string;
  ticket_id: string;
  project_id: string;
  content: string;
  author: string;
  created_at: string;
}

/** One change to a ticket. */
export interface ActivityTable {
  id: Generated<number>;
  ticket_id: string;
  project_id: string;
  action: string;
  detail: string;
  actor: string;
  created_at: string;
}

/** A wiki or documentation page. */
export interface DocumentsTable {
  seq: Generated<number>;
  id: string;
  project_id: string;
  slug: string;
  title: string;
  content: string;
  doc_type: string;
  created_at: string;
  updated_at: string;
}

/** A project-scoped API token (stored as its SHA-256 hash). */
export interface TokensTable {
  id: string;
  project_id: string;
  name: string;
  token_hash: string;
  hint: string;
  /** `write` (tokens made before access levels) or `read`: a read token calls only the tools that read. */
  access: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The last event number handed out per project (its row lock orders concurrent writers' events). */
export interface EventCountersTable {
  project_id: string;
  seq: number;
}

/** One change of a project, as the live-update stream sends it. */
export interface EventsTable {
  project_id: string;
  /** Per project, from 1, without gaps, in commit order. */
  seq: number;
  /** `ticket`, `document` or `project`. */
  kind: string;
  action: string;
  ticket_key: string | null;
  doc_slug: string | null;
  actor: string;
  created_at: string;
}

/** The ticket board's tables. */
export interface TicketsDatabase {
  projects: ProjectsTable;
  boards: BoardsTable;
  board_columns: BoardColumnsTable;
  tickets: TicketsTable;
  ticket_labels: TicketLabelsTable;
  labels: LabelsTable;
  comments: CommentsTable;
  activity: ActivityTable;
  documents: DocumentsTable;
  api_tokens: TokensTable;
  event_counters: EventCountersTable;
  events: EventsTable;
}
