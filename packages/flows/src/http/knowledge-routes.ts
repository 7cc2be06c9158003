import { AppError, type App } from '@switchboard/core';
import { z } from 'zod';
import type { DocumentFile, KnowledgeService } from '../engine/knowledge-service.ts';
import type { ProviderRegistry } from '../engine/provider-registry.ts';
import type { FlowStore } from '../store/flow-store.ts';
import type { KnowledgeStore } from '../store/knowledge-store.ts';
import type { MemoryStore } from '../store/memory-store.ts';
import { presentRetrieved } from './presenters.ts';
import type { EmbeddingJobStore } from '../store/embedding-job-store.ts';
import type { Reembedder } from '../worker/reembedding.ts';
import { bearer, kbQueryBody, orgParams } from './schema.ts';

const DEFAULT_TOP_K = 5;

const kbParams = z.object({ org_code: z.string(), name: z.string() });
const sessionParams = z.object({ org_code: z.string(), slug: z.string(), session_id: z.string() });
const kbBody = z.object({
  name: z.string().min(1).max(80),
  description: z.string().max(2000).optional(),
  embedding_provider: z.string().min(1).optional(),
  embedding_model: z.string().min(1).optional(),
});
const documentsBody = z.object({
  documents: z
    .array(
      z.object({
        name: z.string().min(1).max(300).describe('file name, recorded as the source of its chunks'),
        text: z.string().optional().describe('text or Markdown content'),
        content_base64: z.string().optional().describe('file content (e.g. a PDF), base64'),
        content_type: z.string().optional().describe('text/plain, text/markdown or application/pdf (else guessed from the name)'),
      }),
    )
    .min(1)
    .max(100),
});

const kbPatchBody = z.object({
  description: z.string().max(2000).nullable().optional(),
  embedding_provider: z
    .string()
    .min(1)
    .nullable()
    .optional()
    .describe('a provider connection of the organization (openai or openai-compatible); null: no embeddings'),
  embedding_model: z.string().min(1).max(200).nullable().optional(),
});
const documentParams = z.object({ org_code: z.string(), name: z.string(), document_id: z.string() });
const chunksQuery = z.object({
  offset: z.coerce.number().int().min(0).optional().describe('chunks to skip (default 0)'),
  limit: z.coerce.number().int().min(1).max(200).optional().describe('chunks per page (default 50)'),
});

/** 400 unless `name` is a connection of the organization whose kind has embedding models. */
async function requireEmbeddingProvider(providers: ProviderRegistry, orgId: number, name: string): Promise<void> {
  const connection = await providers.connection(orgId, name);
  if (!connection) throw new AppError('invalid_request', `Unknown provider connection "${name}"`);
  if (connection.kind === 'anthropic')
    throw new AppError(
      'invalid_request',
      `Provider connection "${name}" (anthropic) offers no embedding models: choose an OpenAI or OpenAI-compatible connection`,
    );
}

/** Dependencies of the knowledge-base and memory routes. */
export interface KnowledgeDeps {
  knowledge: KnowledgeService;
  knowledgeBases: KnowledgeStore;
  memory: MemoryStore;
  flows: FlowStore;
  providers: ProviderRegistry;
  /** Re-embedding after a change of model. */
  jobs: EmbeddingJobStore;
  reembedder: Reembedder;
}

