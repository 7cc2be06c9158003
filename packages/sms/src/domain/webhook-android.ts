import { gatewayReport, invalidWebhookBody, isRecord, optionalText, simFromSlot, toUtcIso, type ParsedWebhook, type WebhookEvent } from './webhook-event.ts';

/** True when a JSON body comes from the SMS Gateway for Android app (`deviceId`, `event`, `payload`). */
export function isAndroidBody(body: Record<string, unknown>): boolean {
  return typeof body.event === 'string' && body.event.includes(':') && ('payload' in body || 'deviceId' in body);
}

// The largest value of the sims.slot column (a 32-bit integer on PostgreSQL).
const MAX_SLOT = 2_147_483_647;

/** An integer a SIM slot column can hold; anything else the app sends (1e10, 1.5) is no slot. */
function isSlotNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= MAX_SLOT;
}

/**
 * Reads an SMS Gateway for Android webhook. `system:ping` and events we do
 * not store (MMS, data SMS) give no events, so the app stops retrying them.
 */
export function parseAndroid(body: Record<string, unknown>): ParsedWebhook {
  const eventId = optionalText(body.id);
  const payload = isRecord(body.payload) ? body.payload : {};
  const deviceId = optionalText(body.deviceId);
  const events: WebhookEvent[] = [];
  switch (body.event) {
    case 'sms:received': {
      if (typeof payload.phoneNumber !== 'string' || typeof payload.message !== 'string') {
        throw invalidWebhookBody('sms:received: payload needs "phoneNumber" and "message"');
      }
      const slot = isSlotNumber(payload.simNumber) ? payload.simNumber : null;
      events.push({
        kind: 'received',
        eventId,
        sim: simFromSlot(payload.simNumber),
        from: payload.phoneNumber,
        to: null,
        body: payload.message,
        externalId: optionalText(payload.messageId),
        receivedAt: toUtcIso(payload.receivedAt),
        deviceId,
        slot,
      });
      break;
    }
    case 'sms:sent':
    case 'sms:delivered':
    case 'sms:failed': {
      const externalId = optionalText(payload.messageId);
      if (externalId === null) throw invalidWebhookBody(`${body.event}: payload needs "messageId"`);
      const status = body.event === 'sms:sent' ? 'sent' : body.event === 'sms:delivered' ? 'delivered' : 'failed';
      const at = toUtcIso(payload.sentAt ?? payload.deliveredAt ?? payload.failedAt);
      events.push(gatewayReport({ eventId, status, externalId, failure: optionalText(payload.reason) ?? 'failed', at }));
      break;
    }
  }
  return { format: 'android', events };
}
