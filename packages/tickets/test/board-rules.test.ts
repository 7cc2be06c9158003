import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { connectMcp, mcpCaller, refusal, restCaller, useBoard, type Caller } from './helpers.ts';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createLabel, withTicketsStore } from '../src/index.ts';

describe.each(dialectsUnderTest())('board rules through both transports on %s', (dialect) => {
  const board = useBoard(dialect);
  const clients: Client[] = [];
  afterAll(async () => {
    for (const client of clients) await client.close();
  });

  describe.each(['rest', 'mcp'] as const)('over %s', (transport) => {
    let call: Caller;
    let key: string;
    const k = (n: number) => `${key}-${n}`;
    beforeAll(async () => {
      key = transport === 'rest' ? 'RULESR' : 'RULESM';
      const token = await board.addProject(key);
      await withTicketsStore(board.env, (db) => createLabel(db, key, 'backend', '#2563eb'));
      if (transport === 'rest') call = restCaller(board.url, token);
      else {
        const client = await connectMcp(board.url, token);
        clients.push(client);
        call = mcpCaller(client);
      }
    });
    const columnOf = async (id: string) => (await call('get_ticket', { ticket_id: id })).column;

    it('creates in the named column case-insensitively, else the first, and refuses unknown columns listing the valid ones', async () => {
      const first = await call('create_ticket', { title: 'Default column' });
      expect(first).toMatchObject({ key: k(1), number: 1, column: 'Backlog', board: 'Main', priority: 'medium', ticket_type: 'task', completed_at: null });
      expect((await call('create_ticket', { title: 'Named', column_name: 'in progress' })).column).toBe('In Progress');
      const error = await refusal(call('create_ticket', { title: 'x', column_name: 'Doing' }));
      expect(error.message).toBe(
        'Unknown column "Doing". Valid columns: Backlog, To Do, In Progress, Review, Done. Column names come from get_project_status or list_columns.',
      );
      if (transport === 'rest') expect(error.status).toBe(400);
      expect(error.code).toBe('invalid_request');
    });

    it('refuses unknown priority, type, status, scope and doc_type with the valid values', async () => {
      expect((await refusal(call('create_ticket', { title: 'x', priority: 'urgent' }))).message).toContain(
        'Unknown priority "urgent". Valid values: lowest, low, medium, high, highest.',
      );
      expect((await refusal(call('create_ticket', { title: 'x', ticket_type: 'feature' }))).message).toContain(
        'Unknown ticket_type "feature". Valid values: task, bug, story, epic.',
      );
      expect((await refusal(call('list_tickets', { status: 'closed' }))).message).toContain('Unknown status "closed". Valid values: open, completed.');
      expect((await refusal(call('search', { query: 'x', scope: 'wiki' }))).message).toContain('Unknown scope "wiki". Valid values: all, tickets, documents.');
      expect((await refusal(call('create_document', { title: 'x', doc_type: 'notes' }))).message).toContain(
        'Unknown doc_type "notes". Valid values: readme, claude_md, wiki, changelog, custom.',
      );
      const missing = await refusal(call('create_ticket', {}));
      expect(missing.message).toBe('Invalid arguments for create_ticket: title is required.');
      if (transport === 'rest') expect(missing.status).toBe(400);
    });

    it('accepts a ticket id as key in any case, number, numeric string or UUID; unknown ids are not found', async () => {
      const ticket = await call('create_ticket', { title: 'Addressable' });
      for (const id of [ticket.key, ticket.key.toLowerCase(), ticket.number, String(ticket.number), ticket.id]) {
        expect((await call('get_ticket', { ticket_id: id })).id).toBe(ticket.id);
      }
      const missing = await refusal(call('get_ticket', { ticket_id: `${key}-999` }));
      if (transport === 'rest') expect(missing.status).toBe(404);
      expect(missing.code).toBe('not_found');
      expect((await refusal(call('get_ticket', { ticket_id: 'nonsense' }))).code).toBe('invalid_request');
    });

    it('gives sub-tickets the parent priority, promotes the parent to epic and keeps one level', async () => {
      const parent = await call('create_ticket', { title: 'Parent task', priority: 'high' });
      const sub = await call('create_sub_ticket', { parent_ticket_id: parent.key, title: 'Child' });
      expect(sub).toMatchObject({ priority: 'high', parent: { id: parent.id, key: parent.key, title: 'Parent task' } });
      expect((await call('create_sub_ticket', { parent_ticket_id: parent.key, title: 'Low child', priority: 'low' })).priority).toBe('low');
      const promoted = await call('get_ticket', { ticket_id: parent.key });
      expect(promoted.ticket_type).toBe('epic');
      expect(promoted.sub_tickets.map((s: { key: string }) => s.key)).toEqual([sub.key, k(sub.number + 1)]);
      expect(promoted.activity.map((a: { action: string }) => a.action)).toEqual(['created', 'promoted']);
      expect(promoted.activity[1].actor).toBe('token:agent');
      const deeper = await refusal(call('create_sub_ticket', { parent_ticket_id: sub.key, title: 'Grandchild' }));
      if (transport === 'rest') expect(deeper.status).toBe(409);
      expect(deeper.message).toContain('cannot have sub-tickets (sub-tickets are one level deep)');
    });

    it('advances the epic automatically after creating, moving and deleting sub-tickets, as system', async () => {
      const epic = await call('create_ticket', { title: 'Epic', ticket_type: 'epic' });
      const a = await call('create_sub_ticket', { parent_ticket_id: epic.key, title: 'A' });
      const b = await call('create_sub_ticket', { parent_ticket_id: epic.key, title: 'B', column_name: 'backlog' });
      expect(await columnOf(epic.key)).toBe('Backlog'); // all in the first column: stays
      await call('move_ticket', { ticket_id: a.key, column_name: 'Review' });
      expect(await columnOf(epic.key)).toBe('In Progress');
      await call('move_ticket', { ticket_id: a.key, column_name: 'Done' });
      expect(await columnOf(epic.key)).toBe('In Progress'); // B still in the first column, epic already in a middle column
      await call('move_ticket', { ticket_id: b.key, column_name: 'DONE' });
      const done = await call('get_ticket', { ticket_id: epic.key });
      expect(done.column).toBe('Done');
      expect(done.completed_at).not.toBeNull();
      await call('move_ticket', { ticket_id: b.key, column_name: 'To Do' });
      const reopened = await call('get_ticket', { ticket_id: epic.key });
      expect(reopened).toMatchObject({ column: 'In Progress', completed_at: null });
      const auto = reopened.activity.filter((entry: { action: string }) => entry.action === 'auto_moved');
      expect(auto.map((entry: { detail: string; actor: string }) => [entry.detail, entry.actor])).toEqual([
        ['moved from Backlog to In Progress: work started on a sub-ticket', 'system'],
        ['moved from In Progress to Done: all sub-tickets are done', 'system'],
        ['moved from Done to In Progress: work started on a sub-ticket', 'system'],
      ]);
      // Deleting the unfinished sub-ticket leaves only done work: the epic completes.
      expect(await call('delete_ticket', { ticket_id: b.key })).toEqual({ deleted: true, key: b.key });
      const after = await call('get_ticket', { ticket_id: epic.key });
      expect(after.column).toBe('Done');
      expect(after.activity.slice(-2).map((entry: { action: string; detail: string }) => [entry.action, entry.detail])).toEqual([
        ['sub_ticket_deleted', `deleted sub-ticket ${b.key}: B`],
        ['auto_moved', 'moved from In Progress to Done: all sub-tickets are done'],
      ]);
    });

    it('refuses move_ticket on an epic with sub-tickets, explaining that epics advance automatically', async () => {
      const epic = await call('create_ticket', { title: 'Busy epic', ticket_type: 'epic' });
      await call('create_sub_ticket', { parent_ticket_id: epic.key, title: 'Work' });
      const error = await refusal(call('move_ticket', { ticket_id: epic.key, column_name: 'Done' }));
      if (transport === 'rest') expect(error.status).toBe(409);
      expect(error.message).toBe(
        `${epic.key} is an epic with 1 sub-ticket(s); epics advance automatically as their sub-tickets move. Move its sub-tickets instead.`,
      );
      const lonely = await call('create_ticket', { title: 'Lonely epic', ticket_type: 'epic' });
      expect((await call('move_ticket', { ticket_id: lonely.key, column_name: 'Review' })).column).toBe('Review');
    });

    it('converts only standalone tickets, promotes the target and lets the epic follow', async () => {
      const story = await call('create_ticket', { title: 'Story', ticket_type: 'story' });
      const loose = await call('create_ticket', { title: 'Loose work', column_name: 'In Progress' });
      const converted = await call('convert_to_sub_ticket', { ticket_id: loose.key, epic_id: story.number });
      expect(converted.parent.key).toBe(story.key);
      const epic = await call('get_ticket', { ticket_id: story.key });
      expect(epic).toMatchObject({ ticket_type: 'epic', column: 'In Progress' });
      expect(epic.activity.map((entry: { action: string }) => entry.action)).toEqual(['created', 'promoted', 'auto_moved']);
      const detail = (await call('get_ticket', { ticket_id: loose.key })).activity.at(-1);
      expect(detail).toMatchObject({ action: 'converted', detail: `converted to a sub-ticket of ${story.key}`, actor: 'token:agent' });
      const again = await refusal(call('convert_to_sub_ticket', { ticket_id: loose.key, epic_id: story.key }));
      if (transport === 'rest') expect(again.status).toBe(409);
      expect(again.message).toContain('only a standalone ticket (no parent, no sub-tickets) can be converted');
      const parentOfOthers = await refusal(
        call('convert_to_sub_ticket', { ticket_id: story.key, epic_id: (await call('create_ticket', { title: 'Other' })).key }),
      );
      expect(parentOfOthers.message).toContain('has sub-tickets of its own');
    });

    it('leaves sub-tickets standalone when their epic is deleted; numbers are never reused', async () => {
      const epic = await call('create_ticket', { title: 'Doomed epic', ticket_type: 'epic' });
      const sub = await call('create_sub_ticket', { parent_ticket_id: epic.key, title: 'Survivor' });
      await call('delete_ticket', { ticket_id: epic.id });
      const survivor = await call('get_ticket', { ticket_id: sub.key });
      expect(survivor.parent).toBeNull();
      expect(survivor.activity.at(-1)).toMatchObject({ action: 'updated', detail: `parent ${epic.key} was deleted; now a standalone ticket` });
      expect((await refusal(call('get_ticket', { ticket_id: epic.key }))).code).toBe('not_found');
      const next = await call('create_ticket', { title: 'After delete' });
      expect(next.number).toBe(sub.number + 1);
    });

    it('backdates created_at, sets completed_at in the done column and clears it when moved out', async () => {
      const old = await call('create_ticket', { title: 'Shipped long ago', column_name: 'done', created_at: '2024-03-01T10:00:00+02:00' });
      expect(old).toMatchObject({ created_at: '2024-03-01T08:00:00.000Z', completed_at: '2024-03-01T08:00:00.000Z', column: 'Done' });
      const moved = await call('move_ticket', { ticket_id: old.key, column_name: 'In Progress' });
      expect(moved.completed_at).toBeNull();
      const redone = await call('move_ticket', { ticket_id: old.key, column_name: 'Done' });
      expect(redone.completed_at).not.toBeNull();
      expect(redone.completed_at > '2025').toBe(true);
      const bad = await refusal(call('create_ticket', { title: 'x', created_at: 'last tuesday' }));
      expect(bad.message).toBe('created_at "last tuesday" is not an ISO 8601 date-time. Use e.g. 2024-03-01T10:00:00Z or 2024-03-01.');
      const sub = await call('create_sub_ticket', { parent_ticket_id: old.key, title: 'Old part', created_at: '2024-02-01', column_name: 'Done' });
      expect(sub.created_at).toBe('2024-02-01T00:00:00.000Z');
    });

    it('records updates and comments in the activity, oldest first', async () => {
      const ticket = await call('create_ticket', { title: 'Tracked' });
      await call('update_ticket', { ticket_id: ticket.key, priority: 'high', title: 'Tracked better' });
      const comment = await call('add_comment', { ticket_id: ticket.key, content: 'Did the thing in `src/app.ts`.' });
      expect(comment).toMatchObject({ content: 'Did the thing in `src/app.ts`.', author: 'token:agent', ticket_key: ticket.key });
      const full = await call('get_ticket', { ticket_id: ticket.key });
      expect(full.title).toBe('Tracked better');
      expect(full.comments).toEqual([{ id: comment.id, content: comment.content, author: 'token:agent', created_at: comment.created_at }]);
      expect(full.activity.map((entry: { action: string; detail: string }) => [entry.action, entry.detail])).toEqual([
        ['created', 'created in Backlog'],
        ['updated', 'changed title; priority: medium → high'],
        // Plain text: no Markdown syntax in the activity.
        ['commented', 'Did the thing in src/app.ts.'],
      ]);
    });

    it('sets labels by name, refuses unknown labels and assignees listing the valid values, and keeps epics with sub-tickets epics', async () => {
      const ticket = await call('create_ticket', { title: 'Labelled', labels: ['Backend'] });
      expect(ticket.labels).toEqual([{ id: expect.any(String), name: 'backend', color: '#2563eb' }]);
      expect((await refusal(call('update_ticket', { ticket_id: ticket.key, labels: ['frontend'] }))).message).toBe(
        'Unknown label "frontend". Valid values: backend.',
      );
      expect((await refusal(call('update_ticket', { ticket_id: ticket.key, assignee: 'nobody@example.com' }))).message).toBe(
        'Unknown assignee "nobody@example.com". Valid values: (no members).',
      );
      expect((await call('update_ticket', { ticket_id: ticket.key, labels: [] })).labels).toEqual([]);
      const epic = await call('create_ticket', { title: 'Typed epic', ticket_type: 'epic' });
      const sub = await call('create_sub_ticket', { parent_ticket_id: epic.key, title: 'Typed sub' });
      const demote = await refusal(call('update_ticket', { ticket_id: epic.key, ticket_type: 'story' }));
      if (transport === 'rest') expect(demote.status).toBe(409);
      expect(demote.message).toBe(`${epic.key} has sub-tickets and must stay an epic. Convert or delete its sub-tickets first.`);
      expect((await refusal(call('update_ticket', { ticket_id: sub.key, ticket_type: 'epic' }))).message).toBe(
        `${sub.key} is a sub-ticket and cannot be an epic (sub-tickets are one level deep).`,
      );
    });

    it('filters list_tickets by column, status, priority and text, with a limit of at most 100', async () => {
      await call('create_ticket', { title: 'Needle in the haystack', priority: 'lowest', column_name: 'Review' });
      const byText = await call('list_tickets', { search: 'NEEDLE' });
      expect(byText.count).toBe(1);
      expect(byText.tickets[0]).toMatchObject({ title: 'Needle in the haystack', column: 'Review' });
      expect((await call('list_tickets', { column_name: 'review', priority: 'lowest' })).count).toBe(1);
      const completed = await call('list_tickets', { status: 'completed' });
      expect(completed.tickets.every((t: { column: string }) => t.column === 'Done')).toBe(true);
      const open = await call('list_tickets', { status: 'open', limit: 3 });
      expect(open.count).toBe(3);
      expect(open.tickets.every((t: { column: string }) => t.column !== 'Done')).toBe(true);
      const tooMany = await refusal(call('list_tickets', { limit: 101 }));
      expect(tooMany.message).toBe('Invalid arguments for list_tickets: limit: must be at most 100 (the maximum)');
    });
  });
});
