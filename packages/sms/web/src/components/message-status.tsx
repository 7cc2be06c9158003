import { Badge } from '@switchboard/web-kit';
import type { MessageRecord } from '../api/types.ts';

const KINDS = { queued: 'warning', sending: 'accent', sent: undefined, delivered: 'success', failed: 'danger', received: undefined } as const;

/** A message's delivery state as a badge (queued, sending, sent, delivered, failed with the gateway's reason); inbound messages show none. */
export function MessageStatus({ message }: { message: Pick<MessageRecord, 'status' | 'error' | 'direction'> }) {
  if (message.direction === 'inbound') return null;
  return (
    <span className="message-status">
      <Badge kind={KINDS[message.status]}>{message.status}</Badge>
      {message.status === 'failed' && message.error ? <span className="message-error">{message.error}</span> : null}
    </span>
  );
}
