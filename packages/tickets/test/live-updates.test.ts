import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { createToken, revokeProjectToken, withTicketsStore } from '../src/index.ts';
import { eventBounds, pruneEvents } from '../src/store/event-store.ts';
import { boardCaller, connectMcp, mcpCaller, useBoard, type Caller } from './helpers.ts';
import { openEventStream, type EventStream } from './event-stream.ts';
import { signedInUser, webClient, type SignedIn } from './web-helpers.ts';

const change = (seq: number, kind: string, action: string, fields: Record<string, string>, actor: string) => ({
  seq,
  kind,
  action,
  ...fields,
  actor,
  at: expect.any(String),
});

describe.each(dialectsUnderTest())('live updates (server-sent events) on %s', (dialect) => {
  const board = useBoard(dialect, {
    key: 'LIVE',
    env: { TICKETS_EVENTS_POLL_MS: '60000', TICKETS_EVENTS_RECHECK_MS: '200', TICKETS_EVENTS_HEARTBEAT_MS: '100' },
  });
  let client: Client;
  let mcp: Caller;
  let member: SignedIn;
  const streams: EventStream[] = [];
  const open = async (path: string, headers: Record<string, string>) => {
    const stream = await openEventStream(`${board.url}${path}`, headers);
    streams.push(stream);
    return stream;
  };
  const bearer = () => ({ authorization: `Bearer ${board.token}` });
  const projectId = async () => (await board.app.ticketsDb.db.selectFrom('projects').select('id').where('key', '=', 'LIVE').executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    client = await connectMcp(board.url, board.token);
    mcp = mcpCaller(client);
    member = await signedInUser(board, 'mia@example.com', { memberOf: ['LIVE'] });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await client.close();
  });

  it('streams what an MCP client does, each change in order, after a ready message', async () => {
    const stream = await open('/api/projects/LIVE/events', { cookie: member.cookie });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-cache');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    const ready = await stream.waitFor((e) => e.event === 'ready');
    expect(ready).toMatchObject({ id: '0', data: { seq: 0 } });

    const ticket = await mcp('create_ticket', { title: 'Live card' });
    await mcp('move_ticket', { ticket_id: ticket.key, column_name: 'In Progress' });
    await mcp('add_comment', { ticket_id: ticket.key, content: 'Working on it' });
    const changes = await stream.changes(3);
    expect(changes.map((e) => [e.id, e.data])).toEqual([
      ['1', change(1, 'ticket', 'created', { key: ticket.key }, 'token:agent')],
      ['2', change(2, 'ticket', 'moved', { key: ticket.key }, 'token:agent')],
      ['3', change(3, 'ticket', 'commented', { key: ticket.key }, 'token:agent')],
    ]);
    expect(stream.events[0].event).toBe('ready');
  });

  it("sends an epic's automatic move, deletions, documents and the UI's own changes with their actors", async () => {
    const stream = await open('/api/projects/LIVE/events', bearer());
    const ready = await stream.waitFor((e) => e.event === 'ready');
    const from = ready.data.seq;
    const epic = await mcp('create_ticket', { title: 'Epic', ticket_type: 'epic' });
    const web = webClient(board, member);
    const sub = (await web(`/api/projects/LIVE/tickets/${epic.key}/sub-ticket`, { method: 'POST', body: { title: 'Part' } })).body;
    await web(`/api/projects/LIVE/tickets/${sub.key}/move`, { method: 'POST', body: { column_name: 'Done' } });
    await mcp('create_document', { title: 'Runbook', content: 'Steps' });
    await mcp('update_document', { doc_id: 'runbook', content: 'More steps' });
    await web('/api/projects/LIVE/documents/runbook', { method: 'DELETE' });
    await web(`/api/projects/LIVE/tickets/${sub.key}`, { method: 'DELETE' });
    const changes = await stream.changes(9);
    const user = 'user:mia@example.com';
    expect(changes.map((e) => e.data)).toEqual([
      change(from + 1, 'ticket', 'created', { key: epic.key }, 'token:agent'),
      change(from + 2, 'ticket', 'created', { key: sub.key }, user),
      change(from + 3, 'ticket', 'moved', { key: sub.key }, user),
      change(from + 4, 'ticket', 'auto_moved', { key: epic.key }, 'system'),
      change(from + 5, 'document', 'created', { slug: 'runbook' }, 'token:agent'),
      change(from + 6, 'document', 'updated', { slug: 'runbook' }, 'token:agent'),
      change(from + 7, 'document', 'deleted', { slug: 'runbook' }, user),
      change(from + 8, 'ticket', 'deleted', { key: sub.key }, user),
      change(from + 9, 'ticket', 'sub_ticket_deleted', { key: epic.key }, user),
    ]);
  });

  it('gives a reconnect with Last-Event-ID (or ?since=) exactly the events it missed', async () => {
    const first = await open('/api/projects/LIVE/events', bearer());
    const ready = await first.waitFor((e) => e.event === 'ready');
    const a = await mcp('create_ticket', { title: 'Seen' });
    const seen = await first.waitFor((e) => e.event === 'change' && e.data.key === a.key);
    first.close();
    const missed = [];
    missed.push(await mcp('create_ticket', { title: 'Missed 1' }));
    missed.push(await mcp('create_ticket', { title: 'Missed 2' }));
    const again = await open('/api/projects/LIVE/events', { ...bearer(), 'last-event-id': String(seen.data.seq) });
    const resumed = await again.waitFor((e) => e.event === 'ready');
    expect(resumed.id).toBe(String(seen.data.seq));
    expect(resumed.data).toEqual({ seq: seen.data.seq + 2 });
    const changes = await again.changes(2);
    expect(changes.map((e) => [e.data.seq, e.data.key])).toEqual([
      [seen.data.seq + 1, missed[0].key],
      [seen.data.seq + 2, missed[1].key],
    ]);
    // Nothing else follows: no duplicate of what the first stream had, none of the catch-up twice.
    await mcp('create_ticket', { title: 'After' });
    const more = await again.changes(3);
    expect(more.map((e) => e.data.seq)).toEqual([seen.data.seq + 1, seen.data.seq + 2, seen.data.seq + 3]);
    const bySince = await open(`/api/projects/LIVE/events?since=${ready.data.seq}`, bearer());
    expect((await bySince.changes(4)).map((e) => e.data.seq)).toEqual([1, 2, 3, 4].map((n) => ready.data.seq + n));
  });

  it('announces a refreshed AI summary as a summarized ticket event by system', async () => {
    const stream = await open('/api/projects/LIVE/events', bearer());
    await stream.waitFor((e) => e.event === 'ready');
    const ticket = await mcp('create_ticket', { title: 'Summarize me', description: 'A longer description of the work.' });
    await board.app.summaryWorker.drain();
    const summarized = await stream.waitFor((e) => e.event === 'change' && e.data.action === 'summarized' && e.data.key === ticket.key);
    expect(summarized.data).toEqual(change(summarized.data.seq, 'ticket', 'summarized', { key: ticket.key }, 'system'));
    expect((await mcp('get_ticket', { ticket_id: ticket.key })).ai_summary).toEqual(expect.any(String));
  });

  it('prunes old events and tells a stream resuming before them to reload (reset)', async () => {
    const { latest } = await eventBounds(board.app.ticketsDb.db, await projectId());
    // Nothing is older than a day yet: only the per-project bound prunes.
    const pruned = await withTicketsStore(board.env, (db) => pruneEvents(db, new Date(Date.now() - 86_400_000).toISOString(), 3));
    expect(pruned).toBe(latest - 3);
    const bounds = await eventBounds(board.app.ticketsDb.db, await projectId());
    expect(bounds).toEqual({ latest, oldest: latest - 2 });
    const resumed = await open('/api/projects/LIVE/events?since=1', bearer());
    expect((await resumed.waitFor((e) => e.event === 'ready')).data).toEqual({ seq: latest, reset: true });
    expect((await resumed.changes(3)).map((e) => e.data.seq)).toEqual([latest - 2, latest - 1, latest]);
    const recent = await open(`/api/projects/LIVE/events?since=${latest - 3}`, bearer());
    expect((await recent.waitFor((e) => e.event === 'ready')).data).toEqual({ seq: latest });
    // A position the project never reached (another database) starts from now.
    const ahead = await open(`/api/projects/LIVE/events?since=${latest + 100}`, bearer());
    expect(await ahead.waitFor((e) => e.event === 'ready')).toMatchObject({ id: String(latest), data: { seq: latest } });
  });

  it("refuses a stream to a non-member or another project's token with the project 404", async () => {
    const outsider = await signedInUser(board, 'otto@example.com');
    const refused = await open('/api/projects/LIVE/events', { cookie: outsider.cookie });
    expect(refused.status).toBe(404);
    expect(refused.error).toEqual({ error: { code: 'not_found', message: 'Project "LIVE" not found' } });
    const otherToken = await board.addProject('OTHER');
    const other = await open('/api/projects/LIVE/events', { authorization: `Bearer ${otherToken}` });
    expect(other.status).toBe(404);
    const bad = await open('/api/projects/LIVE/events?since=abc', bearer());
    expect(bad.status).toBe(400);
    expect(bad.error.error.code).toBe('invalid_request');
  });

  it('sends heartbeats and closes a stream whose token was revoked', async () => {
    const { token_id, token } = await withTicketsStore(board.env, (db) => createToken(db, 'LIVE', 'short'));
    const stream = await open('/api/projects/LIVE/events', { authorization: `Bearer ${token}` });
    await stream.waitFor((e) => e.event === 'ready');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(stream.comments).toContain('ping');
    await withTicketsStore(board.env, (db) => revokeProjectToken(db, 'LIVE', token_id));
    await stream.ended;
    const refused = await open('/api/projects/LIVE/events', { authorization: `Bearer ${token}` });
    expect(refused.status).toBe(401);
    // The REST API keeps working for the project's other token.
    expect((await boardCaller(board)('list_labels')).labels).toEqual([]);
  });
});
