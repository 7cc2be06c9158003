/** The shapes the ticket board's public API answers, as the UI reads them. */

/** Ticket types, as the tools accept them (`task` is the default). */
export const TICKET_TYPES = ['task', 'bug', 'story', 'epic'] as const;
/** A ticket type. */
export type TicketType = (typeof TICKET_TYPES)[number];

/** Priorities, highest first (the order people scan them in). */
export const PRIORITIES = ['highest', 'high', 'medium', 'low', 'lowest'] as const;
/** A priority. */
export type Priority = (typeof PRIORITIES)[number];

/** Document types (`wiki` is the default). */
export const DOC_TYPES = ['readme', 'claude_md', 'wiki', 'changelog', 'custom'] as const;
/** A document type. */
export type DocType = (typeof DOC_TYPES)[number];

/** What `GET /api/session` adds on the ticket board: the projects the user may see. */
export interface TicketsSessionExtra {
  projects: ProjectRef[];
}

/** A project as the session lists it. */
export interface ProjectRef {
  key: string;
  name: string;
}

/** A label. */
export interface Label {
  id: string;
  name: string;
  color: string;
}

/** A member of the deployment as a ticket's assignee. */
export interface Assignee {
  id: string;
  name: string;
  email: string;
}

/** A member of the project. */
export interface Member extends Assignee {
  role: string;
}

/** A card on the board: what a lane shows of a ticket. */
export interface BoardCard {
  key: string;
  title: string;
  ticket_type: string;
  priority: string;
  labels: Label[];
  assignee: Assignee | null;
  /** The parent epic's key, or null. */
  parent: string | null;
  /** An epic's sub-tickets done and in all, or null for other tickets. */
  progress: { done: number; total: number } | null;
  /** Order within the lane, lower first. */
  rank: number;
  updated_at: string;
  completed_at: string | null;
}

/** One lane: a column with its cards. */
export interface BoardLane {
  name: string;
  is_done_column: boolean;
  ticket_count: number;
  cards: BoardCard[];
}

/** `GET /api/projects/{KEY}/board?board=NAME[&cards=N]`. */
export interface BoardView {
  board: { name: string };
  columns: BoardLane[];
  /** Every card is there (false: a lane was cut to its first `cards`). */
  complete: boolean;
}

/** A card read by key (`GET …/board?board=NAME&keys=K1,K2`), with the lane it is in. */
export interface PlacedCard extends BoardCard {
  column: string;
}

/** `GET …/board?board=NAME&keys=…`: the cards of those tickets that are on the board (a ticket not on it is left out). */
export interface BoardCards {
  board: { name: string };
  cards: PlacedCard[];
}

/** A ticket as the tools answer it. */
export interface Ticket {
  id: string;
  key: string;
  number: number;
  title: string;
  description: string;
  priority: string;
  ticket_type: string;
  column: string | null;
  board: string | null;
  parent: { id: string; key: string; title: string } | null;
  sub_tickets: Array<{ id: string; key: string; title: string; column: string | null; priority: string; ticket_type: string }>;
  labels: Label[];
  assignee: Assignee | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  ai_summary: string | null;
  ai_summary_source?: string | null;
}

/** A comment on a ticket. */
export interface Comment {
  id: string;
  content: string;
  author: string;
  created_at: string;
}

/** One entry of a ticket's activity. */
export interface Activity {
  id: string;
  action: string;
  detail: unknown;
  actor: string;
  created_at: string;
}

/** `get_ticket`: the ticket with its comments and activity (oldest first). */
export interface TicketDetail extends Ticket {
  comments: Comment[];
  activity: Activity[];
}

/** A column as `list_columns` answers it. */
export interface ColumnInfo {
  name: string;
  is_done_column: boolean;
  board_name: string;
  ticket_count: number;
}

/** A document without its content. */
export interface DocumentMeta {
  id: string;
  slug: string;
  title: string;
  doc_type: string;
  created_at: string;
  updated_at: string;
}

/** A document with its content. */
export interface Document extends DocumentMeta {
  content: string;
}

/** One search result (the snippet marks matches as `**word**`). */
export type SearchResult =
  | { kind: 'ticket'; key: string; title: string; ticket_type: string; column: string | null; score: number; snippet: string }
  | { kind: 'document'; slug: string; title: string; doc_type: string; score: number; snippet: string };

/** A column in the settings. */
export interface SettingsColumn {
  id: string;
  name: string;
  position: number;
  is_done_column: boolean;
  ticket_count: number;
}

/** A board in the settings. */
export interface SettingsBoard {
  id: string;
  name: string;
  columns: SettingsColumn[];
}

/** `GET /api/projects/{KEY}/settings`. */
export interface ProjectSettings {
  project: { key: string; name: string; description: string | null; settings: { auto_summary: boolean } };
  boards: SettingsBoard[];
}

/** What a token may do: `read` calls only the tools that read; `write` all of them. */
export type TokenAccess = 'read' | 'write';

/** A project token (never its secret). */
export interface ProjectToken {
  id: string;
  name: string;
  access: TokenAccess;
  created_at: string;
  last_used_at: string | null;
  revoked_at?: string | null;
}

/** `POST …/tokens`: the token once, and the MCP endpoint to give a client. */
export interface CreatedToken {
  id?: string;
  token_id?: string;
  name: string;
  token: string;
  access?: TokenAccess;
  mcp_url?: string;
}

/** A change as the project's event stream sends it. */
export interface ChangeEvent {
  seq: number;
  kind: 'ticket' | 'document' | 'project';
  action: string;
  key?: string;
  slug?: string;
  actor: string;
  at: string;
}
