import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { bm25, reciprocalRankFusion, tokenize } from '../src/domain/bm25.ts';
import { chunkText } from '../src/domain/chunking.ts';
import { pdfText } from '../src/engine/pdf-text.ts';
import { startAgentHarness, type AgentHarness } from './helpers/agent-harness.ts';
import { buildPdf } from './helpers/pdf-fixture.ts';

const HANDBOOK = join(import.meta.dirname, '..', 'examples', 'handbook');
const files = readdirSync(HANDBOOK)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((name) => ({ name, text: readFileSync(join(HANDBOOK, name), 'utf8') }));

/** Questions and the section (its heading) that answers each; none shares its key words verbatim with the heading alone. */
const QUESTIONS: Array<[string, string]> = [
  ['How do I reset my password?', '## Resetting a password'],
  ['I lost my phone with the authenticator app', '## Two-factor authentication'],
  ['How much does the Pro plan cost per year?', '## Plans and prices'],
  ['Can I get a refund on a monthly plan?', '## Refunds'],
  ['Where can I download an invoice with our VAT number?', '## Invoices and VAT'],
  ['Which credit cards do you accept?', '## Payment methods'],
  ['How long does delivery take to the United States?', '## Delivery times'],
  ['Where is my tracking number?', '## Tracking an order'],
  ['How do I return unused hardware?', '## Returns of hardware'],
  ['My parcel arrived damaged, what now?', '## Damaged parcels'],
  ['How do I export my project as CSV?', '## Exporting data'],
  ['What happens when I go over the API rate limit?', '## API rate limits'],
  ['Does the desktop app work without a connection?', '## Offline mode'],
  ['How do I verify the webhook signature?', '## Integrations'],
  ['How do I close my account?', '## Closing an account'],
];

