import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { useVirtualizer } from '@tanstack/react-virtual';
import { timeAgo } from '@switchboard/web-kit';
import type { Conversation } from '../api/types.ts';
import { MessageStatus } from './message-status.tsx';

const ROW_HEIGHT = 68;

/** When the message was stored (received, for inbound ones). */
export function messageTime(message: Conversation['last_message']): string {
  return message.received_at ?? message.created_at;
}

/**
 * The conversations, the latest message first, each a link to its thread with its number, its last message,
 * when, its delivery state and the unread count. Only the rows in view are in the page (thousands of
 * conversations scroll as smoothly as ten); the next page is read as the end comes into view.
 */
export function ConversationList({
  conversations,
  openPeer,
  hrefOf,
  hasMore,
  loadingMore,
  onLoadMore,
}: {
  conversations: Conversation[];
  openPeer: string | undefined;
  hrefOf: (peer: string) => string;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: conversations.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const items = virtualizer.getVirtualItems();
  const lastShown = items.length > 0 ? items[items.length - 1].index : -1;

  useEffect(() => {
    if (hasMore && !loadingMore && lastShown >= conversations.length - 10) onLoadMore();
  }, [hasMore, loadingMore, lastShown, conversations.length, onLoadMore]);

  return (
    <div className="conversation-scroller" ref={scroller}>
      <ul aria-label="Conversations" className="conversation-list" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const conversation = conversations[item.index];
          const last = conversation.last_message;
          const open = conversation.peer === openPeer;
          return (
            <li key={conversation.peer} className="conversation-row" style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}>
              <Link to={hrefOf(conversation.peer)} className={open ? 'conversation open' : 'conversation'} aria-current={open ? 'page' : undefined}>
                <span className="conversation-top">
                  <span className="conversation-peer">{conversation.peer || '(no number)'}</span>
                  <span className="faint conversation-time">{timeAgo(messageTime(last))}</span>
                </span>
                <span className="conversation-bottom">
                  <span className="conversation-preview truncate">
                    {last.direction === 'outbound' ? <span className="faint">You: </span> : null}
                    {last.body}
                  </span>
                  <MessageStatus message={last} />
                  {conversation.unread > 0 ? <span className="unread-count">{conversation.unread} unread</span> : null}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
      {loadingMore ? (
        <div className="faint list-foot" role="status">
          Loading more conversations…
        </div>
      ) : null}
    </div>
  );
}
