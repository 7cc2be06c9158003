import { useCallback, useState, type FormEvent } from 'react';
import { Badge, Button, dateTime, timeAgo, useSession } from '@switchboard/web-kit';
import type { TaskToggle } from '../../../src/domain/task-list.ts';
import type { Activity, TicketDetail } from '../api/types.ts';
import { MarkdownEditor } from '../markdown/markdown-editor.tsx';
import { MarkdownView } from '../markdown/markdown-view.tsx';
import { useProject } from '../project-context.tsx';

/**
 * The description, rendered, its task list checkboxes saving their line (a refusal shown here, above the fresh
 * text); **Edit** opens the Markdown editor (Write / Preview) with **Save** and **Cancel**.
 */
export function Description({
  description,
  onSave,
  onToggleTask,
}: {
  description: string;
  onSave: (description: string) => Promise<boolean>;
  onToggleTask: (toggle: TaskToggle) => Promise<unknown>;
}) {
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState('');
  const toggle = useCallback(
    async (change: TaskToggle) => {
      setRefusal('');
      try {
        return await onToggleTask(change);
      } catch (reason) {
        setRefusal((reason as Error).message);
        throw reason;
      }
    },
    [onToggleTask],
  );
  return (
    <section className="panel-section" aria-label="Description">
      <div className="section-title">
        <h3>Description</h3>
        {draft === undefined ? (
          <Button
            small
            variant="ghost"
            onClick={() => {
              setRefusal('');
              setDraft(description);
            }}
            aria-label="Edit description"
          >
            Edit
          </Button>
        ) : null}
      </div>
      {refusal && draft === undefined ? (
        <div className="form-error" role="alert">
          {refusal}
        </div>
      ) : null}
      {draft === undefined ? (
        <MarkdownView source={description} empty="No description." onToggleTask={toggle} />
      ) : (
        <div className="stack tight">
          <MarkdownEditor label="Description" value={draft} onChange={setDraft} rows={10} autoFocus onSubmitShortcut={() => void save()} />
          <div className="row end">
            <Button small onClick={() => setDraft(undefined)}>
              Cancel
            </Button>
            <Button small variant="primary" busy={busy} onClick={() => void save()}>
              Save
            </Button>
          </div>
        </div>
      )}
    </section>
  );

  async function save() {
    if (draft === undefined) return;
    setBusy(true);
    const ok = await onSave(draft);
    setBusy(false);
    if (ok) setDraft(undefined);
  }
}

/** The AI summary and where it came from. */
export function AiSummary({ ticket }: { ticket: TicketDetail }) {
  return (
    <section className="panel-section" aria-label="AI summary">
      <div className="section-title">
        <h3>AI summary</h3>
        {ticket.ai_summary_source ? <Badge>{ticket.ai_summary_source === 'llm' ? 'model' : ticket.ai_summary_source}</Badge> : null}
      </div>
      {ticket.ai_summary ? (
        <p className="ai-summary">{ticket.ai_summary}</p>
      ) : (
        <p className="faint">No summary yet. With Auto-Summary on (Settings), one is written shortly after each change.</p>
      )}
    </section>
  );
}

/** The sub-tickets with their columns, and **Add sub-ticket**. */
export function SubTickets({
  ticket,
  onOpen,
  run,
}: {
  ticket: TicketDetail;
  onOpen: (key: string) => void;
  run: (write: () => Promise<unknown>) => Promise<boolean>;
}) {
  const { api, columns } = useProject();
  const [adding, setAdding] = useState(false);
  const [title, setTitle] = useState('');
  const done = new Set(columns.filter((c) => c.is_done_column).map((c) => c.name));
  const finished = ticket.sub_tickets.filter((sub) => sub.column && done.has(sub.column)).length;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) return;
    const ok = await run(() => api.createSubTicket(ticket.key, { title: title.trim() }));
    if (ok) setTitle('');
  };
  return (
    <section className="panel-section" aria-label="Sub-tickets">
      <div className="section-title">
        <h3>
          Sub-tickets{' '}
          {ticket.sub_tickets.length > 0 ? (
            <span className="faint">
              {finished}/{ticket.sub_tickets.length} done
            </span>
          ) : null}
        </h3>
        {!adding ? (
          <Button small variant="ghost" onClick={() => setAdding(true)}>
            Add sub-ticket
          </Button>
        ) : null}
      </div>
      {ticket.sub_tickets.length > 0 ? (
        <ul className="plain-list sub-tickets">
          {ticket.sub_tickets.map((sub) => (
            <li key={sub.id}>
              <a
                href={`/tickets/${sub.key}`}
                onClick={(event) => {
                  event.preventDefault();
                  onOpen(sub.key);
                }}
              >
                <span className="mono faint">{sub.key}</span> {sub.title}
              </a>
              <Badge kind={sub.column && done.has(sub.column) ? 'success' : undefined}>{sub.column ?? '—'}</Badge>
            </li>
          ))}
        </ul>
      ) : !adding ? (
        <p className="faint">No sub-tickets. Feature work is an epic whose sub-tickets move; the epic follows them.</p>
      ) : null}
      {adding ? (
        <form className="row" onSubmit={submit}>
          {/* A text box: its attributes are alike other one-field forms', with its own label and limit. */}
          <input
            className="input"
            aria-label="Sub-ticket title"
            placeholder="Title of the sub-ticket"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            // biome-ignore lint/a11y/noAutofocus: the form appears when the user asks to add a sub-ticket; its one field is where they type next.
            autoFocus
            maxLength={500}
          />
          <Button small variant="primary" type="submit">
            Add
          </Button>
          <Button small onClick={() => setAdding(false)}>
            Cancel
          </Button>
        </form>
      ) : null}
    </section>
  );
}

