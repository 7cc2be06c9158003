import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startHarness, simpleFlow, type Harness } from './helpers/harness.ts';

const answer = async (response: Response) => [response.status, response.status === 204 ? null : await response.json()];
const badRequest = (message: string, param: string) => ({ error: { message, type: 'invalid_request_error', param, code: 'invalid_request' } });

describe.each(dialectsUnderTest())("a flow's life: drafts, duplicates, deletion on %s", (dialect) => {
  let h: Harness;
  let otherToken = '';
  beforeAll(async () => {
    h = await startHarness(dialect);
    const org = await h.stores.orgs.requireOrg('acme');
    otherToken = (await h.stores.orgs.createToken(org.id, { scope: 'manage', name: 'admin' })).token;
    await h.save(simpleFlow({ slug: 'drafted', format: 'raw' }));
  });
  afterAll(async () => {
    await h?.close();
  });

  it('documents the routes of issue 22 in /openapi.json with a tag, a summary and the bearer requirement', async () => {
    const spec = await (await fetch(`${h.base}/openapi.json`)).json();
    const routes: Array<[string, string, string]> = [
      ['/api/llm/{org_code}/flows/{slug}/draft', 'put', 'flows'],
      ['/api/llm/{org_code}/flows/{slug}/draft', 'get', 'flows'],
      ['/api/llm/{org_code}/flows/{slug}/draft', 'delete', 'flows'],
      ['/api/llm/{org_code}/flows/{slug}/duplicate', 'post', 'flows'],
      ['/api/llm/{org_code}/templates', 'get', 'flows'],
      ['/api/llm/{org_code}/providers/{name}/models', 'get', 'providers'],
      ['/api/llm/{org_code}/knowledge-bases/{name}', 'patch', 'knowledge bases'],
      ['/api/llm/{org_code}/knowledge-bases/{name}/documents/{document_id}', 'delete', 'knowledge bases'],
      ['/api/llm/{org_code}/knowledge-bases/{name}/documents/{document_id}/chunks', 'get', 'knowledge bases'],
    ];
    for (const [path, method, tag] of routes) {
      const operation = spec.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect([operation.tags, typeof operation.summary, operation.security]).toEqual([[tag], 'string', [{ bearerAuth: [] }]]);
    }
  });

  it('refuses drafts without a token (401) or with a run token (403)', async () => {
    expect((await fetch(`${h.base}/api/llm/acme/flows/drafted/draft`)).status).toBe(401);
    expect((await h.put('/api/llm/acme/flows/drafted/draft', { definition: {} }, h.runToken)).status).toBe(403);
    expect((await h.del('/api/llm/acme/flows/drafted/draft', h.runToken)).status).toBe(403);
  });

  it('refuses a draft that is not {"definition": {...}} with 400, and a draft of an unknown flow with 404', async () => {
    expect(await answer(await h.put('/api/llm/acme/flows/drafted/draft', { definition: [1] }))).toEqual([
      400,
      badRequest('A draft is {"definition": {...}, "base_version"?: N}: "definition" must be a JSON object', 'definition'),
    ]);
    expect(await answer(await h.put('/api/llm/acme/flows/drafted/draft', { definition: {}, base_version: 0 }))).toEqual([
      400,
      badRequest('"base_version" must be a positive integer: the version the draft was edited from', 'base_version'),
    ]);
    let deep: unknown = 'x';
    for (let i = 0; i < 70; i++) deep = { deep };
    expect(await answer(await h.put('/api/llm/acme/flows/drafted/draft', { definition: { name: 'Deep', extra: deep } }))).toEqual([
      400,
      badRequest("The draft's definition nests deeper than 64 levels", 'definition'),
    ]);
    expect(await answer(await h.put('/api/llm/acme/flows/ghost/draft', { definition: {} }))).toEqual([
      404,
      { error: { message: 'Flow "ghost" not found', type: 'not_found_error', param: 'slug', code: 'flow_not_found' } },
    ]);
    expect(await answer(await h.get('/api/llm/acme/flows/drafted/draft'))).toEqual([
      404,
      { error: { message: 'Flow "drafted" has no draft of yours', type: 'not_found_error', param: 'slug', code: 'no_draft' } },
    ]);
  });

  it('keeps an invalid draft (200, never 422) with its problems by node, and answers it back', async () => {
    const broken = simpleFlow({ name: 'Work in progress', format: 'raw' });
    broken.nodes[1].data.provider = 'nowhere';
    broken.nodes[1].data.prompt = '{{input.nope}}';
    broken.edges.push({ from: 'answer', to: 'ghost' });
    const put = await h.put('/api/llm/acme/flows/drafted/draft', { definition: broken, base_version: 1 });
    expect(put.status).toBe(200);
    const saved = await put.json();
    expect(Object.keys(saved).sort()).toEqual(['problems', 'saved_at']);
    expect(saved.saved_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(saved.problems).toEqual([{ node: null, message: 'Edge 2 from "answer" to "ghost": unknown node "ghost"' }]);

    broken.edges.pop();
    const again = await (await h.put('/api/llm/acme/flows/drafted/draft', { definition: broken, base_version: 1 })).json();
    expect(again.problems).toEqual([
      { node: 'answer', message: 'Node "answer": unknown provider "nowhere"' },
      { node: 'answer', message: 'Node "answer": unknown reference {{input.nope}}: the input node has no variable "nope"' },
    ]);
    expect(await answer(await h.get('/api/llm/acme/flows/drafted/draft'))).toEqual([
      200,
      { saved_at: again.saved_at, problems: again.problems, base_version: 1, definition: broken },
    ]);
    // Runs use the saved version, never a draft.
    const run = await h.post('/api/llm/acme/flows/drafted/run', { input: { question: 'still here?' } }, h.runToken);
    expect([run.status, await run.text()]).toEqual([200, 'Echo: still here?']);
  });

  it('keeps one draft per flow and editor: another token has none of its own', async () => {
    expect((await h.get('/api/llm/acme/flows/drafted/draft', otherToken)).status).toBe(404);
    const mine = await h.put('/api/llm/acme/flows/drafted/draft', { definition: { name: 'Other editor' } }, otherToken);
    expect((await mine.json()).problems).toEqual([{ node: null, message: 'Flow "nodes" must be a non-empty array' }]);
    expect((await (await h.get('/api/llm/acme/flows/drafted/draft')).json()).definition.name).toBe('Work in progress');
    expect((await (await h.get('/api/llm/acme/flows/drafted/draft', otherToken)).json()).definition).toEqual({ name: 'Other editor' });
  });

  it("refuses to save an invalid flow while its draft keeps it; a save clears its author's draft only", async () => {
    const broken = (await (await h.get('/api/llm/acme/flows/drafted/draft')).json()).definition;
    const refused = await h.put('/api/llm/acme/flows/drafted', broken);
    expect(refused.status).toBe(422);
    expect((await h.get('/api/llm/acme/flows/drafted/draft')).status).toBe(200);

    const fixed = simpleFlow({ name: 'Work done', format: 'raw' });
    expect((await h.put('/api/llm/acme/flows/drafted', { ...fixed, base_version: 1 })).status).toBe(200);
    expect((await h.get('/api/llm/acme/flows/drafted/draft')).status).toBe(404);
    expect((await h.get('/api/llm/acme/flows/drafted/draft', otherToken)).status).toBe(200);
  });

  it('discards a draft with 204 (also when there is none)', async () => {
    expect(await answer(await h.del('/api/llm/acme/flows/drafted/draft', otherToken))).toEqual([204, null]);
    expect((await h.get('/api/llm/acme/flows/drafted/draft', otherToken)).status).toBe(404);
    expect(await answer(await h.del('/api/llm/acme/flows/drafted/draft', otherToken))).toEqual([204, null]);
    expect((await h.del('/api/llm/acme/flows/ghost/draft')).status).toBe(404);
  });

  it('duplicates a flow as version 1 of a new flow with its own slug; 404 for an unknown flow', async () => {
    expect((await h.post('/api/llm/acme/flows/drafted/duplicate', {}, h.runToken)).status).toBe(403);
    expect((await h.post('/api/llm/acme/flows/ghost/duplicate', { name: 'X' })).status).toBe(404);
    expect(await answer(await h.post('/api/llm/acme/flows/drafted/duplicate', { name: 42 }))).toEqual([
      400,
      { error: expect.objectContaining({ type: 'invalid_request_error', code: 'invalid_request' }) },
    ]);
    const copy = await h.post('/api/llm/acme/flows/drafted/duplicate', { name: 'Second bot' });
    expect(copy.status).toBe(201);
    const body = await copy.json();
    expect(body).toMatchObject({ slug: 'second-bot', version: 1, name: 'Second bot', author: 'token:admin', note: 'Duplicated from "drafted" version 2' });
    const original = (await (await h.get('/api/llm/acme/flows/drafted')).json()).definition;
    expect(body.definition).toEqual({ ...original, name: 'Second bot', slug: 'second-bot' });

    const unnamed = await (await h.post('/api/llm/acme/flows/drafted/duplicate', null)).json();
    expect([unnamed.slug, unnamed.name, unnamed.version]).toEqual(['work-done-copy', 'Work done (copy)', 1]);
    const run = await h.post('/api/llm/acme/flows/second-bot/run', { input: { question: 'copy?' } }, h.runToken);
    expect(await run.text()).toBe('Echo: copy?');
  });

  it('deletes a flow: its runs stay readable, marked with its name; a new flow of that slug is not marked', async () => {
    await h.save(simpleFlow({ slug: 'doomed', name: 'Doomed bot', format: 'raw' }));
    const run = await h.post('/api/llm/acme/flows/doomed/run', { input: { question: 'bye' } }, h.runToken);
    const runId = run.headers.get('x-run-id')!;
    await h.put('/api/llm/acme/flows/doomed/draft', { definition: { name: 'draft' } });
    expect((await h.del('/api/llm/acme/flows/doomed', h.runToken)).status).toBe(403);
    expect(await answer(await h.del('/api/llm/acme/flows/doomed'))).toEqual([200, { deleted: true }]);
    expect((await h.get('/api/llm/acme/flows/doomed')).status).toBe(404);
    expect((await h.get('/api/llm/acme/flows/doomed/draft')).status).toBe(404);

    const record = await (await h.get(`/api/llm/acme/runs/${runId}`)).json();
    expect([record.flow, record.status, record.output, record.deleted_flow]).toEqual(['doomed', 'succeeded', 'Echo: bye', { name: 'Doomed bot' }]);
    const listed = await (await h.get('/api/llm/acme/runs?flow=doomed')).json();
    expect(listed.runs.map((r: { id: string; deleted_flow: unknown }) => [r.id, r.deleted_flow])).toEqual([[runId, { name: 'Doomed bot' }]]);

    await h.save(simpleFlow({ slug: 'doomed', name: 'Reborn', format: 'raw' }));
    const reborn = await h.post('/api/llm/acme/flows/doomed/run', { input: { question: 'hi' } }, h.runToken);
    const fresh = await (await h.get(`/api/llm/acme/runs/${reborn.headers.get('x-run-id')}`)).json();
    expect(fresh.deleted_flow).toBeNull();
    expect((await (await h.get(`/api/llm/acme/runs/${runId}`)).json()).deleted_flow).toEqual({ name: 'Doomed bot' });
  });
});
