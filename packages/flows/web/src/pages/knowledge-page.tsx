import { useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  ApiError,
  Button,
  EmptyState,
  ErrorState,
  FormError,
  Loading,
  PageHeader,
  ResourceList,
  SelectField,
  TextField,
  FormDialog,
  count,
  counted,
  form,
  useConfirm,
  useResource,
  useTitle,
} from '@switchboard/web-kit';
import { useOrg } from '../api/use-org.ts';
import { knowledgeApi, type KnowledgeBase, type QueryResult } from '../api/knowledge-api.ts';
import { DropZone, UploadList, useUploads } from '../components/document-upload.tsx';
import { ChunksDialog, ReembeddingProgress, changeEmbeddingForm, embeddingFields, embeddingOf } from '../components/kb-upkeep.tsx';
import '../components/dashboard.css';

type Knowledge = ReturnType<typeof knowledgeApi>;

/**
 * **Knowledge**: the organization's knowledge bases; the one chosen
 * (`?kb=NAME`) with its documents and chunk counts, uploads (picker or drop,
 * a progress bar per file), **Try a query**, and delete.
 */
export default function KnowledgePage() {
  const { org, client, base } = useOrg();
  useTitle('Knowledge', 'Switchboard Flows');
  const knowledge = useMemo(() => knowledgeApi(client.base), [client.base]);
  const list = useResource((signal) => knowledge.list(signal).then((answer) => answer.knowledge_bases), [org]);
  // Connections that may embed (Anthropic has no embedding models).
  const providers = useResource(
    (signal) => client.providers(signal).then((answer) => answer.providers.filter((p) => p.kind !== 'anthropic').map((p) => p.name)),
    [org],
  );
  const [params, setParams] = useSearchParams();
  const selected = params.get('kb') ?? list.data?.[0]?.name ?? '';
  return (
    <ResourceList
      noun="knowledge bases"
      source={list}
      header={(create) => <PageHeader title="Knowledge">{create}</PageHeader>}
      view={(bases) => (
        <div className="kb-layout">
          <nav className="kb-list card" aria-label="Knowledge bases">
            <ul>
              {bases.map((kb) => (
                <li key={kb.id}>
                  <Link
                    to={`${base}/knowledge?kb=${encodeURIComponent(kb.name)}`}
                    aria-current={kb.name === selected ? 'page' : undefined}
                    className={kb.name === selected ? 'active' : undefined}
                  >
                    <span className="kb-name">{kb.name}</span>
                    <span className="faint">
                      {counted(kb.documents, 'document')} · {counted(kb.chunks, 'chunk')}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="kb-detail">
            {selected ? (
              <KnowledgeBaseDetail key={selected} name={selected} knowledge={knowledge} providers={providers.data ?? []} onChanged={list.reload} />
            ) : null}
          </div>
        </div>
      )}
      create={{
        label: 'New knowledge base',
        form: form({
          submitLabel: 'Create',
          initial: { name: '', description: '', embeddingProvider: '', embeddingModel: '' },
          fields: (values) => [
            { name: 'name', label: 'Name', placeholder: 'handbook', maxLength: 80, required: true },
            { name: 'description', label: 'Description', kind: 'textarea', maxLength: 2000, rows: 3 },
            ...embeddingFields(providers.data ?? [], values),
          ],
          check: (values) => {
            if (!values.name.trim()) return 'Give the knowledge base a name: Retrieval nodes refer to it by this name.';
            return values.embeddingProvider && !values.embeddingModel.trim() ? 'Name the embedding model.' : undefined;
          },
          submit: (values) => {
            const embedding = embeddingOf(values);
            return knowledge.create({
              name: values.name.trim(),
              ...(values.description.trim() ? { description: values.description.trim() } : {}),
              ...(embedding ? { embedding_provider: embedding.provider, embedding_model: embedding.model } : {}),
            });
          },
        }),
        after: (kb) => setParams({ kb: kb.name }),
      }}
      empty={{
        title: 'No knowledge bases yet',
        offerCreate: true,
        children: (
          <>
            A knowledge base holds documents (text, Markdown, PDF) that a flow's <strong>Retrieval</strong> node searches, for example a product handbook.
          </>
        ),
      }}
    />
  );
}

/** One knowledge base: its documents, uploads, **Try a query**, delete. */
function KnowledgeBaseDetail({
  name,
  knowledge,
  providers,
  onChanged,
}: {
  name: string;
  knowledge: Knowledge;
  providers: readonly string[];
  onChanged: () => void;
}) {
  const { org, base } = useOrg();
  const detail = useResource((signal) => knowledge.get(name, signal), [org, name]);
  const [changing, setChanging] = useState(false);
  const navigate = useNavigate();
  const deleting = useConfirm<KnowledgeBase>({
    title: (kb) => `Delete knowledge base "${kb.name}"?`,
    message: (kb) =>
      `Its ${kb.documents} documents and ${kb.chunks} chunks are deleted. Flows whose Retrieval nodes use it fail until a knowledge base of that name exists again.`,
    confirmLabel: 'Delete',
    run: () => knowledge.remove(name),
    done: () => `Knowledge base "${name}" deleted`,
    after: () => {
      onChanged();
      // void: under BrowserRouter navigate() returns nothing; the promise its type allows is a data router's.
      void navigate(`${base}/knowledge`, { replace: true });
    },
  });
  const uploads = useUploads(
    (document, onProgress) => knowledge.upload(name, document, onProgress),
    () => {
      detail.reload();
      onChanged();
    },
  );

  if (detail.error) {
    if (detail.error instanceof ApiError && detail.error.status === 404) {
      return (
        <div className="card">
          <EmptyState title="Knowledge base not found">
            There is no knowledge base <code className="inline-code">{name}</code> in this organization.
          </EmptyState>
        </div>
      );
    }
    return <ErrorState error={detail.error} onRetry={detail.reload} />;
  }
  if (!detail.data) return <Loading />;
  const kb = detail.data;

  return (
    <div className="stack">
      <section className="card card-body stack" aria-labelledby="kb-title">
        <div className="row between wrap">
          <div>
            <h2 id="kb-title" className="kb-title">
              {kb.name}
            </h2>
            {kb.description ? <div className="muted">{kb.description}</div> : null}
          </div>
          <div className="row">
            <Button onClick={() => setChanging(true)}>Change embedding</Button>
            <Button variant="danger" onClick={() => deleting.ask(kb)}>
              Delete knowledge base
            </Button>
          </div>
        </div>
        <div className="muted">
          {counted(kb.documents, 'document')}, {counted(kb.chunks, 'chunk')} ·{' '}
          {kb.embedding ? (
            <>
              searched by keywords and embeddings of <span className="mono">{kb.embedding.provider}</span> / <span className="mono">{kb.embedding.model}</span>
            </>
          ) : (
            'searched by keywords (BM25)'
          )}{' '}
          · Retrieval nodes name it <code className="inline-code">{kb.name}</code>
        </div>
        <ReembeddingProgress
          kb={kb}
          onPoll={detail.reload}
          onRetry={() => void knowledge.setEmbedding(kb.name, kb.embedding).then(detail.reload, detail.reload)}
        />
        <DropZone onFiles={uploads.add} />
        <UploadList items={uploads.items} onClear={uploads.clearFinished} />
      </section>

      <section aria-labelledby="kb-documents">
        <h2 id="kb-documents" className="section-title">
          Documents
        </h2>
        <ResourceList
          noun="documents"
          source={{ data: kb.document_list, reload: detail.reload }}
          rowKey={(doc) => doc.id}
          columns={[
            { header: 'Document', className: 'cell-name', cell: (doc) => doc.source },
            { header: 'Type', cell: (doc) => typeLabel(doc.content_type) },
            { header: 'Characters', numeric: true, cell: (doc) => count(doc.chars) },
            { header: 'Chunks', numeric: true, cell: (doc) => count(doc.chunks) },
            { header: 'Added', time: (doc) => doc.created_at },
          ]}
          actions={[
            {
              label: 'Chunks',
              name: (doc) => `Chunks of ${doc.source}`,
              dialog: (doc, close) => <ChunksDialog knowledge={knowledge} kb={kb} document={doc} onClose={close} />,
            },
            {
              label: 'Delete',
              name: (doc) => `Delete ${doc.source}`,
              variant: 'danger',
              confirm: {
                title: (doc) => `Delete "${doc.source}"?`,
                message: (doc) =>
                  `Its ${counted(doc.chunks, 'chunk')} are removed: Retrieval nodes no longer find them. Upload the file again to bring it back.`,
                confirmLabel: 'Delete',
                run: (doc) => knowledge.deleteDocument(kb.name, doc.id),
                done: (doc) => `"${doc.source}" deleted`,
                after: onChanged,
              },
            },
          ]}
          empty={{ title: 'No documents yet', children: 'Drop files above or choose them: each is split into chunks that retrieval searches.' }}
        />
      </section>

      <TryQuery knowledge={knowledge} kb={kb} />
      {changing ? (
        <FormDialog
          spec={changeEmbeddingForm(knowledge, kb, providers)}
          onClose={() => setChanging(false)}
          onDone={() => {
            setChanging(false);
            detail.reload();
            onChanged();
          }}
        />
      ) : null}

      {deleting.dialog}
    </div>
  );
}

function typeLabel(contentType: string): string {
  return contentType === 'application/pdf' ? 'PDF' : contentType === 'text/markdown' ? 'Markdown' : contentType === 'text/plain' ? 'Text' : contentType;
}

/** **Try a query**: the top results with their scores and sources, as a Retrieval node would get them. */
function TryQuery({ knowledge, kb }: { knowledge: Knowledge; kb: KnowledgeBase }) {
  const [query, setQuery] = useState('');
  const [topK, setTopK] = useState('5');
  const [results, setResults] = useState<{ query: string; results: QueryResult[] } | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!query.trim()) {
      setError('Type what a user would ask.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const answer = await knowledge.query(kb.name, query.trim(), Number(topK));
      setResults({ query: query.trim(), results: answer.results });
    } catch (reason) {
      setError((reason as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card card-body stack" aria-labelledby="kb-query">
      <h2 id="kb-query" className="section-title">
        Try a query
      </h2>
      <form className="query-form" onSubmit={submit}>
        <div className="grow">
          <TextField label="Query" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="How do I reset my password?" maxLength={10_000} />
        </div>
        <SelectField
          label="Results"
          value={topK}
          onChange={(e) => setTopK(e.target.value)}
          options={['3', '5', '10', '20'].map((n) => ({ value: n, label: n }))}
        />
        <Button type="submit" variant="primary" busy={busy} disabled={kb.chunks === 0}>
          Search
        </Button>
      </form>
      {kb.chunks === 0 ? <div className="faint">Add documents to search them.</div> : null}
      <FormError>{error}</FormError>
      {results ? (
        results.results.length === 0 ? (
          <div className="muted" role="status">
            Nothing matches “{results.query}”.
          </div>
        ) : (
          <ol className="query-results" aria-label="Query results">
            {results.results.map((result, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: one query's ranked results, replaced as a whole by the next query; the rank is the identity.
              <li key={index} className="query-result">
                <div className="row between wrap">
                  <span className="query-source">{result.source}</span>
                  <span className="badge accent" title="Relevance score">
                    score {result.score.toFixed(3)}
                  </span>
                </div>
                <p className="query-text">{result.text}</p>
              </li>
            ))}
          </ol>
        )
      ) : null}
    </section>
  );
}
