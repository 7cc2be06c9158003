import { api, sendJsonWithProgress } from '@switchboard/web-kit';

// The presented shapes are the service's own (a pure module), so the two cannot drift.
export type { KnowledgeBase, KnowledgeDocument } from '../../../src/domain/knowledge-base.ts';
import type { KnowledgeBase, KnowledgeDocument } from '../../../src/domain/knowledge-base.ts';

/** One result of a query: a chunk, its document and its score. */
export interface QueryResult {
  text: string;
  source: string;
  score: number;
}

/** The answer of an upload: the documents added with their chunk counts. */
export interface UploadAnswer {
  knowledge_base: string;
  documents: number;
  chunks: number;
  /** `replaced`: it took the place of the document of the same name; `unchanged`: that document had the same content. */
  added: Array<{ id: string; source: string; chunks: number; replaced?: boolean; unchanged?: boolean }>;
}

/** One file as the documents API takes it: text as it is, anything else (a PDF) as base64. */
export type DocumentBody = { name: string; content_type?: string; text: string } | { name: string; content_type?: string; content_base64: string };

/** Knowledge bases of the organization whose API is at `base`. */
export function knowledgeApi(base: string) {
  const kb = (name: string) => `${base}/knowledge-bases/${encodeURIComponent(name)}`;
  return {
    list: (signal?: AbortSignal) => api<{ knowledge_bases: KnowledgeBase[] }>(`${base}/knowledge-bases`, { signal }),
    get: (name: string, signal?: AbortSignal) => api<KnowledgeBase & { document_list: KnowledgeDocument[] }>(kb(name), { signal }),
    create: (body: { name: string; description?: string; embedding_provider?: string; embedding_model?: string }) =>
      api<KnowledgeBase>(`${base}/knowledge-bases`, { method: 'POST', body }),
    /** Changes the embedding model (null and null: keywords only); every chunk is embedded again in the background. */
    setEmbedding: (name: string, embedding: { provider: string; model: string } | null) =>
      api<KnowledgeBase>(kb(name), { method: 'PATCH', body: { embedding_provider: embedding?.provider ?? null, embedding_model: embedding?.model ?? null } }),
    deleteDocument: (name: string, id: string) => api<void>(`${kb(name)}/documents/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    /** A page of a document's chunks, as retrieval sees them. */
    chunks: (name: string, id: string, offset: number, signal?: AbortSignal) =>
      api<{ document: KnowledgeDocument; chunks: Array<{ index: number; text: string; embedded: boolean }>; total: number; next_offset: number | null }>(
        `${kb(name)}/documents/${encodeURIComponent(id)}/chunks?offset=${offset}&limit=20`,
        { signal },
      ),
    remove: (name: string) => api<{ deleted: true }>(kb(name), { method: 'DELETE' }),
    query: (name: string, query: string, topK: number) =>
      api<{ results: QueryResult[] }>(`${kb(name)}/query`, { method: 'POST', body: { query, top_k: topK } }),
    /** Uploads one file with its own request, reporting the share sent. */
    upload: (name: string, document: DocumentBody, onProgress: (sent: number) => void, signal?: AbortSignal) =>
      sendJsonWithProgress<UploadAnswer>(`${kb(name)}/documents`, { documents: [document] }, { onProgress, signal }),
  };
}

/** File types the documents API reads. */
export const ACCEPTED_FILES = '.txt,.text,.md,.markdown,.pdf,text/plain,text/markdown,application/pdf';

/** How a file is sent: PDF (by type or name) as base64, everything else as text. */
export async function documentBodyOf(file: File): Promise<DocumentBody> {
  const isPdf = file.type === 'application/pdf' || /\.pdf$/i.test(file.name);
  const contentType = isPdf ? 'application/pdf' : /\.(md|markdown)$/i.test(file.name) ? 'text/markdown' : 'text/plain';
  if (!isPdf) return { name: file.name, content_type: contentType, text: await file.text() };
  return { name: file.name, content_type: contentType, content_base64: base64Of(new Uint8Array(await file.arrayBuffer())) };
}

/** Base64 of bytes, in slices so that a large file does not overflow the argument list of fromCharCode. */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  const slice = 0x8000;
  for (let i = 0; i < bytes.length; i += slice) binary += String.fromCharCode(...bytes.subarray(i, i + slice));
  return btoa(binary);
}
