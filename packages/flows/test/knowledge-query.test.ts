import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startAgentHarness, type AgentHarness } from './helpers/agent-harness.ts';

const HANDBOOK = join(import.meta.dirname, '..', 'examples', 'handbook');
const files = readdirSync(HANDBOOK)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((name) => ({ name, text: readFileSync(join(HANDBOOK, name), 'utf8') }));

const retrievalFlow = (slug: string, kb: string, topK: number) => ({
  name: slug,
  slug,
  nodes: [
    { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
    { id: 'docs', type: 'retrieval', data: { knowledge_base: kb, query: '{{input.question}}', top_k: topK } },
    { id: 'output', type: 'output', data: { format: 'json_template', template: { chunks: '{{docs.chunks}}' } } },
  ],
  edges: [
    { from: 'input', to: 'docs' },
    { from: 'docs', to: 'output' },
  ],
});

const QUESTIONS = [
  'How do I reset my password?',
  'Can I get a refund on a monthly plan?',
  'Where is my tracking number?',
  'How do I export my project as CSV?',
];

describe.each(dialectsUnderTest())('POST /knowledge-bases/{name}/query on %s', (dialect) => {
  let h: AgentHarness;
  const query = async (kb: string, body: unknown, token?: string) => {
    const response = await h.post(`/api/llm/acme/knowledge-bases/${kb}/query`, body, token);
    return [response.status, await response.json()];
  };

  beforeAll(async () => {
    h = await startAgentHarness(dialect);
    await h.post('/api/llm/acme/knowledge-bases', { name: 'handbook' });
    await h.post('/api/llm/acme/knowledge-bases/handbook/documents', { documents: files.map((f) => ({ name: f.name, text: f.text })) });
    await h.post('/api/llm/acme/knowledge-bases', { name: 'vectors', embedding_provider: 'tools', embedding_model: 'hash-embed' });
    await h.post('/api/llm/acme/knowledge-bases/vectors/documents', { documents: files.map((f) => ({ name: f.name, text: f.text })) });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('needs a manage token', async () => {
    expect((await query('handbook', { query: 'refund' }, 'sbf_nope'))[0]).toBe(401);
    expect((await query('handbook', { query: 'refund' }, h.runToken))[0]).toBe(403);
  });

  it('refuses a missing query or a top_k outside 1..20 with 400', async () => {
    const error = (message: string) => ({ error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request' } });
    expect(await query('handbook', {})).toEqual([400, error('body/query Invalid input: expected string, received undefined')]);
    expect(await query('handbook', { query: '' })).toEqual([400, error('body/query Too small: expected string to have >=1 characters')]);
    expect(await query('handbook', { query: 'refund', top_k: 21 })).toEqual([400, error('body/top_k Too big: expected number to be <=20')]);
    expect(await query('handbook', { query: 'refund', top_k: 0 })).toEqual([400, error('body/top_k Too small: expected number to be >=1')]);
  });

  it('answers 404 for a knowledge base the organization does not have', async () => {
    expect(await query('missing', { query: 'refund' })).toEqual([
      404,
      { error: { message: 'Knowledge base "missing" not found', type: 'not_found_error', param: null, code: 'not_found' } },
    ]);
  });

  it('answers the top 5 results by default, best first, each with text, source and score', async () => {
    const [status, body] = await query('handbook', { query: 'Can I get a refund on a monthly plan?' });
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['results']);
    expect(body.results).toHaveLength(5);
    for (const result of body.results) expect(Object.keys(result)).toEqual(['text', 'source', 'score']);
    expect(body.results[0]).toMatchObject({ source: 'billing.md' });
    expect(body.results[0].text).toContain('## Refunds');
    const scores = body.results.map((r: { score: number }) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect((await query('handbook', { query: 'refund', top_k: 2 }))[1].results).toHaveLength(2);
  });

  it('finds exactly what a retrieval node finds, with BM25 and with embeddings', async () => {
    await h.save(retrievalFlow('bm25-lookup', 'handbook', 3));
    await h.save(retrievalFlow('vector-lookup', 'vectors', 3));
    for (const [kb, slug] of [
      ['handbook', 'bm25-lookup'],
      ['vectors', 'vector-lookup'],
    ]) {
      for (const question of QUESTIONS) {
        const run = await (await h.post(`/api/llm/acme/flows/${slug}/run`, { input: { question } }, h.runToken)).json();
        expect(await query(kb, { query: question, top_k: 3 }), `${kb}: ${question}`).toEqual([200, { results: run.chunks }]);
      }
    }
    // The vector base embedded the query with its model.
    expect(h.model.embeddingCalls.at(-1)!.input).toEqual([QUESTIONS.at(-1)]);
  });

  it("lists a knowledge base's documents with their chunk counts", async () => {
    const kb = await (await h.get('/api/llm/acme/knowledge-bases/handbook')).json();
    expect(kb.document_list.map((d: { source: string; chunks: number }) => [d.source, d.chunks])).toEqual(files.map((f) => [f.name, 4]));
    expect(kb.chunks).toBe(16);
  });
});
