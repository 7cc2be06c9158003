import type { BoardColumn } from '../domain/board-rules.ts';
import { clip } from '../domain/text-rules.ts';
import type { Member } from './board-context.ts';
import { ticketKey } from '../domain/ticket-rules.ts';
import type { LabelRow, ProjectRow } from '../store/project-store.ts';
import type { ActivityEntry, CommentEntry, RelatedTicketRow, TicketLabel, TicketRow } from '../store/ticket-store.ts';
import type { DocumentRow } from '../store/document-store.ts';

/** What a ticket view needs besides the row: the project's columns and the related rows. */
export interface TicketRelations {
  projectKey: string;
  columns: ReadonlyMap<string, BoardColumn>;
  parent: RelatedTicketRow | undefined;
  subTickets: readonly RelatedTicketRow[];
  labels: readonly TicketLabel[];
}

/**
 * A ticket as every tool returns it: exactly the Ticket JSON of design/tickets.md. Its `rank` (order within its
 * lane) is not part of it: the board's cards carry it (board-view.ts), and list_tickets order "board" follows it.
 */
export function presentTicket(row: TicketRow, relations: TicketRelations) {
  const column = relations.columns.get(row.column_id);
  return {
    id: row.id,
    key: ticketKey(relations.projectKey, row.number),
    number: row.number,
    title: row.title,
    description: row.description,
    priority: row.priority,
    ticket_type: row.ticket_type,
    column: column?.name ?? null,
    board: column?.boardName ?? null,
    parent: relations.parent ? { id: relations.parent.id, key: ticketKey(relations.projectKey, relations.parent.number), title: relations.parent.title } : null,
    sub_tickets: relations.subTickets.map((sub) => presentTicketRef(sub, relations.projectKey, relations.columns)),
    labels: relations.labels.map(presentLabel),
    assignee: row.assignee ? (JSON.parse(row.assignee) as { id: string; name: string; email: string }) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
    ai_summary: row.ai_summary,
    ai_summary_source: row.ai_summary_source,
  };
}

/** A sub-ticket inside its epic's view. */
export function presentTicketRef(row: RelatedTicketRow, projectKey: string, columns: ReadonlyMap<string, BoardColumn>) {
  return {
    id: row.id,
    key: ticketKey(projectKey, row.number),
    title: row.title,
    column: columns.get(row.column_id)?.name ?? null,
    priority: row.priority,
    ticket_type: row.ticket_type,
  };
}

/** A comment. */
export function presentComment(row: CommentEntry) {
  return { id: row.id, content: row.content, author: row.author, created_at: row.created_at };
}

/** An activity entry. */
export function presentActivity(row: ActivityEntry) {
  return { id: row.id, action: row.action, detail: row.detail, actor: row.actor, created_at: row.created_at };
}

/** A label. */
export function presentLabel(row: Pick<LabelRow, 'id' | 'name' | 'color'>) {
  return { id: row.id, name: row.name, color: row.color };
}

/** A project with its settings. */
export function presentProject(row: ProjectRow) {
  return { key: row.key, name: row.name, description: row.description, settings: { auto_summary: row.auto_summary === 1 } };
}

/** A column with its ticket count. */
export function presentColumn(column: BoardColumn, ticketCount: number) {
  return { name: column.name, is_done_column: column.isDone, board_name: column.boardName, ticket_count: ticketCount };
}

/** A document with its content. */
export function presentDocument(row: DocumentRow) {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    content: row.content,
    doc_type: row.doc_type,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A document without its content. */
export function presentDocumentMeta(row: Omit<DocumentRow, 'content'>) {
  return { id: row.id, slug: row.slug, title: row.title, doc_type: row.doc_type, created_at: row.created_at, updated_at: row.updated_at };
}

/** Longest member name and email list_members shows (RFC 5321 allows 320 characters of address). */
export const MEMBER_CLIP = { name: 200, email: 320 } as const;

/**
 * A member as list_members lists it. Users are created by an administrator without a length limit, so a name
 * or email past MEMBER_CLIP is cut and flagged (`name_truncated`, `email_truncated`): one member always fits a
 * page. The id is what assignee takes then.
 */
export function presentMember(member: Member) {
  const name = clip(member.name, MEMBER_CLIP.name);
  const email = clip(member.email, MEMBER_CLIP.email);
  return {
    id: member.id,
    name: name.text,
    ...(name.truncated ? { name_truncated: true as const } : {}),
    email: email.text,
    ...(email.truncated ? { email_truncated: true as const } : {}),
    role: member.role,
  };
}
