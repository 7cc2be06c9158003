import { useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  ApiError,
  Button,
  ConfirmDialog,
  Dialog,
  EmptyState,
  ErrorState,
  FormError,
  Loading,
  PageHeader,
  SelectField,
  TextAreaField,
  TextField,
  count,
  counted,
  dateTime,
  timeAgo,
  useResource,
  useTitle,
  useToast,
} from '@switchboard/web-kit';
import { useOrg } from '../api/use-org.ts';
import { knowledgeApi, type KnowledgeBase, type QueryResult } from '../api/knowledge-api.ts';
import { DropZone, UploadList, useUploads } from '../components/document-upload.tsx';
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
  const list = useResource((signal) => knowledge.list(signal), [org]);
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const bases = list.data?.knowledge_bases;
  const selected = params.get('kb') ?? bases?.[0]?.name ?? '';

  const header = (
    <PageHeader title="Knowledge">
      <Button variant="primary" onClick={() => setCreating(true)}>
        New knowledge base
      </Button>
    </PageHeader>
  );
  const dialog = creating ? (
    <CreateDialog
      knowledge={knowledge}
      onClose={() => setCreating(false)}
      onCreated={(name) => {
        setCreating(false);
        list.reload();
        setParams({ kb: name });
      }}
    />
  ) : null;

  if (list.error) {
    return (
      <>
        {header}
        <ErrorState error={list.error} onRetry={list.reload} />
      </>
    );
  }
  if (!bases) {
    return (
      <>
        {header}
        <Loading />
      </>
    );
  }
  if (bases.length === 0) {
    return (
      <>
        {header}
        <div className="card">
          <EmptyState title="No knowledge bases yet" action={<Button variant="primary" onClick={() => setCreating(true)}>New knowledge base</Button>}>
            A knowledge base holds documents (text, Markdown, PDF) that a flow's <strong>Retrieval</strong> node searches, for example a product handbook.
          </EmptyState>
        </div>
        {dialog}
      </>
    );
  }

  return (
    <>
      {header}
      <div className="kb-layout">
        <nav className="kb-list card" aria-label="Knowledge bases">
          <ul>
            {bases.map((kb) => (
              <li key={kb.id}>
                <Link to={`${base}/knowledge?kb=${encodeURIComponent(kb.name)}`} aria-current={kb.name === selected ? 'page' : undefined} className={kb.name === selected ? 'active' : undefined}>
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
          {selected ? <KnowledgeBaseDetail key={selected} name={selected} knowledge={knowledge} onChanged={list.reload} /> : null}
        </div>
      </div>
      {dialog}
    </>
  );
}

/** One knowledge base: its documents, uploads, **Try a query**, delete. */
function KnowledgeBaseDetail({ name, knowledge, onChanged }: { name: string; knowledge: Knowledge; onChanged: () => void }) {
  const { org, base } = useOrg();
  const detail = useResource((signal) => knowledge.get(name, signal), [org, name]);
  const navigate = useNavigate();
  const notify = useToast();
  const [deleting, setDeleting] = useState(false);
  const [busy, setBusy] = useState(false);
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

  const remove = async () => {
    setBusy(true);
    try {
      await knowledge.remove(name);
      notify(`Knowledge base "${name}" deleted`);
      setDeleting(false);
      onChanged();
      navigate(`${base}/knowledge`, { replace: true });
    } catch (reason) {
      notify((reason as Error).message, 'error');
      setBusy(false);
    }
  };

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
          <Button variant="danger" onClick={() => setDeleting(true)}>
            Delete knowledge base
          </Button>
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
        <DropZone onFiles={uploads.add} />
        <UploadList items={uploads.items} onClear={uploads.clearFinished} />
      </section>

      <section aria-labelledby="kb-documents">
        <h2 id="kb-documents" className="section-title">
          Documents
        </h2>
        {kb.document_list.length === 0 ? (
          <div className="card">
            <EmptyState title="No documents yet">Drop files above or choose them: each is split into chunks that retrieval searches.</EmptyState>
          </div>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Document</th>
                  <th>Type</th>
                  <th className="num">Characters</th>
                  <th className="num">Chunks</th>
                  <th>Added</th>
                </tr>
              </thead>
              <tbody>
                {kb.document_list.map((doc) => (
                  <tr key={doc.id}>
                    <td className="cell-name">{doc.source}</td>
                    <td>{typeLabel(doc.content_type)}</td>
                    <td className="num">{count(doc.chars)}</td>
                    <td className="num">{count(doc.chunks)}</td>
                    <td title={dateTime(doc.created_at)}>{timeAgo(doc.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <TryQuery knowledge={knowledge} kb={kb} />

      {deleting ? (
        <ConfirmDialog
          title={`Delete knowledge base "${kb.name}"?`}
          message={`Its ${kb.documents} documents and ${kb.chunks} chunks are deleted. Flows whose Retrieval nodes use it fail until a knowledge base of that name exists again.`}
          confirmLabel="Delete"
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setDeleting(false)}
        />
      ) : null}
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
        <SelectField label="Results" value={topK} onChange={(e) => setTopK(e.target.value)} options={['3', '5', '10', '20'].map((n) => ({ value: n, label: n }))} />
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

/** **New knowledge base**: **Name** and **Description**. */
function CreateDialog({ knowledge, onClose, onCreated }: { knowledge: Knowledge; onClose: () => void; onCreated: (name: string) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Give the knowledge base a name: Retrieval nodes refer to it by this name.');
      return;
    }
    setBusy(true);
    try {
      const kb = await knowledge.create({ name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) });
      onCreated(kb.name);
    } catch (reason) {
      setError((reason as Error).message);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="New knowledge base"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-dialog-close>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="new-kb" busy={busy}>
            Create
          </Button>
        </>
      }
    >
      <form id="new-kb" className="stack" onSubmit={submit} noValidate>
        <FormError>{error}</FormError>
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} placeholder="handbook" maxLength={80} required />
        <TextAreaField label="Description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} rows={3} />
      </form>
    </Dialog>
  );
}
