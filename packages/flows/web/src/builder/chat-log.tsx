// The conversation of Run as a chat: the user's messages and the flow's answers, each answer linked to its run.
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import type { ChatTurn } from './chat.ts';

/** The conversation so far (a log: new messages are read out), scrolled to its end. */
export function ChatLog({ turns, org, pending }: { turns: readonly ChatTurn[]; org: string; pending: boolean }) {
  const end = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the triggers: scroll to the end when a turn is added or the pending answer shows or goes.
  useEffect(() => {
    // A block: scrollIntoView answers a Promise in current Chromium, which React would take for a cleanup.
    void end.current?.scrollIntoView({ block: 'nearest' });
  }, [turns.length, pending]);
  return (
    <div className="chat-log" role="log" aria-label="Conversation" aria-live="polite">
      {turns.length === 0 ? <p className="faint small">Say something: each message runs the flow, and the conversation stays until New chat.</p> : null}
      {turns.map((turn, index) => (
        // The conversation only grows, so a turn's place is its identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: append-only list
        <div key={index} className={`chat-turn ${turn.role}${turn.failed ? ' failed' : ''}`}>
          <span className="sr-only">{turn.role === 'user' ? 'You: ' : 'Flow: '}</span>
          <div className="chat-text">{turn.text}</div>
          {turn.runId ? (
            <Link className="chat-run small" to={`/orgs/${org}/runs/${encodeURIComponent(turn.runId)}`}>
              Run details
            </Link>
          ) : null}
        </div>
      ))}
      {pending ? <div className="chat-turn assistant faint">…</div> : null}
      <div ref={end} />
    </div>
  );
}
