import { gatewayReport, invalidWebhookBody, isRecord, optionalText, simFromSlot, toUtcIso, type ParsedWebhook, type WebhookEvent } from './webhook-event.ts';

/** True when a JSON body is a CloudEvents envelope (httpSMS). */
export function isHttpSmsBody(body: Record<string, unknown>): boolean {
  return typeof body.specversion === 'string' && typeof body.type === 'string';
}

const STATUS: Record<string, 'sent' | 'delivered' | 'failed'> = {
  'message.phone.sent': 'sent',
  'message.phone.delivered': 'delivered',
  'message.send.failed': 'failed',
  'message.send.expired': 'failed',
};

/** Reads an httpSMS CloudEvent; heartbeats and other events give no events. */
export function parseHttpSms(body: Record<string, unknown>, eventTypeHeader: string | undefined): ParsedWebhook {
  const type = (body.type as string) || eventTypeHeader;
  const data = isRecord(body.data) ? body.data : {};
  const eventId = optionalText(body.id);
  const events: WebhookEvent[] = [];
  if (type === 'message.phone.received') {
    if (typeof data.contact !== 'string' || typeof data.content !== 'string') {
      throw invalidWebhookBody('message.phone.received: data needs "contact" and "content"');
    }
    events.push({
      kind: 'received',
      eventId,
      sim: simFromSlot(data.sim),
      from: data.contact,
      to: optionalText(data.owner),
      body: data.content,
      externalId: optionalText(data.message_id ?? data.id),
      receivedAt: toUtcIso(data.timestamp),
      deviceId: null,
      slot: null,
    });
  } else if (type && STATUS[type]) {
    const externalId = optionalText(data.id ?? data.message_id);
    if (externalId === null) throw invalidWebhookBody(`${type}: data needs "id"`);
    const status = STATUS[type];
    const failure = optionalText(data.failure_reason ?? data.reason) ?? (type === 'message.send.expired' ? 'expired' : 'failed');
    events.push(gatewayReport({ eventId, status, externalId, failure, at: toUtcIso(data.timestamp) }));
  }
  return { format: 'httpsms', events };
}
