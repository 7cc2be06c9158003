import { api, type OAuthGrant } from '@switchboard/web-kit';
import { boardUrlFor } from '../../../src/domain/board-page.ts';
import type { CardPosition } from '../board/board-state.ts';
import type { TaskToggleRequest } from '../../../src/domain/task-list.ts';
import type {
  BoardCards,
  BoardView,
  ColumnInfo,
  Comment,
  CreatedToken,
  Document,
  DocumentMeta,
  Label,
  Member,
  ProjectSettings,
  ProjectToken,
  TokenAccess,
  SearchResult,
  SettingsBoard,
  SettingsColumn,
  Ticket,
  TicketDetail,
} from './types.ts';

/** Fields of a new ticket (create_ticket / create_sub_ticket). */
export interface NewTicket {
  title: string;
  description?: string;
  ticket_type?: string;
  priority?: string;
  column_name?: string;
  labels?: string[];
  assignee?: string | null;
}

/** Fields update_ticket changes. */
export interface TicketChanges {
  title?: string;
  description?: string;
  /** One task item of the description checked or unchecked (that line only). */
  toggle_task?: TaskToggleRequest;
  ticket_type?: string;
  priority?: string;
  labels?: string[];
  assignee?: string | null;
}

const path = encodeURIComponent;

/** Every entry of a listing the service pages (40,000 characters a page): follows next_cursor to the end. */
async function allPages<K extends string, T>(url: string, field: K, signal?: AbortSignal): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | null | undefined;
  do {
    const page = await api<Record<K, T[]> & { next_cursor?: string | null }>(`${url}${cursor ? `?cursor=${path(cursor)}` : ''}`, { signal });
    all.push(...page[field]);
    cursor = page.next_cursor;
  } while (cursor);
  return all;
}

