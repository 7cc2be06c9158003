import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far an `X-Timestamp` may be from our clock. */
export const SIGNATURE_WINDOW_SECONDS = 300;

function equalBytes(expected: Buffer, presented: Buffer): boolean {
  if (expected.length !== presented.length) return false;
  return timingSafeEqual(expected, presented);
}

/** hex HMAC-SHA256(key, body bytes followed by the timestamp): the SMS Gateway for Android scheme, also used by our webhook driver. */
export function timestampSignature(key: string, body: Buffer | string, timestamp: string): string {
  return createHmac('sha256', key).update(body).update(timestamp).digest('hex');
}

/**
 * Checks an `X-Signature` / `X-Timestamp` pair in constant time, refusing
 * timestamps more than five minutes from `nowSeconds`.
 */
export function verifyTimestampSignature(key: string, body: Buffer, timestamp: string | undefined, signature: string | undefined, nowSeconds: number): boolean {
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) return false;
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  return equalBytes(Buffer.from(timestampSignature(key, body, timestamp), 'hex'), Buffer.from(signature, 'hex'));
}

/** Base64 HMAC-SHA1 over the full URL followed by every POST parameter name and value, sorted by name (Twilio's scheme). */
export function twilioSignature(authToken: string, url: string, params: Array<[string, string]>): string {
  const sorted = [...params].sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const hmac = createHmac('sha1', authToken).update(url);
  for (const [name, value] of sorted) hmac.update(name + value);
  return hmac.digest('base64');
}

/** Checks `X-Twilio-Signature` in constant time. */
export function verifyTwilioSignature(authToken: string, url: string, params: Array<[string, string]>, signature: string | undefined): boolean {
  if (!signature) return false;
  return equalBytes(Buffer.from(twilioSignature(authToken, url, params)), Buffer.from(signature));
}
