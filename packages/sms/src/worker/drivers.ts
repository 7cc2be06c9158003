import type { MessageRecord } from '../domain/message.ts';
import { timestampSignature } from '../domain/signatures.ts';
import type { DriverName, GatewaySettings } from '../store/org-store.ts';

/** A gateway refused or could not be reached; the message is retried or fails with this text. */
export class DriverError extends Error {}

/** What a gateway answered when it accepted a message. */
export interface SendResult {
  externalId: string | null;
  /** What the gateway answered (its JSON), for the console's Test. */
  answer?: unknown;
}

/** Sends one message through a driver. */
export type SendFunction = (message: MessageRecord, settings: GatewaySettings, timeoutMs: number, nowSeconds: number) => Promise<SendResult>;

async function call(url: string, init: RequestInit, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new DriverError(`gateway unreachable: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) throw new DriverError(`gateway answered ${response.status}: ${text.slice(0, 300)}`);
  try {
    return text === '' ? {} : JSON.parse(text);
  } catch {
    return {};
  }
}

function required(settings: GatewaySettings, names: Array<keyof GatewaySettings>, driver: string): void {
  const missing = names.filter((name) => !settings[name]);
  if (missing.length > 0) throw new DriverError(`${driver} driver is missing ${missing.join(', ')}`);
}

function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function field(value: unknown, ...path: string[]): string | null {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return null;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'string' || typeof current === 'number' ? String(current) : null;
}

/** SMS Gateway for Android: POST {url}/message (local server or the cloud's /3rdparty/v1), basic auth. */
const android: SendFunction = async (message, settings, timeoutMs) => {
  required(settings, ['url', 'username', 'password'], 'android');
  const slot = message.sim ? /^sim(\d+)$/i.exec(message.sim) : null;
  const body: Record<string, unknown> = { textMessage: { text: message.body }, phoneNumbers: [message.to], withDeliveryReport: true };
  if (slot) body.simNumber = Number(slot[1]);
  const answer = await call(
    `${trimSlash(settings.url!)}/message`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth(settings.username!, settings.password!) },
      body: JSON.stringify(body),
    },
    timeoutMs,
  );
  if (field(answer, 'state') === 'Failed') throw new DriverError(`android gateway refused the message: ${JSON.stringify(answer).slice(0, 300)}`);
  return { externalId: field(answer, 'id'), answer };
};

/** httpSMS: POST {url or https://api.httpsms.com}/v1/messages/send with x-api-key. */
const httpsms: SendFunction = async (message, settings, timeoutMs) => {
  required(settings, ['api_key'], 'httpsms');
  const from = message.from || settings.from;
  if (!from) throw new DriverError('httpsms driver needs --from (the phone number of the httpSMS app) or a SIM with a phone number');
  const answer = await call(
    `${trimSlash(settings.url || 'https://api.httpsms.com')}/v1/messages/send`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': settings.api_key! },
      body: JSON.stringify({ from, to: message.to, content: message.body }),
    },
    timeoutMs,
  );
  return { externalId: field(answer, 'data', 'id'), answer };
};

/** Twilio: POST {url or https://api.twilio.com}/2010-04-01/Accounts/{sid}/Messages.json, form body, basic auth sid:token. */
const twilio: SendFunction = async (message, settings, timeoutMs) => {
  required(settings, ['account_sid', 'auth_token'], 'twilio');
  const from = message.from || settings.from;
  if (!from) throw new DriverError('twilio driver needs --from (a Twilio phone number)');
  const form = new URLSearchParams({ To: message.to, From: from, Body: message.body });
  const answer = await call(
    `${trimSlash(settings.url || 'https://api.twilio.com')}/2010-04-01/Accounts/${encodeURIComponent(settings.account_sid!)}/Messages.json`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(settings.account_sid!, settings.auth_token!) },
      body: form.toString(),
    },
    timeoutMs,
  );
  return { externalId: field(answer, 'sid'), answer };
};

/** Webhook: the message record as JSON to your URL; with a signing key, X-Timestamp and X-Signature (hex HMAC-SHA256 of body + timestamp). */
const webhook: SendFunction = async (message, settings, timeoutMs, nowSeconds) => {
  required(settings, ['url'], 'webhook');
  const body = JSON.stringify(message);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (settings.signing_key) {
    const timestamp = String(nowSeconds);
    headers['x-timestamp'] = timestamp;
    headers['x-signature'] = timestampSignature(settings.signing_key, body, timestamp);
  }
  const answer = await call(settings.url!, { method: 'POST', headers, body }, timeoutMs);
  return { externalId: field(answer, 'external_id') ?? field(answer, 'id'), answer };
};

/** The send function of each driver that sends (`none` sends nothing). */
export const DRIVER_SENDERS: Record<Exclude<DriverName, 'none'>, SendFunction> = { android, httpsms, twilio, webhook };

/** Drivers that are one phone: paced per SIM so the phone does not refuse a burst. */
export const PHONE_DRIVERS = new Set<string>(['android', 'httpsms']);
