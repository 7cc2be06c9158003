import { AppError } from '@switchboard/core';

/** The four webhook formats the service understands. */
export type WebhookFormat = 'native' | 'android' | 'httpsms' | 'twilio';

/** A received SMS, normalized from any format. */
export interface ReceivedEvent {
  kind: 'received';
  /** The gateway's id for this delivery of the event; the same id posted twice is stored once. */
  eventId: string | null;
  sim: string | null;
  from: string;
  /** Our number, when the gateway says it; else the SIM's known number is used. */
  to: string | null;
  body: string;
  externalId: string | null;
  /** ISO 8601 UTC, or null to use the time it is stored. */
  receivedAt: string | null;
  deviceId: string | null;
  slot: number | null;
}

/** A delivery report about an outbound message. */
export interface StatusEvent {
  kind: 'status';
  eventId: string | null;
  status: 'sent' | 'delivered' | 'failed';
  /** Our message id (native reports only). */
  messageId: number | null;
  externalId: string | null;
  error: string | null;
  /** When the gateway says it happened (ISO 8601 UTC), else null. */
  at: string | null;
}

/**
 * A gateway's delivery report: it names the message by the gateway's own id
 * (never ours), and carries a reason only when the message failed.
 */
export function gatewayReport(report: {
  eventId: string | null;
  status: StatusEvent['status'];
  externalId: string;
  failure: string;
  at: string | null;
}): StatusEvent {
  const { eventId, status, externalId, failure, at } = report;
  return { kind: 'status', eventId, status, messageId: null, externalId, error: status === 'failed' ? failure : null, at };
}

/** Something a webhook call reports. */
export type WebhookEvent = ReceivedEvent | StatusEvent;

/** A recognized webhook call. */
export interface ParsedWebhook {
  format: WebhookFormat;
  events: WebhookEvent[];
}

/** The 400 for a body of a known format whose content is not usable; `problem` is shown to the caller. */
export function invalidWebhookBody(problem: string): AppError {
  return new AppError('invalid_request', `Invalid webhook body: ${problem}`);
}

/**
 * A message's text may hold any character, U+0000 included (the store keeps
 * its exact bytes); the other fields are identifiers and reasons kept in
 * PostgreSQL text, which cannot hold U+0000: one there is refused on every
 * database, naming the field, rather than failing while it is stored.
 */
export function rejectNulText(events: WebhookEvent[]): void {
  for (const event of events) {
    for (const [field, value] of Object.entries(event)) {
      if (field === 'body') continue;
      if (typeof value === 'string' && value.includes('\u0000')) {
        throw invalidWebhookBody(`${FIELD_NAMES[field] ?? field} must not contain the NUL character (U+0000); only a message's text may`);
      }
    }
  }
}

// Event fields by the names of the message record (the others already match).
const FIELD_NAMES: Record<string, string> = { eventId: 'event id', externalId: 'external_id', deviceId: 'device id' };

/** Converts a timestamp with any offset to ISO 8601 UTC; null when absent or unreadable. */
export function toUtcIso(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A gateway's SIM slot (`1`, `"SIM1"`) as our SIM identifier (`"sim1"`). */
export function simFromSlot(value: unknown): string | null {
  if (typeof value === 'number' && Number.isInteger(value)) return `sim${value}`;
  if (typeof value === 'string' && value.trim() !== '') {
    const match = /^sim\s*(\d+)$/i.exec(value.trim());
    return match ? `sim${match[1]}` : /^\d+$/.test(value.trim()) ? `sim${value.trim()}` : value.trim();
  }
  return null;
}

/** A text field of a gateway payload, or null. */
export function optionalText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
