import { useState, type FormEvent } from 'react';
import { NavLink, useNavigate, useParams } from 'react-router-dom';
import { Button, ConfirmDialog, Dialog, EmptyState, ErrorState, FormError, Loading, PageHeader, SelectField, TextField, ApiError, timeAgo, dateTime, useResource, useTitle, useToast } from '@switchboard/web-kit';
import { DOC_TYPES, type Document, type DocumentMeta } from '../api/types.ts';
import { MarkdownEditor } from '../markdown/markdown-editor.tsx';
import { MarkdownView } from '../markdown/markdown-view.tsx';
import { useLiveChanges, useProject } from '../project-context.tsx';
import { paths } from '../routes.ts';

/** How each document type is named on the page. */
export const DOC_TYPE_LABEL: Record<string, string> = { readme: 'README', claude_md: 'CLAUDE.md', wiki: 'Wiki', changelog: 'Changelog', custom: 'Custom' };
const typeOptions = DOC_TYPES.map((t) => ({ value: t, label: DOC_TYPE_LABEL[t] ?? t }));

/** **Documents**: the pages by type beside the open one (rendered Markdown), **New document**, **Edit**, **Delete**. */
export default function DocumentsPage() {
  const project = useProject();
  const { slug } = useParams();
  const navigate = useNavigate();
  const list = useResource((signal) => project.api.documents(signal), [project.key]);
  const [creating, setCreating] = useState(false);
  useLiveChanges({ changes: (events) => events.some((e) => e.kind === 'document') && list.reload(), resync: list.reload });
  useTitle(slug ? (list.data?.find((d) => d.slug === slug)?.title ?? slug) : 'Documents', `${project.key} · Switchboard Tickets`);

  const docs = list.data;
  return (
    <>
      <PageHeader title="Documents">
        <Button variant="primary" onClick={() => setCreating(true)}>
          New document
        </Button>
      </PageHeader>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !docs ? (
        <Loading />
      ) : docs.length === 0 && !slug ? (
        <div className="card">
          <EmptyState title="No documents yet" action={<Button variant="primary" onClick={() => setCreating(true)}>New document</Button>}>
            Keep the project's README, CLAUDE.md, wiki pages and changelog here. Agents read them over MCP (<code className="inline-code">get_project_status</code> shows the README).
          </EmptyState>
        </div>
      ) : (
        <div className="docs-layout">
          <DocumentNav docs={docs} project={project.key} />
          <div className="docs-main">
            {slug ? (
              <DocumentView key={slug} slug={slug} onDeleted={() => navigate(paths.documents(project.key))} onSaved={list.reload} />
            ) : (
              <div className="card">
                <EmptyState title="Choose a page">{docs.length} pages in this project. Pick one on the left, or create a new one.</EmptyState>
              </div>
            )}
          </div>
        </div>
      )}
      {creating ? (
        <NewDocumentDialog
          onClose={() => setCreating(false)}
          onCreated={(doc) => {
            setCreating(false);
            list.reload();
            navigate(paths.document(project.key, doc.slug));
          }}
        />
      ) : null}
    </>
  );
}

