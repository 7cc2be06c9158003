import { gatewayReport, invalidWebhookBody, type ParsedWebhook, type WebhookEvent } from './webhook-event.ts';

const STATUS: Record<string, 'sent' | 'delivered' | 'failed'> = {
  sent: 'sent',
  delivered: 'delivered',
  failed: 'failed',
  undelivered: 'failed',
};

/** The empty TwiML document Twilio expects back (no reply message). */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/** Reads a Twilio form post: an inbound message or a status callback (other statuses give no events). */
export function parseTwilio(params: Map<string, string>): ParsedWebhook {
  const sid = params.get('MessageSid') ?? params.get('SmsSid');
  if (!sid) throw invalidWebhookBody('Twilio request without MessageSid');
  const status = params.get('MessageStatus') ?? params.get('SmsStatus');
  const events: WebhookEvent[] = [];
  if (params.has('Body') && (status === undefined || status === 'received' || status === 'receiving')) {
    events.push({
      kind: 'received',
      eventId: sid,
      sim: null,
      from: params.get('From') ?? '',
      to: params.get('To') ?? null,
      body: params.get('Body') ?? '',
      externalId: sid,
      receivedAt: null,
      deviceId: null,
      slot: null,
    });
  } else if (status && STATUS[status]) {
    const errorCode = params.get('ErrorCode');
    const failure = errorCode ? `Twilio error ${errorCode} (${status})` : status;
    events.push(gatewayReport({ eventId: `${sid}:${status}`, status: STATUS[status], externalId: sid, failure, at: null }));
  }
  return { format: 'twilio', events };
}

/** Form parameters in order, keeping repeated names (Twilio signs every one). */
export function parseForm(text: string): Array<[string, string]> {
  return [...new URLSearchParams(text).entries()];
}
