import { describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { useBoard } from './helpers.ts';
import { signedInUser, webClient, webCall } from './web-helpers.ts';

// The board's New project (web.md, "Administration"): POST /api/projects for admin sessions only.
describe.each(dialectsUnderTest())('creating projects in the web UI API on %s', (dialect) => {
  const board = useBoard(dialect, { key: 'HOME' });

  it('answers 401 without a session, the 404 of a missing route for a token or a member, 422 naming every problem, 409 for a taken key, 201 for an admin', async () => {
    const create = { key: 'NEWP', name: 'New project', description: 'Made in the browser' };
    expect(await webCall(board, undefined, '/api/projects', { method: 'POST', body: create })).toMatchObject({
      status: 401,
      body: { error: { code: 'not_signed_in', message: 'Not signed in' } },
    });
    const withToken = await webClient(board, { token: board.token })('/api/projects', { method: 'POST', body: create });
    expect({ status: withToken.status, body: withToken.body }).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'No route POST /api/projects.' } },
    });
    const member = await signedInUser(board, 'mo@example.com', { memberOf: ['HOME'] });
    const missing = await webClient(board, member)('/api/projects', { method: 'POST', body: create });
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'No route POST /api/projects.' } },
    });
    const admin = await signedInUser(board, 'root@example.com', { admin: true });
    const asAdmin = webClient(board, admin);
    const invalid = await asAdmin('/api/projects', { method: 'POST', body: { key: 'new-p', name: 'Two\nlines', colour: 'red' } });
    expect({ status: invalid.status, body: invalid.body }).toEqual({
      status: 422,
      body: {
        error: {
          code: 'validation_failed',
          message: 'Project key "new-p" is invalid: use 2 to 10 upper-case letters or digits, starting with a letter (e.g. DEMO). (and 2 more problems)',
          details: {
            issues: [
              { path: 'key', message: 'Project key "new-p" is invalid: use 2 to 10 upper-case letters or digits, starting with a letter (e.g. DEMO).' },
              { path: 'name', message: 'A project name must be one line: no line breaks, tabs or other control characters.' },
              { path: 'colour', message: 'Unknown field colour: expected key, name, description' },
            ],
          },
        },
      },
    });
    const empty = await asAdmin('/api/projects', { method: 'POST', body: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.error.details.issues).toEqual([
      { path: 'key', message: 'key is required' },
      { path: 'name', message: 'name is required' },
    ]);
    const taken = await asAdmin('/api/projects', { method: 'POST', body: { key: 'HOME', name: 'Again' } });
    expect({ status: taken.status, body: taken.body }).toEqual({
      status: 409,
      body: { error: { code: 'conflict', message: 'A project with key HOME already exists.' } },
    });
    const created = await asAdmin('/api/projects', { method: 'POST', body: create });
    expect({ status: created.status, body: created.body }).toEqual({
      status: 201,
      body: { project_id: expect.any(String), key: 'NEWP', name: 'New project' },
    });
    expect((await asAdmin('/api/session')).body.projects).toEqual([
      { key: 'HOME', name: 'Project HOME' },
      { key: 'NEWP', name: 'New project' },
    ]);
    expect((await asAdmin('/api/projects/NEWP/settings')).body.project).toEqual({
      key: 'NEWP',
      name: 'New project',
      description: 'Made in the browser',
      settings: { auto_summary: true },
    });
  });

  it('lets a member added to the new project see it, and a removed one no longer', async () => {
    const admin = await signedInUser(board, 'chief@example.com', { admin: true });
    const asAdmin = webClient(board, admin);
    expect((await asAdmin('/api/projects', { method: 'POST', body: { key: 'TEAM', name: 'Team' } })).status).toBe(201);
    const newcomer = await signedInUser(board, 'nell@example.com', { name: 'Nell' });
    const asNewcomer = webClient(board, newcomer);
    expect((await asNewcomer('/api/projects/TEAM/settings')).status).toBe(404);
    expect((await asAdmin('/api/projects/TEAM/members', { method: 'POST', body: { email: 'nell@example.com' } })).body).toEqual({
      email: 'nell@example.com',
      added: true,
    });
    expect((await asNewcomer('/api/session')).body.projects).toEqual([{ key: 'TEAM', name: 'Team' }]);
    expect((await asNewcomer('/api/projects/TEAM/settings')).status).toBe(200);
    const removed = await asAdmin(`/api/projects/TEAM/members/${newcomer.id}`, { method: 'DELETE' });
    expect({ status: removed.status, body: removed.body }).toEqual({ status: 200, body: { removed: true } });
    expect((await asNewcomer('/api/projects/TEAM/settings')).status).toBe(404);
    expect((await asNewcomer('/api/session')).body.projects).toEqual([]);
  });
});
