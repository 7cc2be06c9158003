import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startAgentHarness, type AgentHarness } from './helpers/agent-harness.ts';

const answer = async (response: Response) => [response.status, response.status === 204 ? null : await response.json()];
const badRequest = (message: string) => ({ error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request' } });
type Kb = {
  embedding: unknown;
  reembedding: { status: string; done: number; total: number; error: string | null } | null;
  documents: number;
  chunks: number;
  document_list: Array<{ id: string; source: string }>;
};

describe.each(dialectsUnderTest())('knowledge bases you can maintain on %s', (dialect) => {
  let h: AgentHarness;
  const upload = (kb: string, documents: Array<{ name: string; text: string }>) => h.post(`/api/llm/acme/knowledge-bases/${kb}/documents`, { documents });
  const getKb = async (name: string) => (await (await h.get(`/api/llm/acme/knowledge-bases/${name}`)).json()) as Kb;
  const query = async (kb: string, text: string) =>
    (await (await h.post(`/api/llm/acme/knowledge-bases/${kb}/query`, { query: text })).json()).results as Array<{ text: string }>;
  /** Waits until the base's embedding job has ended (or failed). */
  const settled = async (name: string) => {
    for (let i = 0; i < 200; i++) {
      const kb = await getKb(name);
      if (kb.reembedding?.status !== 'running') return kb;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the embedding job did not end');
  };
  beforeAll(async () => {
    h = await startAgentHarness(dialect);
    await h.post('/api/llm/acme/knowledge-bases', { name: 'docs' });
    await h.put('/api/llm/acme/providers/claude', { kind: 'anthropic', api_key: 'sk-ant-test' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses the upkeep routes without a token (401) or with a run token (403)', async () => {
    expect((await fetch(`${h.base}/api/llm/acme/knowledge-bases/docs/documents/x/chunks`)).status).toBe(401);
    expect((await h.del('/api/llm/acme/knowledge-bases/docs/documents/x', h.runToken)).status).toBe(403);
    const patch = await fetch(`${h.base}/api/llm/acme/knowledge-bases/docs`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${h.runToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(patch.status).toBe(403);
  });

  it('replaces a document uploaded again under its name, and changes nothing when its content is the same', async () => {
    const first = await (
      await upload('docs', [
        { name: 'refunds.md', text: 'Refunds take 14 days.' },
        { name: 'shipping.md', text: 'Parcels ship on weekdays.' },
      ])
    ).json();
    expect(first.added.map((d: Record<string, unknown>) => [d.source, d.replaced, d.unchanged])).toEqual([
      ['refunds.md', false, false],
      ['shipping.md', false, false],
    ]);
    const same = await upload('docs', [{ name: 'refunds.md', text: 'Refunds take 14 days.' }]);
    expect(same.status).toBe(201);
    expect(await same.json()).toEqual({
      knowledge_base: 'docs',
      documents: 1,
      chunks: 1,
      added: [{ id: first.added[0].id, source: 'refunds.md', chunks: 1, replaced: false, unchanged: true }],
    });

    const changed = await (await upload('docs', [{ name: 'refunds.md', text: 'Refunds now take 30 days.' }])).json();
    expect(changed.added).toEqual([{ id: expect.any(String), source: 'refunds.md', chunks: 1, replaced: true, unchanged: false }]);
    expect(changed.added[0].id).not.toBe(first.added[0].id);
    const kb = await getKb('docs');
    expect([kb.documents, kb.chunks, kb.document_list.map((d) => d.source).sort()]).toEqual([2, 2, ['refunds.md', 'shipping.md']]);
    const found = (await query('docs', 'refunds days')).map((r) => r.text);
    expect(found).toContain('Refunds now take 30 days.');
    expect(found).not.toContain('Refunds take 14 days.');
  });

  it("pages a document's chunks as retrieval sees them; 404 for a document the base does not have", async () => {
    const long = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} says something about topic ${i} at some length so that chunks fill up.`).join('\n\n');
    const { added } = await (await upload('docs', [{ name: 'long.txt', text: long }])).json();
    const id = added[0].id;
    const total = added[0].chunks as number;
    expect(total).toBeGreaterThan(1);
    const page = await h.get(`/api/llm/acme/knowledge-bases/docs/documents/${id}/chunks?limit=1`);
    expect(page.status).toBe(200);
    const body = await page.json();
    expect(body).toEqual({
      document: { id, source: 'long.txt', content_type: 'text/plain', chars: long.length, chunks: total, created_at: expect.any(String) },
      chunks: [{ index: 0, text: expect.stringMatching(/^Paragraph 0 says/), embedded: false }],
      total,
      next_offset: 1,
    });
    const last = await (await h.get(`/api/llm/acme/knowledge-bases/docs/documents/${id}/chunks?offset=${total - 1}`)).json();
    expect([last.chunks.map((c: { index: number }) => c.index), last.next_offset]).toEqual([[total - 1], null]);
    expect((await h.get(`/api/llm/acme/knowledge-bases/docs/documents/${id}/chunks?limit=0`)).status).toBe(400);
    expect(await answer(await h.get('/api/llm/acme/knowledge-bases/docs/documents/doc_nope/chunks'))).toEqual([
      404,
      { error: { message: 'Knowledge base "docs" has no document "doc_nope"', type: 'not_found_error', param: 'document_id', code: 'document_not_found' } },
    ]);
  });

  it('deletes one document with its chunks (204), then 404 for it', async () => {
    const kb = await getKb('docs');
    const shipping = kb.document_list.find((d) => d.source === 'shipping.md')!;
    expect(await answer(await h.del(`/api/llm/acme/knowledge-bases/docs/documents/${shipping.id}`))).toEqual([204, null]);
    const after = await getKb('docs');
    expect(after.document_list.map((d) => d.source).sort()).toEqual(['long.txt', 'refunds.md']);
    expect((await query('docs', 'parcels weekdays')).map((r) => r.text)).not.toContain('Parcels ship on weekdays.');
    expect((await h.del(`/api/llm/acme/knowledge-bases/docs/documents/${shipping.id}`)).status).toBe(404);
  });

  it('embeds every chunk again when the embedding model changes, with progress, and refuses a provider without embeddings', async () => {
    const send = (body: unknown) =>
      fetch(`${h.base}/api/llm/acme/knowledge-bases/vectors`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${h.manageToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await h.post('/api/llm/acme/knowledge-bases', { name: 'vectors', embedding_provider: 'tools', embedding_model: 'embed-a' })).status).toBe(201);
    const texts = Array.from({ length: 70 }, (_, i) => ({ name: `note-${i}.txt`, text: `Note ${i} about colour ${i % 7}.` }));
    await upload('vectors', texts);
    expect(h.model.embeddingCalls.filter((c) => c.model === 'embed-a').flatMap((c) => c.input)).toHaveLength(70);

    expect(await answer(await send({ embedding_provider: 'claude', embedding_model: 'x' }))).toEqual([
      400,
      badRequest('Provider connection "claude" (anthropic) offers no embedding models: choose an OpenAI or OpenAI-compatible connection'),
    ]);
    expect(await answer(await send({ embedding_provider: 'tools' }))).toEqual([
      400,
      badRequest('An embedding needs both "embedding_provider" and "embedding_model" (or both null for none)'),
    ]);
    expect(await answer(await send({ embedding_provider: 'ghost', embedding_model: 'x' }))).toEqual([400, badRequest('Unknown provider connection "ghost"')]);

    const changed = await send({ embedding_provider: 'tools', embedding_model: 'embed-b' });
    expect(changed.status).toBe(200);
    const started = (await changed.json()) as Kb;
    expect(started.embedding).toEqual({ provider: 'tools', model: 'embed-b' });
    expect(started.reembedding === null || started.reembedding.total === 70).toBe(true);
    const done = await settled('vectors');
    expect(done.reembedding).toBeNull();
    const again = h.model.embeddingCalls.filter((c) => c.model === 'embed-b');
    expect(again.flatMap((c) => c.input).sort()).toEqual(texts.map((t) => t.text).sort());
    expect(again.map((c) => c.input.length)).toEqual([64, 6]);
    const doc = done.document_list[0];
    const chunks = await (await h.get(`/api/llm/acme/knowledge-bases/vectors/documents/${doc.id}/chunks`)).json();
    expect(chunks.chunks.every((c: { embedded: boolean }) => c.embedded)).toBe(true);
    expect((await query('vectors', 'note about colour 3'))[0].text).toMatch(/colour 3\.$/);

    const off = (await (await send({ embedding_provider: null, embedding_model: null })).json()) as Kb;
    expect([off.embedding, off.reembedding]).toEqual([null, null]);
    expect((await (await h.get(`/api/llm/acme/knowledge-bases/vectors/documents/${doc.id}/chunks`)).json()).chunks[0].embedded).toBe(false);
  });

  it('says a re-embedding failed with the provider message, and the same model again retries it', async () => {
    const send = (body: unknown) =>
      fetch(`${h.base}/api/llm/acme/knowledge-bases/vectors`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${h.manageToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // The other fake upstream has no /embeddings: the provider answers 404.
    expect((await send({ embedding_provider: 'local', embedding_model: 'embed-c' })).status).toBe(200);
    const failed = await settled('vectors');
    expect(failed.reembedding).toMatchObject({ status: 'failed', done: 0, total: 70, error: expect.stringMatching(/not found/i) });
    expect(failed.reembedding!.error).not.toContain('sk-upstream-secret-123456');
    await h.put('/api/llm/acme/providers/local', { kind: 'openai-compatible', base_url: h.model.url });
    expect((await send({ embedding_provider: 'local', embedding_model: 'embed-c' })).status).toBe(200);
    expect((await settled('vectors')).reembedding).toBeNull();
    expect(h.model.embeddingCalls.filter((c) => c.model === 'embed-c').flatMap((c) => c.input)).toHaveLength(70);
  });

  it('lets another instance take over a job whose heartbeat stopped; the old job then writes nothing', async () => {
    const kb = await h.stores.knowledgeBases.require(h.orgId, 'vectors');
    const job = (await h.stores.embeddingJobs.change(kb.id, { provider: 'tools', model: 'embed-d' }))!;
    expect(job.kbName).toBe('vectors');
    const [taken] = await h.stores.embeddingJobs.claimStale(new Date(Date.now() + 60_000).toISOString());
    expect(taken).toMatchObject({ kbId: kb.id, embedding: { provider: 'tools', model: 'embed-d' } });
    expect(taken.job).not.toBe(job.job);
    const [chunk] = await h.stores.embeddingJobs.pending(kb.id, 1);
    expect(await h.stores.embeddingJobs.write(job, [{ id: chunk.id, embedding: [1] }])).toBe(false);
    expect(await h.stores.embeddingJobs.write(taken, [{ id: chunk.id, embedding: [1] }])).toBe(true);
    expect((await getKb('vectors')).reembedding).toMatchObject({ status: 'running', done: 1, total: 70 });
    await h.stores.embeddingJobs.end(taken, null);
    expect((await getKb('vectors')).reembedding).toBeNull();
  });
});
