import { AppError, baseUrlOf, type App } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import { jwtVerify } from 'jose';
import { decodeJson } from '../domain/python-json.ts';
import { verifyTimestampSignature, verifyTwilioSignature } from '../domain/signatures.ts';
import { isAndroidBody, parseAndroid } from '../domain/webhook-android.ts';
import { isRecord, rejectNulText, type ParsedWebhook } from '../domain/webhook-event.ts';
import { isHttpSmsBody, parseHttpSms } from '../domain/webhook-httpsms.ts';
import { isNativeBody, parseNative } from '../domain/webhook-native.ts';
import { EMPTY_TWIML, parseForm, parseTwilio } from '../domain/webhook-twilio.ts';
import type { SmsContext } from './context.ts';
import { header, invalidCredentials, presentedKey } from './credentials.ts';
import { isJsonType, mediaType, rawBody } from './request-body.ts';
import { handValidated } from './route-options.ts';
import { detailSchema, webhookResponseSchema } from './schema.ts';
import { z } from 'zod';

/** The 400 answer for a body of no known format. */
export const UNRECOGNIZED_WEBHOOK =
  'Unrecognized webhook body. Expected one of: native JSON ({"event": "sms.received", "message": {"from", "to", "body"}}, ' +
  'a delivery report {"event": "sms.sent"|"sms.delivered"|"sms.failed", "id" or "external_id"}, or a batch {"events": [...]}); ' +
  'SMS Gateway for Android JSON ({"deviceId", "event", "id", "payload"}); httpSMS CloudEvents JSON ({"specversion", "id", "type", "data"}); ' +
  'or Twilio form-encoded (application/x-www-form-urlencoded with MessageSid).';

/** Recognizes the format and normalizes the events (no I/O). */
function parseWebhook(request: FastifyRequest, raw: Buffer | undefined): { parsed: ParsedWebhook; form?: Array<[string, string]> } {
  if (raw === undefined) throw new AppError('invalid_request', UNRECOGNIZED_WEBHOOK);
  const type = mediaType(request.headers['content-type']);
  if (type === 'application/x-www-form-urlencoded') {
    const form = parseForm(raw.toString('utf8'));
    return { parsed: parseTwilio(new Map(form)), form };
  }
  if (type !== undefined && !isJsonType(type) && type !== 'text/plain') throw new AppError('invalid_request', UNRECOGNIZED_WEBHOOK);
  const decoded = decodeJson(raw.toString('utf8'));
  if (!decoded.ok) {
    throw new AppError('invalid_json', `Malformed JSON body: ${decoded.error.msg} (at character ${decoded.error.pos}). ${UNRECOGNIZED_WEBHOOK}`);
  }
  const body = decoded.value;
  if (!isRecord(body)) throw new AppError('invalid_request', UNRECOGNIZED_WEBHOOK);
  if (isHttpSmsBody(body)) return { parsed: parseHttpSms(body, header(request, 'x-event-type')) };
  if (isAndroidBody(body)) return { parsed: parseAndroid(body) };
  if (isNativeBody(body)) return { parsed: parseNative(body) };
  throw new AppError('invalid_request', UNRECOGNIZED_WEBHOOK);
}

/**
 * The format's own signature, when the organization configured its key:
 * Android app (X-Signature over body + X-Timestamp), httpSMS (JWT in
 * Authorization), Twilio (X-Twilio-Signature). Native needs only the secret key.
 */
async function verifySignature(
  context: SmsContext,
  request: FastifyRequest,
  orgId: string,
  raw: Buffer,
  parsed: ParsedWebhook,
  form?: Array<[string, string]>,
): Promise<void> {
  if (parsed.format === 'native') return;
  const settings = await context.orgs.gatewaySettings(orgId, parsed.format);
  if (parsed.format === 'android' && settings?.signing_key) {
    const ok = verifyTimestampSignature(
      settings.signing_key,
      raw,
      header(request, 'x-timestamp'),
      header(request, 'x-signature'),
      Math.floor(Date.now() / 1000),
    );
    if (!ok) throw invalidCredentials();
  }
  if (parsed.format === 'httpsms' && settings?.signing_key) {
    const match = /^Bearer\s+(\S+)$/i.exec(header(request, 'authorization') ?? '');
    if (!match) throw invalidCredentials();
    try {
      await jwtVerify(match[1], new TextEncoder().encode(settings.signing_key), { algorithms: ['HS256'] });
    } catch {
      throw invalidCredentials();
    }
  }
  if (parsed.format === 'twilio' && settings?.auth_token) {
    const url = baseUrlOf(request, context.config.publicBaseUrl) + request.url;
    if (!verifyTwilioSignature(settings.auth_token, url, form ?? [], header(request, 'x-twilio-signature'))) throw invalidCredentials();
  }
}

/** POST /webhook: messages and delivery reports from gateways, in four formats. */
export function registerWebhookRoutes(app: App, context: SmsContext): void {
  app.post(
    '/webhook',
    {
      ...handValidated,
      schema: {
        summary: 'Receive messages and delivery reports from a gateway',
        description:
          'Credential: X-Secret-Key, Authorization: Bearer, or ?key=KEY. Formats: native JSON, SMS Gateway for Android, httpSMS (CloudEvents), Twilio (form). Idempotent on the gateway event id.',
        querystring: z.object({ key: z.string().optional().describe('secret key, for gateways that can only be given a URL') }),
        response: { 200: webhookResponseSchema, 400: detailSchema, 401: detailSchema, 413: detailSchema },
      },
    },
    async (request, reply) => {
      const key = presentedKey(request, true);
      const orgId = key ? await context.orgs.organizationOfKey(key, new Date()) : undefined;
      if (!orgId) throw invalidCredentials();
      const raw = rawBody(request.body);
      const { parsed, form } = parseWebhook(request, raw);
      rejectNulText(parsed.events);
      await verifySignature(context, request, orgId, raw!, parsed, form);
      const outcome = await context.messages.applyWebhook(orgId, parsed.format, parsed.events, new Date());
      if (parsed.format === 'twilio') return reply.type('text/xml; charset=utf-8').send(EMPTY_TWIML as never); // TwiML, not the JSON schema: Twilio reads it as its reply instructions
      return { status: 'ok' as const, stored: outcome.stored, duplicates: outcome.duplicates, updated: outcome.updated };
    },
  );
}
