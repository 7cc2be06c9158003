import { invalidWebhookBody, isRecord, optionalText, toUtcIso, type ParsedWebhook, type WebhookEvent } from './webhook-event.ts';

const STATUS_EVENTS: Record<string, 'sent' | 'delivered' | 'failed'> = { 'sms.sent': 'sent', 'sms.delivered': 'delivered', 'sms.failed': 'failed' };

/** True when a JSON body looks like our own format (one event or a batch). */
export function isNativeBody(body: Record<string, unknown>): boolean {
  return Array.isArray(body.events) || (typeof body.event === 'string' && body.event.startsWith('sms.'));
}

/** Reads a native webhook body: `{"event": …}` or `{"events": [...]}`. */
export function parseNative(body: Record<string, unknown>): ParsedWebhook {
  if (Array.isArray(body.events)) {
    return { format: 'native', events: body.events.map((event, index) => nativeEvent(event, `events[${index}]`)) };
  }
  return { format: 'native', events: [nativeEvent(body, 'body')] };
}

function nativeEvent(value: unknown, where: string): WebhookEvent {
  if (!isRecord(value)) throw invalidWebhookBody(`${where}: expected an object with "event"`);
  const event = value.event;
  if (event === 'sms.received') {
    const message = value.message;
    if (!isRecord(message)) throw invalidWebhookBody(`${where}: "sms.received" needs a "message" object with "from", "to" and "body"`);
    for (const field of ['from', 'to', 'body']) {
      if (typeof message[field] !== 'string') throw invalidWebhookBody(`${where}.message.${field}: expected a string`);
    }
    const externalId = optionalText(message.external_id);
    return {
      kind: 'received',
      eventId: externalId,
      sim: optionalText(message.sim),
      from: message.from as string,
      to: message.to as string,
      body: message.body as string,
      externalId,
      receivedAt: toUtcIso(message.received_at),
      deviceId: null,
      slot: null,
    };
  }
  const status = typeof event === 'string' ? STATUS_EVENTS[event] : undefined;
  if (status) {
    const id = value.id;
    const externalId = optionalText(value.external_id);
    if (id !== undefined && id !== null && !(typeof id === 'number' && Number.isSafeInteger(id))) {
      throw invalidWebhookBody(`${where}.id: expected the integer id of one of our messages`);
    }
    if ((id === undefined || id === null) && externalId === null) {
      throw invalidWebhookBody(`${where}: a delivery report needs "id" (our message id) or "external_id"`);
    }
    return {
      kind: 'status',
      eventId: null,
      status,
      messageId: typeof id === 'number' ? id : null,
      externalId,
      error: optionalText(value.error),
      at: toUtcIso(value.at),
    };
  }
  throw invalidWebhookBody(`${where}.event: expected "sms.received", "sms.sent", "sms.delivered" or "sms.failed"`);
}