function DocumentNav({ docs, project }: { docs: DocumentMeta[]; project: string }) {
  const groups = DOC_TYPES.map((type) => ({ type, docs: docs.filter((d) => d.doc_type === type) })).filter((g) => g.docs.length > 0);
  const other = docs.filter((d) => !(DOC_TYPES as readonly string[]).includes(d.doc_type));
  if (other.length > 0) groups.push({ type: 'custom', docs: other });
  return (
    <nav className="docs-nav" aria-label="Pages">
      {groups.map((group) => (
        <div key={group.type} className="docs-group">
          <h2 className="docs-group-title">{DOC_TYPE_LABEL[group.type] ?? group.type}</h2>
          <ul>
            {group.docs.map((doc) => (
              <li key={doc.id}>
                <NavLink to={paths.document(project, doc.slug)}>{doc.title}</NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

function DocumentView({ slug, onDeleted, onSaved }: { slug: string; onDeleted: () => void; onSaved: () => void }) {
  const { api } = useProject();
  const notify = useToast();
  const doc = useResource((signal) => api.document(slug, signal), [slug]);
  const [editing, setEditing] = useState<{ title: string; content: string; doc_type: string } | undefined>(undefined);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // A change by someone else shows at once, unless this page is being edited here.
  useLiveChanges({ changes: (events) => !editing && events.some((e) => e.kind === 'document' && (!e.slug || e.slug === slug)) && doc.reload() });

  if (doc.error) {
    return doc.error instanceof ApiError && doc.error.status === 404 ? (
      <div className="card">
        <EmptyState title="Document not found">It does not exist (it may have been deleted).</EmptyState>
      </div>
    ) : (
      <ErrorState error={doc.error} onRetry={doc.reload} />
    );
  }
  if (!doc.data) return <Loading />;
  const current = doc.data;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    setBusy(true);
    setError('');
    try {
      doc.setData(await api.updateDocument(slug, editing));
      setEditing(undefined);
      onSaved();
      notify('Document saved');
    } catch (reason) {
      setError((reason as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <article className="card doc-card" aria-label={current.title}>
      {editing ? (
        <form className="card-body stack" onSubmit={save} noValidate>
          <FormError>{error}</FormError>
          <div className="grid-2">
            <TextField label="Title" value={editing.title} onChange={(e) => setEditing({ ...editing, title: e.target.value })} required />
            <SelectField label="Type" value={editing.doc_type} onChange={(e) => setEditing({ ...editing, doc_type: e.target.value })} options={typeOptions} />
          </div>
          <MarkdownEditor label="Content" value={editing.content} onChange={(content) => setEditing({ ...editing, content })} rows={18} />
          <div className="row end">
            <Button onClick={() => setEditing(undefined)}>Cancel</Button>
            <Button type="submit" variant="primary" busy={busy}>
              Save
            </Button>
          </div>
        </form>
      ) : (
        <>
          <div className="card-header doc-header">
            <div className="grow">
              <h2>{current.title}</h2>
              <div className="faint doc-meta">
                {DOC_TYPE_LABEL[current.doc_type] ?? current.doc_type} · <span className="mono">{current.slug}</span> · updated <span title={dateTime(current.updated_at)}>{timeAgo(current.updated_at)}</span>
              </div>
            </div>
            <Button small onClick={() => setEditing({ title: current.title, content: current.content, doc_type: current.doc_type })}>
              Edit
            </Button>
            <Button small variant="danger" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          </div>
          <div className="card-body">
            <MarkdownView source={current.content} empty="This page is empty." />
          </div>
        </>
      )}
      {deleting ? (
        <ConfirmDialog
          title={`Delete "${current.title}"?`}
          message="The page is deleted for good; agents no longer see it."
          confirmLabel="Delete"
          onCancel={() => setDeleting(false)}
          onConfirm={async () => {
            try {
              await api.deleteDocument(slug);
              notify(`"${current.title}" deleted`);
              setDeleting(false);
              onDeleted();
            } catch (reason) {
              setDeleting(false);
              notify((reason as Error).message, 'error');
            }
          }}
        />
      ) : null}
    </article>
  );
}

function NewDocumentDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (doc: Document) => void }) {
  const { api } = useProject();
  const [form, setForm] = useState({ title: '', doc_type: 'wiki', slug: '', content: '' });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.title.trim()) {
      setError('Give the page a title.');
      return;
    }
    setBusy(true);
    try {
      onCreated(await api.createDocument({ title: form.title.trim(), doc_type: form.doc_type, content: form.content, slug: form.slug.trim() || undefined }));
    } catch (reason) {
      setError((reason as Error).message);
      setBusy(false);
    }
  };
  return (
    <Dialog
      title="New document"
      wide
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-dialog-close>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="new-document" busy={busy}>
            Create document
          </Button>
        </>
      }
    >
      <form id="new-document" className="stack" onSubmit={submit} noValidate>
        <FormError>{error}</FormError>
        <div className="grid-3">
          <TextField label="Title" value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })} required autoFocus />
          <SelectField label="Type" value={form.doc_type} onChange={(e) => setForm({ ...form, doc_type: e.target.value })} options={typeOptions} />
          <TextField label="Slug" value={form.slug} onChange={(e) => setForm({ ...form, slug: e.target.value })} hint="Optional: made from the title" />
        </div>
        <MarkdownEditor label="Content" value={form.content} onChange={(content) => setForm({ ...form, content })} rows={12} />
      </form>
    </Dialog>
  );
}
