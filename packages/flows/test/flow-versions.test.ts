import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startHarness, simpleFlow, type Harness } from './helpers/harness.ts';

const conflict = (slug: string, latest: number, base: number) => ({
  error: {
    message: `Flow "${slug}" is at version ${latest}, but this save was based on version ${base}: load version ${latest} and apply your changes to it, or save without "base_version" to overwrite it`,
    type: 'invalid_request_error',
    param: null,
    code: 'version_conflict',
    latest_version: latest,
  },
});

const badRequest = (message: string, param: string | null) => ({ error: { message, type: 'invalid_request_error', param, code: 'invalid_request' } });

describe.each(dialectsUnderTest())('flow versions on %s', (dialect) => {
  let h: Harness;
  const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${h.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${h.manageToken}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const answer = async (response: Response) => [response.status, await response.json()];

  beforeAll(async () => {
    h = await startHarness(dialect);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses a save or restore without a manage token (401, 403) before anything else', async () => {
    const noToken = await fetch(`${h.base}/api/llm/acme/flows/x/versions`);
    expect(noToken.status).toBe(401);
    const runScope = await h.get('/api/llm/acme/flows/x/versions', h.runToken);
    expect(runScope.status).toBe(403);
    const restore = await h.post('/api/llm/acme/flows/x/versions/1/restore', {}, h.runToken);
    expect(restore.status).toBe(403);
  });

  it('records the author and note of each save, never storing note or base_version in the definition', async () => {
    const created = await h.post('/api/llm/acme/flows', { ...simpleFlow({ slug: 'notes', format: 'raw' }), note: 'First draft' });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    const body = await created.json();
    expect(body).toMatchObject({ slug: 'notes', version: 1, author: 'token:admin', note: 'First draft' });
    expect(body.definition).toEqual({ ...simpleFlow({ slug: 'notes', format: 'raw' }) });

    const updated = await h.put('/api/llm/acme/flows/notes', { ...simpleFlow({ name: 'Notes v2', format: 'raw' }), base_version: 1 });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ version: 2, author: 'token:admin', note: null });

    const got = await h.get('/api/llm/acme/flows/notes');
    expect(got.headers.get('etag')).toBe('"2"');
    const current = await got.json();
    expect(Object.keys(current).sort()).toEqual(['author', 'created_at', 'definition', 'description', 'name', 'note', 'slug', 'updated_at', 'version']);
    expect([current.version, current.author, current.note, current.definition.name]).toEqual([2, 'token:admin', null, 'Notes v2']);
    expect(Object.keys(current.definition).sort()).toEqual(['edges', 'name', 'nodes', 'slug']);
  });

  it('lists versions newest first and reads one with its definition; 404 for a version the flow does not have', async () => {
    const other = await h.stores.orgs.createToken((await h.stores.orgs.requireOrg('acme')).id, { scope: 'manage', name: 'deploy-bot' });
    expect((await h.put('/api/llm/acme/flows/notes', { ...simpleFlow({ name: 'Notes v3', format: 'raw' }), note: 'By the bot' }, other.token)).status).toBe(
      200,
    );

    const list = await h.get('/api/llm/acme/flows/notes/versions');
    expect(list.status).toBe(200);
    const { versions } = await list.json();
    expect(versions.map((v: { version: number; author: string; note: string | null }) => [v.version, v.author, v.note])).toEqual([
      [3, 'token:deploy-bot', 'By the bot'],
      [2, 'token:admin', null],
      [1, 'token:admin', 'First draft'],
    ]);
    expect(Object.keys(versions[0]).sort()).toEqual(['author', 'created_at', 'note', 'version']);
    expect(versions[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const one = await h.get('/api/llm/acme/flows/notes/versions/1');
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual({
      version: 1,
      created_at: versions[2].created_at,
      author: 'token:admin',
      note: 'First draft',
      definition: simpleFlow({ slug: 'notes', format: 'raw' }),
    });

    expect(await answer(await h.get('/api/llm/acme/flows/notes/versions/9'))).toEqual([
      404,
      { error: { message: 'Flow "notes" has no version 9', type: 'not_found_error', param: 'version', code: 'version_not_found' } },
    ]);
    const notANumber = await h.get('/api/llm/acme/flows/notes/versions/latest');
    expect(notANumber.status).toBe(400);
    expect((await notANumber.json()).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request' });
    expect(await answer(await h.get('/api/llm/acme/flows/ghost/versions'))).toEqual([
      404,
      { error: { message: 'Flow "ghost" not found', type: 'not_found_error', param: 'slug', code: 'flow_not_found' } },
    ]);
  });

  it('refuses with 409 a save based on a version that is no longer the latest (body or If-Match), naming the latest', async () => {
    await h.save(simpleFlow({ slug: 'edited', format: 'raw' }));
    const alice = await h.put('/api/llm/acme/flows/edited', { ...simpleFlow({ name: 'Alice', format: 'raw' }), base_version: 1 });
    expect(alice.status).toBe(200);
    // Bob loaded version 1 too.
    expect(await answer(await h.put('/api/llm/acme/flows/edited', { ...simpleFlow({ name: 'Bob', format: 'raw' }), base_version: 1 }))).toEqual([
      409,
      conflict('edited', 2, 1),
    ]);
    expect(await answer(await send('PUT', '/api/llm/acme/flows/edited', simpleFlow({ name: 'Bob', format: 'raw' }), { 'if-match': '"1"' }))).toEqual([
      409,
      conflict('edited', 2, 1),
    ]);
    expect(await answer(await h.post('/api/llm/acme/flows', { ...simpleFlow({ name: 'Bob', slug: 'edited', format: 'raw' }), base_version: 1 }))).toEqual([
      409,
      conflict('edited', 2, 1),
    ]);
    // A version ahead of the latest is no better.
    expect(await answer(await h.put('/api/llm/acme/flows/edited', { ...simpleFlow({ name: 'Bob', format: 'raw' }), base_version: 7 }))).toEqual([
      409,
      conflict('edited', 2, 7),
    ]);
    // Told even when the stale definition is also invalid: reloading comes first.
    expect(await answer(await h.put('/api/llm/acme/flows/edited', { name: 'Broken', nodes: [], base_version: 1 }))).toEqual([409, conflict('edited', 2, 1)]);
    expect((await (await h.get('/api/llm/acme/flows/edited')).json()).name).toBe('Alice');

    // Based on the latest: accepted, through either channel.
    const viaHeader = await send('PUT', '/api/llm/acme/flows/edited', simpleFlow({ name: 'Bob', format: 'raw' }), { 'if-match': '"2"' });
    expect([viaHeader.status, viaHeader.headers.get('etag')]).toEqual([200, '"3"']);
    const viaPost = await h.post('/api/llm/acme/flows', { ...simpleFlow({ name: 'Bob again', slug: 'edited', format: 'raw' }), base_version: 3 });
    expect(viaPost.status).toBe(200);
    expect((await viaPost.json()).version).toBe(4);
    // Without base_version a save is unconditional (the CLI, automation).
    expect((await h.put('/api/llm/acme/flows/edited', simpleFlow({ name: 'Automation', format: 'raw' }))).status).toBe(200);
  });

  it('lets exactly one of two concurrent saves based on the same version through', async () => {
    await h.save(simpleFlow({ slug: 'raced', format: 'raw' }));
    for (let base = 1; base <= 4; base++) {
      const [a, b] = await Promise.all([
        h.put('/api/llm/acme/flows/raced', { ...simpleFlow({ name: `A${base}`, format: 'raw' }), base_version: base }),
        h.put('/api/llm/acme/flows/raced', { ...simpleFlow({ name: `B${base}`, format: 'raw' }), base_version: base }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const loser = a.status === 409 ? a : b;
      expect(await loser.json()).toEqual(conflict('raced', base + 1, base));
    }
    expect((await (await h.get('/api/llm/acme/flows/raced/versions')).json()).versions.map((v: { version: number }) => v.version)).toEqual([5, 4, 3, 2, 1]);
  });

  it('decides a race in the store itself: a conditional update that only one of two writers wins', async () => {
    const org = await h.stores.orgs.requireOrg('acme');
    await h.save(simpleFlow({ slug: 'store-race', format: 'raw' }));
    const flow = await h.stores.flows.require(org.id, 'store-race');
    const { definition } = await h.stores.admin.current(org.id, 'store-race');
    // Both writers looked the flow up at version 1 (as two instances would), then write.
    const meta = { author: 'token:admin', note: null, baseVersion: 1 };
    const results = await Promise.allSettled([h.stores.flows.addVersion(flow, definition, meta), h.stores.flows.addVersion(flow, definition, meta)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect([rejected.reason.apiCode, rejected.reason.fields]).toEqual(['version_conflict', { latest_version: 2 }]);
    expect((await h.stores.flows.versions(flow.id)).map((v) => v.version)).toEqual([2, 1]);
  });

  it('refuses base_version on a save that would create a flow (the flow is gone) with 409 and no latest version', async () => {
    expect(await answer(await h.post('/api/llm/acme/flows', { ...simpleFlow({ slug: 'never-saved' }), base_version: 3 }))).toEqual([
      409,
      {
        error: {
          message: 'Flow "never-saved" does not exist any more (this save was based on version 3); save without "base_version" to create it again',
          type: 'invalid_request_error',
          param: null,
          code: 'version_conflict',
          latest_version: null,
        },
      },
    ]);
    expect((await h.get('/api/llm/acme/flows/never-saved')).status).toBe(404);
  });

  it('refuses a malformed note, base_version or If-Match with 400 naming it', async () => {
    const flow = simpleFlow({ format: 'raw' });
    expect(await answer(await h.put('/api/llm/acme/flows/edited', { ...flow, note: 'x'.repeat(501) }))).toEqual([
      400,
      badRequest('"note" must be a string of at most 500 characters', 'note'),
    ]);
    expect(await answer(await h.put('/api/llm/acme/flows/edited', { ...flow, note: 42 }))).toEqual([
      400,
      badRequest('"note" must be a string of at most 500 characters', 'note'),
    ]);
    const badBase = badRequest('"base_version" must be a positive integer: the version the edit started from', 'base_version');
    for (const base of [0, '5', 1.5, -1])
      expect(await answer(await h.put('/api/llm/acme/flows/edited', { ...flow, base_version: base }))).toEqual([400, badBase]);
    expect(await answer(await send('PUT', '/api/llm/acme/flows/edited', flow, { 'if-match': '*' }))).toEqual([
      400,
      badRequest('If-Match must name one version of the flow, as "N"', 'If-Match'),
    ]);
    expect(await answer(await send('PUT', '/api/llm/acme/flows/edited', { ...flow, base_version: 4 }, { 'if-match': '"5"' }))).toEqual([
      400,
      badRequest('"base_version" (4) and If-Match (5) name different versions', 'base_version'),
    ]);
    // A note of exactly 500 characters is fine.
    const long = await h.put('/api/llm/acme/flows/edited', { ...flow, note: 'y'.repeat(500) });
    expect([long.status, (await long.json()).note]).toEqual([200, 'y'.repeat(500)]);
  });

  it('restores a version as the newest one, answering like PUT, with a default or given note', async () => {
    await h.save({ ...simpleFlow({ slug: 'restorable', format: 'raw', model: 'reply:first' }), note: 'one' });
    await h.save(simpleFlow({ slug: 'restorable', format: 'raw', model: 'reply:second' }));
    // No body at all: the note and base_version are optional.
    const restored = await fetch(`${h.base}/api/llm/acme/flows/restorable/versions/1/restore`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.manageToken}` },
    });
    expect([restored.status, restored.headers.get('etag')]).toEqual([200, '"3"']);
    const body = await restored.json();
    expect(body).toMatchObject({ slug: 'restorable', version: 3, author: 'token:admin', note: 'Restored version 1' });
    expect(body.definition).toEqual(simpleFlow({ slug: 'restorable', format: 'raw', model: 'reply:first' }));
    expect(await (await h.post('/api/llm/acme/flows/restorable/run', { input: { question: 'q' } }, h.runToken)).text()).toBe('first');

    const withNote = await h.post('/api/llm/acme/flows/restorable/versions/2/restore', { note: 'Back to second', base_version: 3 });
    expect(await withNote.json()).toMatchObject({ version: 4, note: 'Back to second' });
    expect(await answer(await h.post('/api/llm/acme/flows/restorable/versions/1/restore', { base_version: 3 }))).toEqual([409, conflict('restorable', 4, 3)]);
    expect(await answer(await send('POST', '/api/llm/acme/flows/restorable/versions/1/restore', {}, { 'if-match': '"3"' }))).toEqual([
      409,
      conflict('restorable', 4, 3),
    ]);
    expect(await answer(await h.post('/api/llm/acme/flows/restorable/versions/8/restore', {}))).toEqual([
      404,
      { error: { message: 'Flow "restorable" has no version 8', type: 'not_found_error', param: 'version', code: 'version_not_found' } },
    ]);
    expect((await h.post('/api/llm/acme/flows/restorable/versions/1/restore', { note: 'z'.repeat(501) })).status).toBe(400);
  });

  it('re-validates a restored version: one that names a provider since removed is refused with 422 naming the node', async () => {
    const org = await h.stores.orgs.requireOrg('acme');
    await h.stores.orgs.setProvider(org.id, { name: 'temp', kind: 'openai-compatible', baseUrl: h.upstream.url });
    const flow = simpleFlow({ slug: 'uses-temp', format: 'raw' });
    flow.nodes[1].data.provider = 'temp';
    await h.save(flow);
    await h.save(simpleFlow({ slug: 'uses-temp', format: 'raw' }));
    await h.stores.orgs.deleteProvider(org.id, 'temp');
    const response = await h.post('/api/llm/acme/flows/uses-temp/versions/1/restore', {});
    expect(response.status).toBe(422);
    expect((await response.json()).error).toMatchObject({ message: 'Node "answer": unknown provider "temp"', code: 'invalid_flow' });
  });

  it('leaves the author of versions saved without one (before authors were recorded, or by the store directly) null', async () => {
    const org = await h.stores.orgs.requireOrg('acme');
    await h.stores.flows.save(org.id, { ...simpleFlow({ slug: 'legacy', format: 'raw' }) } as never);
    const got = await (await h.get('/api/llm/acme/flows/legacy')).json();
    expect([got.author, got.note]).toEqual([null, null]);
    expect((await (await h.get('/api/llm/acme/flows/legacy/versions')).json()).versions).toEqual([
      { version: 1, created_at: got.created_at, author: null, note: null },
    ]);
  });
});
