import { beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { MembershipStore, UserStore, openPlatformDatabase } from '@switchboard/core';
import { TOOLS, createLabel, withTicketsStore } from '../src/index.ts';
import { connectMcp, useBoard } from './helpers.ts';
import { outputSchemaProblems } from './helpers/output-schemas.ts';
import { connectV2 } from './helpers/mcp-wire.ts';

/** Every tool at least once, with answers of each shape: an epic with sub-tickets, labels, an assignee, comments, documents. */
function session(key: string): Array<[string, Record<string, unknown>]> {
  return [
    ['get_project_status', {}],
    ['create_ticket', { title: 'Epic: login', ticket_type: 'epic', description: 'Users log in.', labels: ['backend'], assignee: 'dev@example.com' }],
    ['create_sub_ticket', { parent_ticket_id: `${key}-1`, title: 'Login form', column_name: 'To Do' }],
    ['create_ticket', { title: 'Session store', priority: 'high', created_at: '2024-03-01T10:00:00Z', column_name: 'Done' }],
    ['convert_to_sub_ticket', { ticket_id: `${key}-3`, epic_id: `${key}-1` }],
    ['update_ticket', { ticket_id: `${key}-2`, description: 'Email and password.', assignee: null }],
    ['move_ticket', { ticket_id: `${key}-2`, column_name: 'In Progress' }],
    ['add_comment', { ticket_id: `${key}-2`, content: 'Started `LoginForm`.' }],
    ['get_ticket', { ticket_id: `${key}-1` }],
    ['get_ticket', { ticket_id: `${key}-2` }],
    ['list_tickets', { status: 'open', limit: 10 }],
    ['list_tickets', { limit: 1 }],
    ['create_document', { title: 'README', content: 'Login docs.', doc_type: 'readme' }],
    ['create_document', { title: 'Design notes', content: 'Why sessions.' }],
    ['update_document', { doc_id: 'readme', content: 'Login documentation.' }],
    ['get_document', { doc_id: 'design-notes' }],
    ['list_documents', { limit: 1 }],
    ['search', { query: 'login', scope: 'all' }],
    ['list_labels', {}],
    ['list_members', {}],
    ['list_columns', {}],
    ['get_all_tickets', {}],
    ['get_all_tickets', { limit: 2 }],
    ['get_project_status', {}],
    ['delete_ticket', { ticket_id: `${key}-3` }],
  ];
}

type Answer = { isError?: boolean; structuredContent?: unknown; content: unknown; _meta?: Record<string, unknown> };
interface AnyClient {
  listTools(): Promise<{ tools: Array<{ name: string; outputSchema?: object }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

const CLIENTS: Array<[string, (board: Parameters<typeof connectV2>[0], token: string) => Promise<AnyClient>]> = [
  ['an SDK 1.x client (2025-11-25)', (board, token) => connectMcp(board.url, token) as Promise<AnyClient>],
  ['a v2 client in the legacy era', (board, token) => connectV2(board, 'legacy', { token }) as Promise<AnyClient>],
  ['a v2 client pinned to 2026-07-28', (board, token) => connectV2(board, 'pinned', { token }) as Promise<AnyClient>],
];

// design/mcp.md: every success's structuredContent validates against its tool's outputSchema (a JSON Schema
// validator, every tool, both eras); a failure carries no structuredContent.
describe.each(dialectsUnderTest())("the tools' output schemas on %s", (dialect) => {
  const board = useBoard(dialect);
  beforeAll(async () => {
    const platform = await openPlatformDatabase(board.env);
    try {
      const { user } = await new UserStore(platform.db).create({ email: 'dev@example.com', name: 'Dev', password: 'password-123' });
      for (const key of ['OSA', 'OSB', 'OSC']) await new MembershipStore(platform.db).add('tickets', key, user.id);
    } finally {
      await platform.close();
    }
  });

  it.each(CLIENTS.map(([label], i) => [label, i] as const))("validates every tool's answers to %s", async (_label, index) => {
    const key = ['OSA', 'OSB', 'OSC'][index];
    const token = await board.addProject(key);
    await withTicketsStore(board.env, (db) => createLabel(db, key, 'backend', '#2563eb'));
    const client = await CLIENTS[index][1](board, token);
    try {
      const listed = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool.outputSchema]));
      const checked = new Set<string>();
      for (const [name, args] of session(key)) {
        const answer = (await client.callTool({ name, arguments: args })) as Answer;
        expect(answer.isError, `${name} ${JSON.stringify(answer.content)}`).toBeFalsy();
        expect(outputSchemaProblems(name, answer.structuredContent, listed.get(name))).toEqual([]);
        checked.add(name);
      }
      expect([...checked].sort()).toEqual(TOOLS.map((tool) => tool.name).sort());
      // A failure: the message as text and in _meta, nothing an outputSchema could reject.
      const failed = (await client.callTool({ name: 'get_document', arguments: { doc_id: 'missing' } })) as Answer;
      expect(failed).toMatchObject({ isError: true, _meta: { 'dev.switchboard/error': { code: 'not_found' } } });
      expect(failed.structuredContent).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});
