import type { GatewayTestResult } from '../domain/console-records.ts';
import type { MessageRecord } from '../domain/message.ts';
import { countSegments } from '../domain/segments.ts';
import type { DriverName, GatewaySettings } from '../store/org-store.ts';
import { DRIVER_SENDERS } from './drivers.ts';

/** The text a test sends when none is given. */
export const TEST_TEXT = 'Test message from Switchboard: your gateway works.';

const ANSWER_LIMIT = 1000;

/**
 * Sends one message straight through a driver, outside the outbox (nothing is stored, nothing retried), and
 * reports the gateway's answer or why it failed: a failure is a result to show, not an error of the request.
 */
export async function testGateway(
  orgId: string,
  driver: DriverName,
  settings: GatewaySettings,
  to: string,
  body: string,
  timeoutMs: number,
  now: Date,
): Promise<GatewayTestResult> {
  if (driver === 'none') return { ok: false, driver, external_id: null, answer: 'No gateway driver is set: choose one and save it before testing.' };
  const at = now.toISOString();
  const message: MessageRecord = {
    // A record that is never stored: it names the fields of a MessageRecord, as the outbox's insert names its columns.
    id: 0,
    org_id: orgId,
    direction: 'outbound',
    sim: null,
    from: settings.from ?? '',
    to,
    body,
    status: 'sending',
    segments: countSegments(body),
    gateway: driver,
    external_id: null,
    error: null,
    received_at: null,
    sent_at: null,
    delivered_at: null,
    created_at: at,
    updated_at: at,
  };
  try {
    const result = await DRIVER_SENDERS[driver](message, settings, timeoutMs, Math.floor(now.getTime() / 1000));
    const answer = result.answer === undefined ? null : JSON.stringify(result.answer).slice(0, ANSWER_LIMIT);
    return { ok: true, driver, external_id: result.externalId, answer };
  } catch (error) {
    return { ok: false, driver, external_id: null, answer: ((error as Error).message || String(error)).slice(0, ANSWER_LIMIT) };
  }
}