/** The comments (Markdown, oldest first) and **Add comment**. */
export function Comments({ ticket, run }: { ticket: TicketDetail; run: (write: () => Promise<unknown>) => Promise<boolean> }) {
  const { api } = useProject();
  const { session } = useSession();
  const [content, setContent] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!content.trim()) return;
    setBusy(true);
    const ok = await run(() => api.addComment(ticket.key, content));
    setBusy(false);
    if (ok) setContent('');
  };
  return (
    <section className="panel-section" aria-label="Comments">
      <div className="section-title">
        <h3>Comments {ticket.comments.length > 0 ? <span className="faint">{ticket.comments.length}</span> : null}</h3>
      </div>
      {ticket.comments.length === 0 ? <p className="faint">No comments yet.</p> : null}
      <ol className="plain-list comments">
        {ticket.comments.map((comment) => (
          <li key={comment.id} className="comment">
            <div className="comment-meta">
              <span className="actor">{comment.author}</span>
              <span className="faint" title={dateTime(comment.created_at)}>
                {timeAgo(comment.created_at)}
              </span>
            </div>
            <MarkdownView source={comment.content} />
          </li>
        ))}
      </ol>
      <div className="stack tight">
        <MarkdownEditor
          label="Comment"
          value={content}
          onChange={setContent}
          rows={3}
          placeholder={`Comment as ${session.user.email} (Markdown; Ctrl+Enter to send)`}
          onSubmitShortcut={() => void submit()}
        />
        <div className="row end">
          <Button small variant="primary" busy={busy} disabled={!content.trim()} onClick={() => void submit()}>
            Add comment
          </Button>
        </div>
      </div>
    </section>
  );
}

const ACTION_LABEL: Record<string, string> = {
  created: 'created',
  updated: 'updated',
  moved: 'moved',
  commented: 'commented',
  converted: 'converted',
  promoted: 'promoted',
  auto_moved: 'moved automatically',
  sub_ticket_deleted: 'sub-ticket deleted',
};

/** An entry as a sentence: the service's detail already says what happened ("moved from To Do to Done"). */
function activityText(entry: Activity): string {
  const detail = typeof entry.detail === 'string' ? entry.detail : entry.detail ? JSON.stringify(entry.detail) : '';
  if (!detail) return ACTION_LABEL[entry.action] ?? entry.action;
  if (entry.action === 'commented') return `commented: ${detail}`;
  if (entry.action === 'auto_moved') return `${detail} (automatically)`;
  return detail;
}

/** The activity, oldest first, each entry with its actor (`user:EMAIL`, `token:NAME` or `system`). */
export function ActivityList({ activity }: { activity: Activity[] }) {
  return (
    <section className="panel-section" aria-label="Activity">
      <div className="section-title">
        <h3>Activity</h3>
      </div>
      <ol className="plain-list activity" aria-label="Activity entries">
        {activity.map((entry) => (
          <li key={entry.id}>
            <span className={`actor actor-${entry.actor.split(':')[0]}`}>{entry.actor}</span> <span className="activity-text">{activityText(entry)}</span>{' '}
            <span className="faint nowrap" title={dateTime(entry.created_at)}>
              {timeAgo(entry.created_at)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
