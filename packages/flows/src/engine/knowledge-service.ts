import { createHash } from 'node:crypto';
import { AppError } from '@switchboard/core';
import { bm25, cosine, reciprocalRankFusion, tokenize, type Scored } from '../domain/bm25.ts';
import { chunkText } from '../domain/chunking.ts';
import type { KnowledgeBaseRef, KnowledgeStore, StoredChunk } from '../store/knowledge-store.ts';
import { pdfText } from './pdf-text.ts';
import type { ProviderRegistry } from './provider-registry.ts';
import { providerError } from './run-errors.ts';

/** A file to add to a knowledge base. */
export interface DocumentFile {
  /** File name, recorded as each chunk's `source`. */
  name: string;
  data: Uint8Array;
  /** MIME type when known; else guessed from the name and content. */
  contentType?: string;
}

/** One file of an upload as the answer lists it. */
export interface AddedDocument {
  id: string;
  source: string;
  chunks: number;
  /** True when it replaced the document of the same name. */
  replaced: boolean;
  /** True when a document of that name had the same content: nothing changed. */
  unchanged: boolean;
}

/** One retrieved chunk. */
export interface RetrievedChunk {
  text: string;
  source: string;
  score: number;
}

/** The organization a knowledge operation acts for. */
export interface KnowledgeOrg {
  id: number;
  providersVersion: number;
}

function kindOf(file: DocumentFile): 'pdf' | 'markdown' | 'text' {
  const type = (file.contentType ?? '').toLowerCase();
  const name = file.name.toLowerCase();
  if (type.includes('pdf') || name.endsWith('.pdf') || Buffer.from(file.data.subarray(0, 5)).toString('latin1') === '%PDF-') return 'pdf';
  if (type.includes('markdown') || name.endsWith('.md') || name.endsWith('.markdown')) return 'markdown';
  return 'text';
}

/**
 * Adds documents to knowledge bases (text, Markdown, PDF → chunks with
 * overlap, BM25 tokens, embeddings when the knowledge base names a model) and
 * searches them: BM25 alone, or BM25 and cosine similarity fused by
 * reciprocal rank when chunks carry embeddings.
 */
export class KnowledgeService {
  constructor(
    private readonly store: KnowledgeStore,
    private readonly providers: ProviderRegistry,
  ) {}

  /**
   * Extracts, chunks, embeds and stores files; returns the counts the CLI
   * prints. A file named as a document of the base replaces it (`replaced`),
   * unless its content is the same (`unchanged`: nothing is done).
   */
  async addDocuments(
    org: KnowledgeOrg,
    kbName: string,
    files: DocumentFile[],
  ): Promise<{ knowledge_base: string; documents: number; chunks: number; added: AddedDocument[] }> {
    const kb = await this.store.require(org.id, kbName);
    if (files.length === 0) throw new AppError('invalid_request', 'No document given');
    const prepared: Array<{ file: DocumentFile; kind: string; text: string; pieces: string[]; hash: string }> = [];
    const added: AddedDocument[] = [];
    for (const file of files) {
      const hash = createHash('sha256').update(file.data).digest('hex');
      const existing = await this.store.documentBySource(kb.id, file.name);
      if (existing && existing.contentHash === hash) {
        added.push({ id: existing.id, source: existing.source, chunks: existing.chunks, replaced: false, unchanged: true });
        continue;
      }
      const kind = kindOf(file);
      let text: string;
      if (kind === 'pdf') {
        try {
          text = await pdfText(file.data);
        } catch (error) {
          throw new AppError('invalid_request', `"${file.name}" is not a readable PDF: ${(error as Error).message}`);
        }
      } else text = Buffer.from(file.data).toString('utf8');
      const pieces = chunkText(text);
      if (pieces.length === 0) throw new AppError('invalid_request', `"${file.name}" has no text`);
      prepared.push({ file, kind, text, pieces, hash });
    }
    for (const { file, kind, text, pieces, hash } of prepared) {
      const embeddings = kb.embedding ? await this.embedTexts(org, kb.embedding, pieces) : null;
      const contentType = kind === 'pdf' ? 'application/pdf' : kind === 'markdown' ? 'text/markdown' : 'text/plain';
      const doc = await this.store.addDocument(
        kb,
        { source: file.name, contentType, chars: text.length, contentHash: hash },
        pieces.map((piece, i) => ({ text: piece, tokens: tokenize(piece), embedding: embeddings?.[i] ?? null })),
      );
      added.push({ id: doc.id, source: doc.source, chunks: doc.chunks, replaced: doc.replaced, unchanged: false });
    }
    // In the order given; unchanged files were answered first.
    const order = new Map(files.map((f, i) => [f.name, i]));
    added.sort((a, b) => order.get(a.source)! - order.get(b.source)!);
    return { knowledge_base: kb.name, documents: added.length, chunks: added.reduce((sum, d) => sum + d.chunks, 0), added };
  }

  /** The `topK` best chunks of a knowledge base for a query, best first. */
  async search(org: KnowledgeOrg, kbName: string, query: string, topK: number, signal?: AbortSignal): Promise<RetrievedChunk[]> {
    // Runs on every retrieval node: the knowledge base without its document counts.
    const kb = await this.store.findRef(org.id, kbName);
    if (!kb) throw new AppError('not_found', `Knowledge base "${kbName}" not found`);
    const chunks = await this.store.chunks(kb.id);
    if (chunks.length === 0 || query.trim() === '') return [];
    const keyword = bm25(
      query,
      chunks.map((c) => c.tokens),
    );
    let ranking: Scored[] = keyword;
    if (kb.embedding && chunks.some((c) => c.embedding)) {
      const vector = await this.embedQuery(org, kb, query, signal);
      const semantic = chunks
        .map((c, index) => ({ index, score: c.embedding ? cosine(vector, c.embedding) : -1 }))
        .filter((s) => s.score > -1)
        .sort((a, b) => b.score - a.score);
      ranking = reciprocalRankFusion([keyword, semantic]);
    }
    return ranking.slice(0, topK).map(({ index, score }) => present(chunks[index], score));
  }

  /** Vectors of `values` from an embedding model of the organization (a provider error names the provider, never its key). */
  async embedTexts(org: KnowledgeOrg, embedding: { provider: string; model: string }, values: string[]): Promise<number[][]> {
    const providers = await this.providers.forOrg(org.id, org.providersVersion);
    const model = providers.embeddingModel(embedding.provider, embedding.model);
    const controller = new AbortController();
    try {
      const { embedMany } = await import('ai');
      const { embeddings } = await embedMany({ model, values, maxRetries: 0 });
      return embeddings;
    } catch (error) {
      throw providerError(error, controller.signal, [providers.secretOf(embedding.provider)]);
    }
  }

  private async embedQuery(org: KnowledgeOrg, kb: KnowledgeBaseRef, query: string, signal?: AbortSignal): Promise<number[]> {
    const providers = await this.providers.forOrg(org.id, org.providersVersion);
    const model = providers.embeddingModel(kb.embedding!.provider, kb.embedding!.model);
    const abort = signal ?? new AbortController().signal;
    try {
      const { embed } = await import('ai');
      return (await embed({ model, value: query, maxRetries: 0, abortSignal: signal })).embedding;
    } catch (error) {
      throw providerError(error, abort, [providers.secretOf(kb.embedding!.provider)]);
    }
  }
}

function present(chunk: StoredChunk, score: number): RetrievedChunk {
  return { text: chunk.text, source: chunk.source, score: Math.round(score * 10000) / 10000 };
}
