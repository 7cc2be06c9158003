/** Direction of a message. */
export type Direction = 'inbound' | 'outbound';

/** Lifecycle of a message: `received` for inbound; `queued` → `sending` → `sent` → `delivered` | `failed` for outbound. */
export type MessageStatus = 'received' | 'queued' | 'sending' | 'sent' | 'delivered' | 'failed';

/** A message as every JSON endpoint returns it (design/sms.md, Records). */
export interface MessageRecord {
  id: number;
  org_id: string;
  direction: Direction;
  sim: string | null;
  from: string;
  to: string;
  body: string;
  status: MessageStatus;
  segments: number;
  gateway: string | null;
  external_id: string | null;
  error: string | null;
  received_at: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A SIM as GET /sims returns it. */
export interface SimRecord {
  sim: string;
  label: string | null;
  phone_number: string | null;
  device_id: string | null;
  slot: number | null;
  message_count: number;
  inbound_count: number;
  outbound_count: number;
  first_seen_at: string;
  last_seen_at: string;
}

/** Whether a delivery report may move a message from `current` to `next` (reports arrive late, twice, or out of order). */
export function statusAdvances(current: MessageStatus, next: 'sent' | 'delivered' | 'failed'): boolean {
  switch (next) {
    case 'sent':
      return current === 'queued' || current === 'sending';
    case 'delivered':
      return current === 'queued' || current === 'sending' || current === 'sent' || current === 'failed';
    case 'failed':
      return current === 'queued' || current === 'sending' || current === 'sent';
  }
}
