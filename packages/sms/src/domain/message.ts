import { z } from 'zod';

// The records are declared once, as zod schemas: they give the TypeScript types and
// describe the answers in /openapi.json (requests are validated by validation.ts).

/** A message as every JSON endpoint returns it (design/sms.md, Records). */
export const messageSchema = z.object({
  id: z.number().int(),
  org_id: z.string(),
  direction: z.enum(['inbound', 'outbound']),
  sim: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  body: z.string(),
  status: z.enum(['received', 'queued', 'sending', 'sent', 'delivered', 'failed']),
  segments: z.number().int(),
  gateway: z.string().nullable(),
  external_id: z.string().nullable(),
  error: z.string().nullable(),
  received_at: z.string().nullable(),
  sent_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A message as every JSON endpoint returns it. */
export type MessageRecord = z.infer<typeof messageSchema>;
/** Direction of a message. */
export type Direction = MessageRecord['direction'];
/** Lifecycle of a message: `received` for inbound; `queued` → `sending` → `sent` → `delivered` | `failed` for outbound. */
export type MessageStatus = MessageRecord['status'];

/** A SIM as GET /sims returns it. */
export const simSchema = z.object({
  sim: z.string(),
  label: z.string().nullable(),
  phone_number: z.string().nullable(),
  device_id: z.string().nullable(),
  slot: z.number().int().nullable(),
  message_count: z.number().int(),
  inbound_count: z.number().int(),
  outbound_count: z.number().int(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
});

/** A SIM as GET /sims returns it. */
export type SimRecord = z.infer<typeof simSchema>;

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
