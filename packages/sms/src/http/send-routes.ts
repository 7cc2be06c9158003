import { AppError, type App } from '@switchboard/core';
import { validateSendBody } from '../domain/validation.ts';
import type { SmsContext } from './context.ts';
import { callerOf } from './caller.ts';
import { header } from './credentials.ts';
import { validationFailed } from './error-handler.ts';
import { decodeBody } from './request-body.ts';
import { handValidated } from './route-options.ts';
import { detailSchema, orgParams, sendBodySchema, sendResponseSchema, validationErrorSchema } from './schema.ts';
import { z } from 'zod';

/** Shown in the send answer while an organization has no driver. */
export const NO_DRIVER_WARNING =
  'No gateway driver is configured for this organization: the message stays queued until one is set (switchboard sms gateway set ORG_ID --driver ...).';

/** POST /send/{org_id}: queue a message for the organization's gateway. */
export function registerSendRoutes(app: App, context: SmsContext): void {
  app.post(
    '/send/:org_id',
    {
      ...handValidated,
      schema: {
        summary: "Send a message (queued, then delivered through the organization's gateway driver)",
        description:
          'Authenticate with Authorization: Bearer KEY or X-Secret-Key: KEY, or the sb_session cookie of a signed-in user who may see the organization (with the Origin of this service). Optional Idempotency-Key header: a repeat within 24 hours returns the first message and sends nothing.',
        params: orgParams,
        headers: z.object({ 'idempotency-key': z.string().optional() }),
        body: sendBodySchema,
        response: { 200: sendResponseSchema, 401: detailSchema, 422: validationErrorSchema, 429: detailSchema },
      },
    },
    async (request) => {
      const orgId = (request.params as { org_id: string }).org_id;
      const parsed = validateSendBody(decodeBody(request.body, request.headers['content-type']));
      if (!parsed.ok) throw validationFailed(parsed.issues);
      await callerOf(context, request, orgId);
      const decision = await context.limiter.hit(`sms:send:${orgId}`, context.config.sendRateLimit);
      if (!decision.allowed) throw new AppError('rate_limited', 'Rate limit exceeded', undefined, decision.retryAfterSeconds);
      const idempotencyKey = header(request, 'idempotency-key');
      if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) {
        throw new AppError('invalid_request', 'Idempotency-Key must be 1 to 255 characters');
      }
      const { driver, settings } = await context.orgs.activeGateway(orgId);
      const { message, repeated } = await context.outbox.enqueue(orgId, parsed.value, {
        idempotencyKey,
        from: settings.from ?? '',
        gateway: driver === 'none' ? null : driver,
        now: new Date(),
      });
      if (!repeated) context.worker.kick();
      return driver === 'none' ? { ...message, warning: NO_DRIVER_WARNING } : message;
    },
  );
}
