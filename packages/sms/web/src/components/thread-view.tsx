import { useEffect, useLayoutEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Button, dateTime } from '@switchboard/web-kit';
import type { MessageRecord } from '../api/types.ts';
import { messageTime } from './conversation-list.tsx';
import { MessageStatus } from './message-status.tsx';

/**
 * A conversation's messages as a thread, oldest at the top: each with its text, when, its SIM and (sent ones)
 * its delivery state. Only the messages in view are in the page; it opens at the latest message, stays there
 * as new ones arrive (unless the reader scrolled up), and **Load older messages** reads the page before.
 */
export function ThreadView({
  messages,
  hasOlder,
  loadingOlder,
  onLoadOlder,
}: {
  messages: MessageRecord[];
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const firstId = useRef<number | undefined>(undefined);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 72,
    overscan: 6,
    getItemKey: (index) => messages[index].id,
  });

  // Older messages added above: keep the one that was first where it was on screen.
  useLayoutEffect(() => {
    const previous = firstId.current;
    firstId.current = messages[0]?.id;
    if (previous === undefined || messages[0]?.id === previous) return;
    const index = messages.findIndex((m) => m.id === previous);
    if (index > 0) virtualizer.scrollToIndex(index, { align: 'start' });
  }, [messages, virtualizer]);

  // At the latest message when opened, and as new ones arrive while the reader is there.
  useEffect(() => {
    if (atBottom.current && messages.length > 0) virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
  }, [messages.length, virtualizer]);

  const onScroll = () => {
    const element = scroller.current;
    if (element) atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
  };

  return (
    <>
      {hasOlder ? (
        <div className="thread-older">
          <Button small busy={loadingOlder} onClick={onLoadOlder}>
            Load older messages
          </Button>
        </div>
      ) : null}
      <div className="thread-scroller" ref={scroller} onScroll={onScroll}>
        <ol aria-label="Messages" className="thread" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const message = messages[item.index];
            return (
              <li
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className={`bubble-row ${message.direction}`}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <div className="bubble">
                  <div className="bubble-body">{message.body}</div>
                  <div className="bubble-meta">
                    <span title={dateTime(messageTime(message))}>{dateTime(messageTime(message))}</span>
                    {message.sim ? <span>{message.sim}</span> : null}
                    <MessageStatus message={message} />
                  </div>
                </div>
              </li>
            );
          })}
        </ol>
      </div>
    </>
  );
}