/** The API of one project, `/api/projects/{KEY}/…`: the 19 tools' REST paths with the session cookie, plus the board and settings. */
export function projectApi(key: string) {
  const base = `/api/projects/${path(key)}`;
  return {
    base,
    /** A board: every card, or each lane's first `cards`. */
    // A page opened at a board has this read preloaded by its HTML (the service's ticketsPagePreloads).
    board: (board: string | undefined, signal?: AbortSignal, cards?: number) => api<BoardView>(boardUrlFor(key, board, cards), { signal }),
    /** The cards of just these tickets on a board, each with its lane: how the board places tickets that changed. */
    cards: (board: string, keys: readonly string[], signal?: AbortSignal) =>
      api<BoardCards>(`${base}/board?board=${path(board)}&keys=${keys.map(path).join(',')}`, { signal }),
    columns: (signal?: AbortSignal) => api<{ columns: ColumnInfo[] }>(`${base}/columns`, { signal }),
    ticket: (ticketKey: string, signal?: AbortSignal) => api<TicketDetail>(`${base}/tickets/${path(ticketKey)}`, { signal }),
    createTicket: (body: NewTicket) => api<Ticket>(`${base}/tickets`, { method: 'POST', body }),
    createSubTicket: (parent: string, body: NewTicket) => api<Ticket>(`${base}/tickets/${path(parent)}/sub-ticket`, { method: 'POST', body }),
    convertToSubTicket: (ticketKey: string, epic: string) =>
      api<Ticket>(`${base}/tickets/${path(ticketKey)}/convert-to-sub-ticket`, { method: 'POST', body: { epic_id: epic } }),
    updateTicket: (ticketKey: string, body: TicketChanges) => api<Ticket>(`${base}/tickets/${path(ticketKey)}`, { method: 'PUT', body }),
    /** move_ticket; `position` places it in the lane (the service's default is the top). */
    moveTicket: (ticketKey: string, columnName: string, position?: CardPosition) =>
      api<Ticket>(`${base}/tickets/${path(ticketKey)}/move`, { method: 'POST', body: { column_name: columnName, ...(position ? { position } : {}) } }),
    addComment: (ticketKey: string, content: string) => api<Comment>(`${base}/tickets/${path(ticketKey)}/comment`, { method: 'POST', body: { content } }),
    deleteTicket: (ticketKey: string) => api<{ deleted: true; key: string }>(`${base}/tickets/${path(ticketKey)}`, { method: 'DELETE' }),
    search: (q: string, scope: string, signal?: AbortSignal) =>
      api<{ results: SearchResult[] }>(`${base}/search?q=${path(q)}&scope=${path(scope)}&limit=50`, { signal }),
    documents: (signal?: AbortSignal) => allPages<'documents', DocumentMeta>(`${base}/documents`, 'documents', signal),
    document: (slug: string, signal?: AbortSignal) => api<Document>(`${base}/documents/${path(slug)}`, { signal }),
    createDocument: (body: { title: string; content: string; doc_type: string; slug?: string }) => api<Document>(`${base}/documents`, { method: 'POST', body }),
    updateDocument: (slug: string, body: { title?: string; content?: string; doc_type?: string; toggle_task?: TaskToggleRequest }) =>
      api<Document>(`${base}/documents/${path(slug)}`, { method: 'PUT', body }),
    deleteDocument: (slug: string) => api<unknown>(`${base}/documents/${path(slug)}`, { method: 'DELETE' }),
    labels: (signal?: AbortSignal) => api<{ labels: Label[] }>(`${base}/labels`, { signal }),
    members: async (signal?: AbortSignal) => ({ members: await allPages<'members', Member>(`${base}/members`, 'members', signal) }),

    settings: (signal?: AbortSignal) => api<ProjectSettings>(`${base}/settings`, { signal }),
    saveSettings: (body: { name?: string; description?: string; settings?: { auto_summary?: boolean } }) =>
      api<ProjectSettings>(`${base}/settings`, { method: 'PUT', body }),
    addBoard: (name: string) => api<SettingsBoard>(`${base}/boards`, { method: 'POST', body: { name } }),
    renameBoard: (id: string, name: string) => api<SettingsBoard>(`${base}/boards/${path(id)}`, { method: 'PUT', body: { name } }),
    addColumn: (boardId: string, body: { name: string; is_done_column?: boolean }) =>
      api<SettingsColumn>(`${base}/boards/${path(boardId)}/columns`, { method: 'POST', body }),
    updateColumn: (id: string, body: { name?: string; position?: number; is_done_column?: boolean }) =>
      api<SettingsColumn>(`${base}/columns/${path(id)}`, { method: 'PUT', body }),
    deleteColumn: (id: string) => api<unknown>(`${base}/columns/${path(id)}`, { method: 'DELETE' }),
    createLabel: (body: { name: string; color: string }) => api<Label>(`${base}/labels`, { method: 'POST', body }),
    updateLabel: (id: string, body: { name?: string; color?: string }) => api<Label>(`${base}/labels/${path(id)}`, { method: 'PUT', body }),
    deleteLabel: (id: string) => api<unknown>(`${base}/labels/${path(id)}`, { method: 'DELETE' }),
    addMember: (email: string) => api<unknown>(`${base}/members`, { method: 'POST', body: { email } }),
    removeMember: (userId: string) => api<unknown>(`${base}/members/${path(userId)}`, { method: 'DELETE' }),
    tokens: (signal?: AbortSignal) => api<{ tokens: ProjectToken[] }>(`${base}/tokens`, { signal }),
    createToken: (name: string, access: TokenAccess) => api<CreatedToken>(`${base}/tokens`, { method: 'POST', body: { name, access } }),
    revokeToken: (id: string) => api<unknown>(`${base}/tokens/${path(id)}`, { method: 'DELETE' }),
    grants: (signal?: AbortSignal) => api<{ grants: OAuthGrant[] }>(`${base}/oauth-grants`, { signal }),
    revokeGrant: (id: string) => api<unknown>(`${base}/oauth-grants/${path(id)}`, { method: 'DELETE' }),
    eventsUrl: `${base}/events`,
  };
}

/** The client of one project. */
export type ProjectApi = ReturnType<typeof projectApi>;