/** Knowledge bases (`/knowledge-bases`) and conversation memory (`/flows/{slug}/sessions/{id}`), manage scope. */
export function registerKnowledgeRoutes(app: App, deps: KnowledgeDeps): void {
  const tags = ['knowledge bases'];
  const scope = { scope: 'manage' as const };

  app.get(
    '/api/llm/:org_code/knowledge-bases',
    { config: scope, schema: { tags, summary: 'List knowledge bases', params: orgParams, security: bearer } },
    async (request) => {
      return { knowledge_bases: await deps.knowledgeBases.list(request.principal!.orgId) };
    },
  );

  app.post(
    '/api/llm/:org_code/knowledge-bases',
    { config: scope, schema: { tags, summary: 'Create a knowledge base', params: orgParams, body: kbBody, security: bearer } },
    async (request, reply) => {
      const principal = request.principal!;
      const body = request.body;
      if (body.embedding_provider) await requireEmbeddingProvider(deps.providers, principal.orgId, body.embedding_provider);
      const kb = await deps.knowledgeBases.create(principal.orgId, {
        name: body.name,
        description: body.description,
        embeddingProvider: body.embedding_provider,
        embeddingModel: body.embedding_model,
      });
      reply.status(201);
      return kb;
    },
  );

  app.get(
    '/api/llm/:org_code/knowledge-bases/:name',
    { config: scope, schema: { tags, summary: 'A knowledge base with its documents', params: kbParams, security: bearer } },
    async (request) => {
      const kb = await deps.knowledgeBases.require(request.principal!.orgId, request.params.name);
      return { ...kb, document_list: await deps.knowledgeBases.documents(kb.id) };
    },
  );

  app.delete(
    '/api/llm/:org_code/knowledge-bases/:name',
    { config: scope, schema: { tags, summary: 'Delete a knowledge base and its documents', params: kbParams, security: bearer } },
    async (request) => {
      await deps.knowledgeBases.delete(request.principal!.orgId, request.params.name);
      return { deleted: true };
    },
  );

  app.post(
    '/api/llm/:org_code/knowledge-bases/:name/documents',
    {
      config: scope,
      schema: {
        tags,
        summary: 'Add documents (text, Markdown, PDF): chunked, indexed, embedded when the base has a model',
        params: kbParams,
        body: documentsBody,
        security: bearer,
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const files: DocumentFile[] = request.body.documents.map((doc, index) => {
        if ((doc.text === undefined) === (doc.content_base64 === undefined)) {
          throw new AppError('invalid_request', `documents[${index}] needs exactly one of "text" and "content_base64"`);
        }
        const data = doc.text !== undefined ? Buffer.from(doc.text, 'utf8') : Buffer.from(doc.content_base64!, 'base64');
        return { name: doc.name, data, contentType: doc.content_type };
      });
      const result = await deps.knowledge.addDocuments({ id: principal.orgId, providersVersion: principal.providersVersion }, request.params.name, files);
      reply.status(201);
      return result;
    },
  );

  app.patch(
    '/api/llm/:org_code/knowledge-bases/:name',
    {
      config: scope,
      schema: {
        tags,
        summary: "Change a knowledge base's description or embedding model (every chunk is embedded again, with progress)",
        description:
          'Both "embedding_provider" and "embedding_model", or both null (keyword search only). A new model drops every vector and embeds the chunks again in the background: ' +
          '"reembedding": {"status": "running"|"failed", "done", "total", "error"} says how far it got (null once done); retrieval ranks by keywords and the vectors already made meanwhile. The same model again retries a failed job.',
        params: kbParams,
        body: kbPatchBody,
        security: bearer,
      },
    },
    async (request) => {
      const principal = request.principal!;
      const body = request.body;
      const kb = await deps.knowledgeBases.require(principal.orgId, request.params.name);
      if (body.description !== undefined) await deps.knowledgeBases.describe(kb.id, body.description);
      if (body.embedding_provider !== undefined || body.embedding_model !== undefined) {
        if (((body.embedding_provider ?? null) === null) !== ((body.embedding_model ?? null) === null)) {
          throw new AppError('invalid_request', 'An embedding needs both "embedding_provider" and "embedding_model" (or both null for none)');
        }
        const next = body.embedding_provider && body.embedding_model ? { provider: body.embedding_provider, model: body.embedding_model } : null;
        if (next) await requireEmbeddingProvider(deps.providers, principal.orgId, next.provider);
        const same = next?.provider === kb.embedding?.provider && next?.model === kb.embedding?.model;
        if (!same || kb.reembedding?.status === 'failed') {
          const job = await deps.jobs.change(kb.id, next);
          if (job) deps.reembedder.start(job);
        }
      }
      return deps.knowledgeBases.require(principal.orgId, kb.name);
    },
  );

  app.delete(
    '/api/llm/:org_code/knowledge-bases/:name/documents/:document_id',
    { config: scope, schema: { tags, summary: 'Delete one document and its chunks', params: documentParams, security: bearer } },
    async (request, reply) => {
      const kb = await deps.knowledgeBases.require(request.principal!.orgId, request.params.name);
      await deps.knowledgeBases.deleteDocument(kb, request.params.document_id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/llm/:org_code/knowledge-bases/:name/documents/:document_id/chunks',
    {
      config: scope,
      schema: {
        tags,
        summary: "A document's chunks in order, as retrieval sees them, a page at a time",
        params: documentParams,
        querystring: chunksQuery,
        security: bearer,
      },
    },
    async (request) => {
      const kb = await deps.knowledgeBases.require(request.principal!.orgId, request.params.name);
      const offset = request.query.offset ?? 0;
      const { document, chunks } = await deps.knowledgeBases.documentChunks(kb, request.params.document_id, { offset, limit: request.query.limit ?? 50 });
      const next = offset + chunks.length;
      return { document, chunks, total: document.chunks, next_offset: next < document.chunks ? next : null };
    },
  );

  app.post(
    '/api/llm/:org_code/knowledge-bases/:name/query',
    {
      config: scope,
      schema: {
        tags,
        summary: 'Try a query: the top chunks as a retrieval node finds them, with source and score',
        params: kbParams,
        body: kbQueryBody,
        security: bearer,
      },
    },
    // A route declaration: its schema and handler are shaped like every route's (cf. manage-routes' models).
    async (request) => {
      const principal = request.principal!;
      // The retrieval node's own search: BM25, fused with embeddings when the base has a model.
      const results = await deps.knowledge.search(
        { id: principal.orgId, providersVersion: principal.providersVersion },
        request.params.name,
        request.body.query,
        request.body.top_k ?? DEFAULT_TOP_K,
      );
      return { results: results.map(presentRetrieved) };
    },
  );

  // Route declarations: read and forget a session share their path and options' shape, not their work.
  const memoryTags = ['memory'];
  app.get(
    '/api/llm/:org_code/flows/:slug/sessions/:session_id',
    { config: scope, schema: { tags: memoryTags, summary: "A session's remembered conversation", params: sessionParams, security: bearer } },
    async (request) => {
      const principal = request.principal!;
      const flow = await deps.flows.require(principal.orgId, request.params.slug);
      const messages = await deps.memory.read(principal.orgId, flow.slug, request.params.session_id);
      return { flow: flow.slug, session_id: request.params.session_id, messages };
    },
  );
  app.delete(
    '/api/llm/:org_code/flows/:slug/sessions/:session_id',
    { config: scope, schema: { tags: memoryTags, summary: "Forget a session's conversation", params: sessionParams, security: bearer } },
    async (request) => {
      const principal = request.principal!;
      const flow = await deps.flows.require(principal.orgId, request.params.slug);
      return { deleted: await deps.memory.clear(principal.orgId, flow.slug, request.params.session_id) };
    },
  );
}
