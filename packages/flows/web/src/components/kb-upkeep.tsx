// Keeping a knowledge base: its embedding model (chosen at creation, changed later with every chunk embedded
// again, with progress) and what retrieval sees of a document (its chunks, a page at a time).
import { useEffect, useState } from 'react';
import { Button, Dialog, ErrorState, Loading, ProgressBar, counted, form, useResource, type FormLayout } from '@switchboard/web-kit';
import type { KnowledgeBase, KnowledgeDocument, knowledgeApi } from '../api/knowledge-api.ts';

type Knowledge = ReturnType<typeof knowledgeApi>;

/** The values of the embedding fields. */
type EmbeddingValues = { embeddingProvider: string; embeddingModel: string };

/** Keywords only: no embedding model. */
const NONE = '';

/** **Embedding provider** (none: keywords only) and **Embedding model**, as the create and change forms ask for them. */
export function embeddingFields<V extends EmbeddingValues & Record<string, string | boolean>>(providers: readonly string[], values: V): FormLayout<V> {
  return [
    [
      {
        name: 'embeddingProvider' as Extract<keyof V, string>,
        label: 'Embedding provider',
        kind: 'select',
        options: [{ value: NONE, label: 'None: keyword search (BM25)' }, ...providers.map((p) => ({ value: p, label: p }))],
        hint: 'With a model, retrieval also ranks chunks by meaning (an OpenAI or OpenAI-compatible connection).',
      },
      values.embeddingProvider !== NONE
        ? {
            name: 'embeddingModel' as Extract<keyof V, string>,
            label: 'Embedding model',
            placeholder: 'text-embedding-3-small, nomic-embed-text…',
            required: true,
          }
        : null,
    ],
  ];
}

/** The embedding the fields name (null: none), or what is missing. */
export function embeddingOf(values: EmbeddingValues): { provider: string; model: string } | null {
  return values.embeddingProvider === NONE ? null : { provider: values.embeddingProvider, model: values.embeddingModel.trim() };
}

/** **Change embedding**: the form that sets a base's model; every chunk is embedded again. */
export function changeEmbeddingForm(knowledge: Knowledge, kb: KnowledgeBase, providers: readonly string[]) {
  return form({
    title: `Embedding of "${kb.name}"`,
    submitLabel: 'Save',
    initial: { embeddingProvider: kb.embedding?.provider ?? NONE, embeddingModel: kb.embedding?.model ?? '' },
    fields: (values) => embeddingFields(providers, values),
    check: (values) => (values.embeddingProvider !== NONE && !values.embeddingModel.trim() ? 'Name the embedding model.' : undefined),
    submit: (values) => knowledge.setEmbedding(kb.name, embeddingOf(values)),
    done: (saved) => (saved.reembedding ? `Embedding ${counted(saved.reembedding.total, 'chunk')} again with ${saved.embedding?.model}` : 'Embedding saved'),
  });
}

/** The progress of embedding a base again, read every second while it runs; a failure says why, with **Try again**. */
export function ReembeddingProgress({ kb, onPoll, onRetry }: { kb: KnowledgeBase; onPoll: () => void; onRetry: () => void }) {
  const job = kb.reembedding;
  useEffect(() => {
    if (job?.status !== 'running') return;
    const timer = setInterval(onPoll, 1000);
    return () => clearInterval(timer);
  }, [job?.status, onPoll]);
  if (!job) return null;
  if (job.status === 'failed') {
    return (
      <div className="notice" role="alert">
        Embedding the chunks again stopped after {job.done} of {counted(job.total, 'chunk')}: {job.error}
        <Button small onClick={onRetry}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <div className="stack" role="status">
      <span>
        Embedding again with <span className="mono">{kb.embedding?.model}</span>: {job.done} of {counted(job.total, 'chunk')}
      </span>
      <ProgressBar value={job.total === 0 ? 1 : job.done / job.total} label={`Embedding of ${kb.name}`} />
    </div>
  );
}

/** A document's chunks as retrieval sees them, twenty at a time. */
export function ChunksDialog({
  knowledge,
  kb,
  document,
  onClose,
}: {
  knowledge: Knowledge;
  kb: KnowledgeBase;
  document: KnowledgeDocument;
  onClose: () => void;
}) {
  const [offset, setOffset] = useState(0);
  const page = useResource((signal) => knowledge.chunks(kb.name, document.id, offset, signal), [kb.name, document.id, offset]);
  return (
    <Dialog title={`Chunks of ${document.source}`} wide onClose={onClose}>
      {page.error ? <ErrorState error={page.error} onRetry={page.reload} /> : null}
      {!page.data && !page.error ? <Loading /> : null}
      {page.data ? (
        <div className="stack">
          <p className="muted">
            {page.data.total} chunks; each is what a Retrieval node may return{kb.embedding ? ', with its embedding' : ''}.
          </p>
          <ol className="chunk-list" aria-label={`Chunks of ${document.source}`}>
            {page.data.chunks.map((chunk) => (
              <li key={chunk.index} value={chunk.index + 1}>
                <pre className="chunk-text">{chunk.text}</pre>
                {kb.embedding ? <span className="faint small">{chunk.embedded ? 'Embedded' : 'Not embedded yet'}</span> : null}
              </li>
            ))}
          </ol>
          <div className="row between">
            <Button disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - 20))}>
              ← Previous
            </Button>
            <span className="muted">
              {offset + 1}–{offset + page.data.chunks.length} of {page.data.total}
            </span>
            <Button disabled={page.data.next_offset === null} onClick={() => setOffset(page.data?.next_offset ?? offset)}>
              Next →
            </Button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
