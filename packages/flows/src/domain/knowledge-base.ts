/** The presented shapes of knowledge bases and their documents, shared by the service and its dashboard. */

/** A knowledge base as presented. */
export interface KnowledgeBase {
  id: string;
  name: string;
  description: string | null;
  embedding: { provider: string; model: string } | null;
  /** Progress of embedding every chunk again after a change of model; null when there is nothing to do. */
  reembedding: { status: 'running' | 'failed'; done: number; total: number; error: string | null } | null;
  documents: number;
  chunks: number;
  created_at: string;
  updated_at: string;
}

/** A document as presented. */
export interface KnowledgeDocument {
  id: string;
  source: string;
  content_type: string;
  chars: number;
  chunks: number;
  created_at: string;
}
