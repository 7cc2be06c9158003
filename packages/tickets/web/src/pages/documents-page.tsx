import { useCallback, useState } from 'react';
import { NavLink, useNavigate, useParams } from 'react-router-dom';
import {
  ApiError,
  Button,
  EmptyState,
  ErrorState,
  Loading,
  PageHeader,
  RecordForm,
  ResourceList,
  dateTime,
  form,
  timeAgo,
  useConfirm,
  useResource,
  useTitle,
} from '@switchboard/web-kit';
import type { TaskToggle } from '../../../src/domain/task-list.ts';
import type { ProjectApi } from '../api/client.ts';
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
  useLiveChanges({ changes: (events) => events.some((e) => e.kind === 'document') && list.reload(), resync: list.reload });
  useTitle(slug ? (list.data?.find((d) => d.slug === slug)?.title ?? slug) : 'Documents', `${project.key} · Switchboard Tickets`);
  return (
    <ResourceList
      noun="documents"
      source={list}
      header={(create) => <PageHeader title="Documents">{create}</PageHeader>}
      view={(docs) => (
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
      create={{ label: 'New document', form: newDocumentForm(project.api), after: (doc) => navigate(paths.document(project.key, doc.slug)) }}
      // A page's own URL shows that page (or that it is not found) even when the list is empty.
      empty={
        slug
          ? undefined
          : {
              title: 'No documents yet',
              offerCreate: true,
              children: (
                <>
                  Keep the project's README, CLAUDE.md, wiki pages and changelog here. Agents read them over MCP (
                  <code className="inline-code">get_project_status</code> shows the README).
                </>
              ),
            }
      }
    />
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
  const doc = useResource((signal) => api.document(slug, signal), [slug]);
  const [editing, setEditing] = useState(false);
  const deleting = useConfirm<Document>({
    title: (current) => `Delete "${current.title}"?`,
    message: () => 'The page is deleted for good; agents no longer see it.',
    confirmLabel: 'Delete',
    run: () => api.deleteDocument(slug),
    done: (current) => `"${current.title}" deleted`,
    after: onDeleted,
  });
  // A change by someone else shows at once, unless this page is being edited here.
  useLiveChanges({ changes: (events) => !editing && events.some((e) => e.kind === 'document' && (!e.slug || e.slug === slug)) && doc.reload() });
  const [refusal, setRefusal] = useState('');
  const seen = doc.data?.updated_at;
  const { setData, reload } = doc;
  // A checkbox saves its one line; refused (the page changed meanwhile): why, above the fresh page.
  const toggleTask = useCallback(
    async (toggle: TaskToggle) => {
      setRefusal('');
      try {
        setData(await api.updateDocument(slug, { toggle_task: { ...toggle, seen_updated_at: seen } }));
      } catch (reason) {
        setRefusal((reason as Error).message);
        reload();
        throw reason;
      }
    },
    [api, slug, seen, setData, reload],
  );

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

  return (
    <article className="card doc-card" aria-label={current.title}>
      {editing ? (
        <RecordForm
          className="card-body stack"
          spec={documentForm(api, current)}
          onCancel={() => setEditing(false)}
          onDone={(saved) => {
            doc.setData(saved);
            setEditing(false);
            onSaved();
          }}
        />
      ) : (
        <>
          <div className="card-header doc-header">
            <div className="grow">
              <h2>{current.title}</h2>
              <div className="faint doc-meta">
                {DOC_TYPE_LABEL[current.doc_type] ?? current.doc_type} · <span className="mono">{current.slug}</span> · updated{' '}
                <span title={dateTime(current.updated_at)}>{timeAgo(current.updated_at)}</span>
              </div>
            </div>
            <Button small onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button small variant="danger" onClick={() => deleting.ask(current)}>
              Delete
            </Button>
          </div>
          <div className="card-body">
            {refusal ? (
              <div className="form-error" role="alert">
                {refusal}
              </div>
            ) : null}
            <MarkdownView source={current.content} empty="This page is empty." onToggleTask={toggleTask} />
          </div>
        </>
      )}
      {deleting.dialog}
    </article>
  );
}

/** A page's **Content** field: Markdown with Write and Preview. */
function contentEditor(values: { content: string }, set: (change: { content: string }) => void, rows: number) {
  return <MarkdownEditor label="Content" value={values.content} onChange={(content) => set({ content })} rows={rows} />;
}

/** Edits a page in place: **Title**, **Type**, **Content**, **Save**. */
function documentForm(api: ProjectApi, current: Document) {
  return form({
    title: `Edit ${current.title}`,
    submitLabel: 'Save',
    initial: { title: current.title, content: current.content, doc_type: current.doc_type },
    fields: () => [
      [
        { name: 'title', label: 'Title', required: true },
        { name: 'doc_type', label: 'Type', kind: 'select', options: typeOptions },
      ],
      { kind: 'custom', name: 'content', render: (values, set) => contentEditor(values, set, 18) },
    ],
    submit: (values) => api.updateDocument(current.slug, values),
    done: () => 'Document saved',
  });
}

/** **New document**: **Title**, **Type**, **Slug** (optional), **Content**; **Create document**. */
function newDocumentForm(api: ProjectApi) {
  return form({
    title: 'New document',
    submitLabel: 'Create document',
    wide: true,
    initial: { title: '', doc_type: 'wiki', slug: '', content: '' },
    fields: () => [
      [
        { name: 'title', label: 'Title', required: true, autoFocus: true },
        { name: 'doc_type', label: 'Type', kind: 'select', options: typeOptions },
        { name: 'slug', label: 'Slug', hint: 'Optional: made from the title' },
      ],
      { kind: 'custom', name: 'content', render: (values, set) => contentEditor(values, set, 12) },
    ],
    check: (values) => (values.title.trim() ? undefined : 'Give the page a title.'),
    submit: (values) =>
      api.createDocument({ title: values.title.trim(), doc_type: values.doc_type, content: values.content, slug: values.slug.trim() || undefined }),
  });
}
