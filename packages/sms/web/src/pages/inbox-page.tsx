import { useMemo, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { EmptyState, ErrorState, LiveIndicator, Loading, SelectField, counted, useResource, useTitle } from '@switchboard/web-kit';
import type { MessageFilter } from '../api/client.ts';
import type { Direction } from '../api/types.ts';
import { Composer } from '../components/composer.tsx';
import { ConversationList } from '../components/conversation-list.tsx';
import { ThreadView } from '../components/thread-view.tsx';
import { useInbox } from '../live/use-inbox.ts';
import { useOrg } from '../org-context.ts';
import { paths } from '../routes.ts';

const DIRECTIONS = [
  { value: '', label: 'Both directions' },
  { value: 'inbound', label: 'Received' },
  { value: 'outbound', label: 'Sent' },
];

/**
 * **Inbox**: the conversations, one per other party's number (the latest message first, unread counts), and
 * the open one's thread with a reply form; filters by SIM and direction; new messages and delivery states
 * appear live. At phone width it shows the list or the open conversation.
 */
export default function InboxPage() {
  const { orgId, api } = useOrg();
  const { peer } = useParams();
  const [filter, setFilter] = useState<MessageFilter>({ sim: '', direction: '' });
  const sims = useResource((signal) => api.sims(signal), [api]);
  const simList = useMemo(() => sims.data ?? [], [sims.data]);
  const inbox = useInbox(api, filter, simList, peer);
  const { state } = inbox;
  useTitle(peer ? `${peer} · Inbox` : 'Inbox', 'Switchboard SMS');
  const open = state?.open && state.open.peer === peer ? state.open : undefined;
  const conversation = state?.conversations.find((c) => c.peer === peer);

  let list: ReactNode;
  if (inbox.error) list = <ErrorState error={inbox.error} onRetry={inbox.reload} title="The conversations could not be read" />;
  else if (!state) list = <Loading label="Loading conversations…" />;
  else if (state.conversations.length === 0) {
    list = (
      <EmptyState title={filter.sim || filter.direction ? 'No conversations match' : 'No messages yet'}>
        {filter.sim || filter.direction ? (
          'Choose another SIM or direction.'
        ) : (
          <>
            Messages appear here as your gateway receives them: give it the webhook URL in <Link to={paths.gateway(orgId)}>Gateway</Link>, or{' '}
            <Link to={paths.send(orgId)}>send one</Link>.
          </>
        )}
      </EmptyState>
    );
  } else {
    list = (
      <ConversationList
        conversations={state.conversations}
        openPeer={peer}
        hrefOf={(p) => paths.conversation(orgId, p)}
        hasMore={state.nextBefore !== null}
        loadingMore={inbox.loadingMore}
        onLoadMore={inbox.loadMore}
      />
    );
  }

  let thread: ReactNode;
  if (peer === undefined) thread = <EmptyState title="Choose a conversation">Its messages appear here, with a form to reply.</EmptyState>;
  else if (inbox.threadError) thread = <ErrorState error={inbox.threadError} onRetry={inbox.reload} title="The conversation could not be read" />;
  else if (!open) thread = <Loading label="Loading messages…" />;
  else {
    thread = (
      <>
        {open.messages.length === 0 ? (
          <EmptyState title="No messages with this number">
            {filter.sim || filter.direction ? 'None match the filters.' : 'Write the first one below.'}
          </EmptyState>
        ) : (
          <ThreadView messages={open.messages} hasOlder={open.nextBeforeId !== null} loadingOlder={inbox.loadingOlder} onLoadOlder={inbox.loadOlder} />
        )}
        <Composer key={peer} to={peer} sims={simList} compact />
      </>
    );
  }

  return (
    <div className={`inbox ${peer === undefined ? 'showing-list' : 'showing-thread'}`}>
      <div className="inbox-bar">
        <h1>Inbox</h1>
        <LiveIndicator
          status={inbox.status}
          title={{ live: 'New messages and delivery states appear as they happen', waiting: 'They will appear once the connection is back' }}
        />
        <div className="inbox-filters">
          <SelectField
            label="SIM"
            value={filter.sim}
            onChange={(e) => setFilter({ ...filter, sim: e.target.value })}
            options={[{ value: '', label: 'All SIMs' }, ...simList.map((s) => ({ value: s.sim, label: s.label ? `${s.label} (${s.sim})` : s.sim }))]}
          />
          <SelectField
            label="Direction"
            value={filter.direction}
            onChange={(e) => setFilter({ ...filter, direction: e.target.value as Direction | '' })}
            options={DIRECTIONS}
          />
        </div>
        <Link className="btn primary" to={paths.send(orgId)}>
          New message
        </Link>
      </div>
      <div className="inbox-panes">
        <section className="inbox-list" aria-label="Conversation list">
          {list}
        </section>
        <section className="inbox-thread" aria-label={peer ? `Conversation with ${peer}` : 'Conversation'}>
          {peer !== undefined ? (
            <header className="thread-header">
              <Link to={paths.inbox(orgId)} className="thread-back">
                ← Conversations
              </Link>
              <h2>{peer}</h2>
              {conversation ? <span className="faint">{counted(conversation.message_count, 'message')}</span> : null}
            </header>
          ) : null}
          {thread}
        </section>
      </div>
    </div>
  );
}