describe('chunking and ranking', () => {
  it('keeps each handbook section whole, with its title, one chunk per section', () => {
    const chunks = chunkText(files[0].text);
    expect(chunks.map((c) => c.split('\n')[0])).toEqual(['# Accounts and sign-in', '## Two-factor authentication', '## Closing an account', '## Team seats']);
    expect(chunks[0]).toContain('## Resetting a password');
  });

  it('cuts long text into chunks that overlap', () => {
    const sentences = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} talks about topic ${i}.`).join(' ');
    const chunks = chunkText(sentences, { size: 200, overlap: 60 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(260);
    for (let i = 1; i < chunks.length; i++) {
      const tail = chunks[i - 1].slice(-30);
      expect(chunks[i].includes(tail.slice(tail.indexOf(' ') + 1)), `chunk ${i} starts with the end of chunk ${i - 1}`).toBe(true);
    }
    expect(chunks.join(' ')).toContain('Sentence number 39 talks about topic 39.');
  });

  it('ranks the right section first for each of 15 questions (BM25)', () => {
    const chunks = files.flatMap((f) => chunkText(f.text));
    const tokens = chunks.map(tokenize);
    const misses = QUESTIONS.filter(([question, heading]) => !chunks[bm25(question, tokens)[0]?.index ?? -1]?.includes(heading));
    expect(misses).toEqual([]);
  });

  it('fuses rankings by reciprocal rank', () => {
    const fused = reciprocalRankFusion([
      [
        { index: 1, score: 9 },
        { index: 2, score: 5 },
      ],
      [
        { index: 2, score: 0.9 },
        { index: 3, score: 0.8 },
      ],
    ]);
    expect(fused.map((f) => f.index)).toEqual([2, 1, 3]);
    expect(fused[0].score).toBeCloseTo(1 / 62 + 1 / 61, 10);
  });

  it('extracts the text of a PDF', async () => {
    expect(await pdfText(buildPdf(['Warranty: hardware is covered for two years.', 'Batteries for one year.']))).toBe(
      'Warranty: hardware is covered for two years.\nBatteries for one year.',
    );
  });
});

describe.each(dialectsUnderTest())('knowledge bases and retrieval nodes on %s', (dialect) => {
  let h: AgentHarness;
  const retrievalFlow = (slug: string, kb: string, topK = 1) => ({
    name: slug,
    slug,
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'docs', type: 'retrieval', data: { knowledge_base: kb, query: '{{input.question}}', top_k: topK } },
      { id: 'output', type: 'output', data: { format: 'json_template', template: { chunks: '{{docs.chunks}}', text: '{{docs.text}}' } } },
    ],
    edges: [
      { from: 'input', to: 'docs' },
      { from: 'docs', to: 'output' },
    ],
  });
  beforeAll(async () => {
    h = await startAgentHarness(dialect);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('manages knowledge bases: 401, 403 for run tokens, 201, 409, list, get, 404', async () => {
    expect((await h.post('/api/llm/acme/knowledge-bases', { name: 'handbook' }, 'sbf_nope')).status).toBe(401);
    const forbidden = await h.post('/api/llm/acme/knowledge-bases', { name: 'handbook' }, h.runToken);
    expect(forbidden.status).toBe(403);
    const created = await h.post('/api/llm/acme/knowledge-bases', { name: 'handbook', description: 'Support handbook' });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'handbook', description: 'Support handbook', embedding: null, documents: 0, chunks: 0 });
    const again = await h.post('/api/llm/acme/knowledge-bases', { name: 'handbook' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toBe('Knowledge base "handbook" already exists');
    const unknown = await h.post('/api/llm/acme/knowledge-bases', { name: 'vectors', embedding_provider: 'nope', embedding_model: 'm' });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe('Unknown provider connection "nope"');
    expect((await h.get('/api/llm/acme/knowledge-bases/missing')).status).toBe(404);
    const error = (message: string) => ({ error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request' } });
    const invalid = await h.post('/api/llm/acme/knowledge-bases', { description: 'no name' });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual(error('body/name Invalid input: expected string, received undefined'));
    const badName = await h.post('/api/llm/acme/knowledge-bases', { name: 'bad name!' });
    expect(badName.status).toBe(400);
    expect(await badName.json()).toEqual(error('A knowledge base name must be 1-80 letters, digits, ".", "_" or "-", starting with a letter or digit'));
    const noDocs = await h.post('/api/llm/acme/knowledge-bases/handbook/documents', { documents: [{ name: 'x.md' }] });
    expect(noDocs.status).toBe(400);
    expect(await noDocs.json()).toEqual(error('documents[0] needs exactly one of "text" and "content_base64"'));
  });

  it('adds Markdown, text and PDF documents and returns the counts', async () => {
    const response = await h.post('/api/llm/acme/knowledge-bases/handbook/documents', {
      documents: [
        ...files.map((f) => ({ name: f.name, text: f.text })),
        { name: 'warranty.pdf', content_base64: buildPdf(['Warranty: hardware is covered for two years.']).toString('base64') },
        { name: 'notes.txt', text: 'Office hours are 9:00 to 18:00 Paris time, Monday to Friday.' },
      ],
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { knowledge_base: string; documents: number; chunks: number };
    expect(body).toMatchObject({ knowledge_base: 'handbook', documents: 6, chunks: 18 });
    const kb = (await (await h.get('/api/llm/acme/knowledge-bases/handbook')).json()) as {
      documents: number;
      chunks: number;
      document_list: Array<{ source: string; content_type: string }>;
    };
    expect(kb).toMatchObject({ documents: 6, chunks: 18 });
    expect(kb.document_list.map((d) => [d.source, d.content_type])).toEqual([
      ['accounts.md', 'text/markdown'],
      ['billing.md', 'text/markdown'],
      ['product.md', 'text/markdown'],
      ['shipping.md', 'text/markdown'],
      ['warranty.pdf', 'application/pdf'],
      ['notes.txt', 'text/plain'],
    ]);
    const bad = await h.post('/api/llm/acme/knowledge-bases/handbook/documents', {
      documents: [{ name: 'broken.pdf', content_base64: Buffer.from('%PDF-1.4 nonsense').toString('base64') }],
    });
    expect(bad.status).toBe(400);
  });

  it('retrieval nodes return the right chunk first for every question, with source and score', async () => {
    await h.save(retrievalFlow('lookup', 'handbook', 2));
    for (const [question, heading] of [...QUESTIONS, ['How long is the hardware warranty?', 'Warranty: hardware'] as [string, string]]) {
      const response = await h.post('/api/llm/acme/flows/lookup/run', { input: { question } }, h.runToken);
      const body = (await response.json()) as { chunks: Array<{ text: string; source: string; score: number }>; text: string };
      expect(body.chunks[0].text, question).toContain(heading);
      expect(body.chunks[0].score).toBeGreaterThan(body.chunks[1]?.score ?? 0);
      expect(body.text.startsWith(body.chunks[0].text)).toBe(true);
    }
    const one = (await (await h.post('/api/llm/acme/flows/lookup/run', { input: { question: 'How long is the hardware warranty?' } }, h.runToken)).json()) as {
      chunks: Array<{ source: string }>;
    };
    expect(one.chunks[0].source).toBe('warranty.pdf');
  });

  it('embeds chunks and queries with the named model and ranks by keywords and vectors together', async () => {
    const created = await h.post('/api/llm/acme/knowledge-bases', { name: 'vectors', embedding_provider: 'tools', embedding_model: 'hash-embed' });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ embedding: { provider: 'tools', model: 'hash-embed' } });
    const added = await h.post('/api/llm/acme/knowledge-bases/vectors/documents', { documents: files.map((f) => ({ name: f.name, text: f.text })) });
    expect(await added.json()).toMatchObject({ documents: 4, chunks: 16 });
    const embedded = h.model.embeddingCalls.flatMap((c) => c.input);
    expect(embedded).toHaveLength(16);
    expect(h.model.embeddingCalls.every((c) => c.model === 'hash-embed')).toBe(true);
    await h.save(retrievalFlow('vector-lookup', 'vectors', 3));
    for (const [question, heading] of QUESTIONS.slice(0, 6)) {
      const body = (await (await h.post('/api/llm/acme/flows/vector-lookup/run', { input: { question } }, h.runToken)).json()) as {
        chunks: Array<{ text: string; score: number }>;
      };
      expect(body.chunks[0].text, question).toContain(heading);
      // Reciprocal rank fusion scores: at most 1/61 per ranking.
      expect(body.chunks[0].score).toBeLessThanOrEqual(Math.round((2 / 61) * 10000) / 10000);
    }
    expect(h.model.embeddingCalls.at(-1)!.input).toEqual([QUESTIONS[5][0]]);
  });

  it('deletes a knowledge base; a run that names it then fails with 404', async () => {
    await h.post('/api/llm/acme/knowledge-bases', { name: 'temp' });
    await h.post('/api/llm/acme/knowledge-bases/temp/documents', { documents: [{ name: 'a.txt', text: 'temporary words' }] });
    await h.save(retrievalFlow('temp-lookup', 'temp'));
    const deleted = await h.del('/api/llm/acme/knowledge-bases/temp');
    expect(await deleted.json()).toEqual({ deleted: true });
    const run = await h.post('/api/llm/acme/flows/temp-lookup/run', { input: { question: 'words' } }, h.runToken);
    expect(run.status).toBe(404);
    expect(((await run.json()) as { error: { message: string } }).error.message).toBe('Knowledge base "temp" not found');
    const list = (await (await h.get('/api/llm/acme/knowledge-bases')).json()) as { knowledge_bases: Array<{ name: string }> };
    expect(list.knowledge_bases.map((k) => k.name)).toEqual(['handbook', 'vectors']);
  });
});
