import { beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { boardCaller, useBoard } from './helpers.ts';
import { signedInUser, webCall, webClient, type SignedIn } from './web-helpers.ts';

const notFound = (key: string) => ({ error: { code: 'not_found', message: `Project "${key}" not found` } });

describe.each(dialectsUnderTest())('the web UI API under /api/projects/{KEY} on %s', (dialect) => {
  const board = useBoard(dialect, { key: 'WEB' });
  let admin: SignedIn;
  let member: SignedIn;
  let outsider: SignedIn;
  let otherToken: string;

  beforeAll(async () => {
    otherToken = await board.addProject('ALPHA', 'alpha-agent');
    await board.addProject('ZED');
    admin = await signedInUser(board, 'root@example.com', { admin: true, name: 'Root' });
    member = await signedInUser(board, 'mia@example.com', { memberOf: ['WEB', 'ZED'], name: 'Mia' });
    outsider = await signedInUser(board, 'otto@example.com', { memberOf: ['ALPHA'] });
  });

  it('lists in GET /api/session the projects each user may see, sorted by key', async () => {
    expect((await webCall(board, admin.cookie, '/api/session')).body).toEqual({
      user: { id: admin.id, email: 'root@example.com', name: 'Root', role: 'admin' },
      projects: [
        { key: 'ALPHA', name: 'Project ALPHA' },
        { key: 'WEB', name: 'Project WEB' },
        { key: 'ZED', name: 'Project ZED' },
      ],
    });
    expect((await webCall(board, member.cookie, '/api/session')).body.projects).toEqual([
      { key: 'WEB', name: 'Project WEB' },
      { key: 'ZED', name: 'Project ZED' },
    ]);
    const anonymous = await webCall(board, undefined, '/api/session');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: { code: 'not_signed_in', message: 'Not signed in' } });
  });

  it('answers 401 without a session or token', async () => {
    const response = await webCall(board, undefined, '/api/projects/WEB/status');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: { code: 'not_signed_in', message: 'Not signed in' } });
    const stale = await webCall(board, 'sb_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/api/projects/WEB/status');
    expect(stale.status).toBe(401);
  });

  it('lets an admin use every project and a member their own', async () => {
    for (const key of ['WEB', 'ALPHA', 'ZED']) {
      const response = await webCall(board, admin.cookie, `/api/projects/${key}/status`);
      expect(response.status).toBe(200);
      expect(response.body.project.key).toBe(key);
    }
    const own = await webCall(board, member.cookie, '/api/projects/web/columns');
    expect(own.status).toBe(200);
    expect(own.body.columns.map((c: { name: string }) => c.name)).toEqual(['Backlog', 'To Do', 'In Progress', 'Review', 'Done']);
  });

  it('answers a non-member exactly as for an unknown project', async () => {
    const hidden = await webCall(board, member.cookie, '/api/projects/ALPHA/status');
    const unknown = await webCall(board, member.cookie, '/api/projects/NOPE/status');
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(notFound('ALPHA'));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(notFound('NOPE'));
    const write = await webCall(board, outsider.cookie, '/api/projects/WEB/tickets', { method: 'POST', body: { title: 'x' } });
    expect(write.status).toBe(404);
    expect(write.body).toEqual(notFound('WEB'));
    expect((await webCall(board, admin.cookie, '/api/projects/NOPE/status')).body).toEqual(notFound('NOPE'));
  });

  it("refuses a cookie write without this service's Origin with 403", async () => {
    const foreign = await webCall(board, member.cookie, '/api/projects/WEB/tickets', {
      method: 'POST',
      body: { title: 'CSRF' },
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      error: { code: 'forbidden', message: 'Origin did not match: Origin "https://evil.example" is not this service\'s origin' },
    });
    const none = await webCall(board, member.cookie, '/api/projects/WEB/tickets', { method: 'POST', body: { title: 'CSRF' }, origin: false });
    expect(none.status).toBe(403);
    expect(none.body).toEqual({
      error: {
        code: 'forbidden',
        message: 'Origin did not match: a signed-in request that changes something must carry an Origin (or Referer) header of this service',
      },
    });
    const byReferer = await webCall(board, member.cookie, '/api/projects/WEB/tickets', {
      method: 'POST',
      body: { title: 'From the page' },
      origin: false,
      headers: { referer: `${board.url}/projects/WEB/board` },
    });
    expect(byReferer.status).toBe(201);
    const listed = await boardCaller(board)('list_tickets', { search: 'CSRF' });
    expect(listed.count).toBe(0);
  });

  it('accepts a project token of KEY, and answers a token of another project with 404', async () => {
    const own = await webCall(board, undefined, '/api/projects/WEB/labels', { headers: { authorization: `Bearer ${board.token}` } });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ labels: [] });
    const other = await webCall(board, undefined, '/api/projects/WEB/labels', { headers: { authorization: `Bearer ${otherToken}` } });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(notFound('WEB'));
    const bad = await webCall(board, member.cookie, '/api/projects/WEB/labels', { headers: { authorization: 'Bearer sbt_unknown' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe(
      `Bearer realm="switchboard-tickets", resource_metadata="${board.url}/.well-known/oauth-protected-resource/api/mcp/v1/mcp", scope="tickets:read tickets:write"`,
    );
    expect(bad.body.error.code).toBe('unauthorized');
    // A token needs no Origin: a browser never adds an Authorization header on its own.
    const write = await webClient(board, { token: board.token })('/api/projects/WEB/tickets', { method: 'POST', body: { title: 'From a script' } });
    expect(write.status).toBe(201);
    expect(write.body.key).toMatch(/^WEB-\d+$/);
  });

  it('records a change made with a session as user:EMAIL, with the same answers and errors as REST', async () => {
    const web = webClient(board, member);
    const epic = await web('/api/projects/WEB/tickets', { method: 'POST', body: { title: 'Checkout', ticket_type: 'epic' } });
    expect(epic.status).toBe(201);
    const sub = await web(`/api/projects/WEB/tickets/${epic.body.key}/sub-ticket`, { method: 'POST', body: { title: 'Cart page' } });
    expect(sub.status).toBe(201);
    const moved = await web(`/api/projects/WEB/tickets/${sub.body.key}/move`, { method: 'POST', body: { column_name: 'in progress' } });
    expect(moved.status).toBe(200);
    expect(moved.body.column).toBe('In Progress');
    const comment = await web(`/api/projects/WEB/tickets/${sub.body.key}/comment`, { method: 'POST', body: { content: 'Started' } });
    expect(comment.status).toBe(201);
    expect(comment.body.author).toBe('user:mia@example.com');

    const detail = await web(`/api/projects/WEB/tickets/${sub.body.key}`);
    expect(detail.body.activity.map((a: { action: string; actor: string }) => [a.action, a.actor])).toEqual([
      ['created', 'user:mia@example.com'],
      ['moved', 'user:mia@example.com'],
      ['commented', 'user:mia@example.com'],
    ]);
    const epicDetail = await web(`/api/projects/WEB/tickets/${epic.body.key}`);
    expect(epicDetail.body.activity.map((a: { action: string; actor: string }) => [a.action, a.actor])).toEqual([
      ['created', 'user:mia@example.com'],
      ['auto_moved', 'system'],
    ]);

    // The board's rules and their errors, as over /api/mcp/v1.
    const rest = boardCaller(board);
    const refusedWeb = await web(`/api/projects/WEB/tickets/${epic.body.key}/move`, { method: 'POST', body: { column_name: 'Done' } });
    const refusedRest = await rest('move_ticket', { ticket_id: epic.body.key, column_name: 'Done' }).catch((error) => error);
    expect(refusedWeb.status).toBe(409);
    expect(refusedRest.status).toBe(409);
    expect(refusedWeb.body).toEqual({ error: { code: 'conflict', message: refusedRest.message } });
    const unknownColumn = await web(`/api/projects/WEB/tickets/${sub.body.key}/move`, { method: 'POST', body: { column_name: 'Nowhere' } });
    expect(unknownColumn.status).toBe(400);
    expect(unknownColumn.body.error.details.valid_values).toEqual(['Backlog', 'To Do', 'In Progress', 'Review', 'Done']);
    const paged = await web('/api/projects/WEB/tickets?column_name=In%20Progress&limit=1');
    expect(paged.status).toBe(200);
    expect(paged.body.count).toBe(1);
    expect(typeof paged.body.next_cursor).toBe('string');
    const next = await web(`/api/projects/WEB/tickets?column_name=In%20Progress&limit=1&cursor=${encodeURIComponent(paged.body.next_cursor)}`);
    expect(next.body.tickets[0].key).not.toBe(paged.body.tickets[0].key);
    const other = await web('/api/projects/WEB/tickets/ALPHA-1');
    expect(other.status).toBe(404);
  });

  it("documents the web UI's API in /openapi.json", async () => {
    const paths = Object.keys((await (await fetch(`${board.url}/openapi.json`)).json()).paths);
    for (const path of [
      '/api/projects/{key}/status',
      '/api/projects/{key}/tickets/{id}/move',
      '/api/projects/{key}/board',
      '/api/projects/{key}/settings',
      '/api/projects/{key}/columns/{id}',
      '/api/projects/{key}/tokens',
      '/api/projects/{key}/events',
    ]) {
      expect(paths).toContain(path);
    }
  });

  it('serves documents under the project, including DELETE by slug', async () => {
    const web = webClient(board, member);
    const created = await web('/api/projects/WEB/documents', { method: 'POST', body: { title: 'Getting started', content: '# Hi' } });
    expect(created.status).toBe(201);
    expect(created.body.slug).toBe('getting-started');
    const removed = await web('/api/projects/WEB/documents/getting-started', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ deleted: true, slug: 'getting-started' });
    expect((await web('/api/projects/WEB/documents/getting-started')).status).toBe(404);
  });
});
