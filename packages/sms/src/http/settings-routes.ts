import { AppError, baseUrlOf, type App } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { validateGatewayBody, validateKeyBody, validateSimBody, validateTestBody } from '../domain/console-validation.ts';
import { GATEWAY_DRIVERS, mergeSettings, missingSettings, presentDriverSettings, type GatewayDriver } from '../domain/gateway-fields.ts';
import { simSchema } from '../domain/message.ts';
import type { ValidationIssue } from '../domain/validation.ts';
import type { CreatedKey, GatewayView } from '../domain/console-records.ts';
import { TEST_TEXT, testGateway } from '../worker/gateway-test.ts';
import { callerOf, requireUser } from './caller.ts';
import { CONSOLE_SECURITY } from './console-routes.ts';
import {
  consoleOrgParams,
  createdKeySchema,
  gatewayBodySchema,
  gatewayViewSchema,
  keyBodySchema,
  keyListingSchema,
  simBodySchema,
  simListSchema,
  testBodySchema,
  testResultSchema,
} from './console-schema.ts';
import type { SmsContext } from './context.ts';
import { validationFailed } from './error-handler.ts';
import { decodeBody } from './request-body.ts';
import { handValidated } from './route-options.ts';
import { detailSchema, validationErrorSchema } from './schema.ts';

const TAGS = ['console'];
const ERRORS = { 401: detailSchema, 403: detailSchema, 404: detailSchema, 422: validationErrorSchema };
const orgOf = (request: FastifyRequest) => (request.params as { org_id: string }).org_id;
const bodyOf = (request: FastifyRequest) => decodeBody(request.body, request.headers['content-type']);

/** An organization's gateway as the console shows it: the sending driver, every configured driver (never a credential) and the webhook URL. */
async function gatewayView(context: SmsContext, request: FastifyRequest, orgId: string): Promise<GatewayView> {
  const [driver, rows] = await Promise.all([context.orgs.activeDriver(orgId), context.orgs.gateways(orgId)]);
  const drivers = rows
    .filter((row) => row.driver !== 'none' && (GATEWAY_DRIVERS as readonly string[]).includes(row.driver))
    .map((row) => presentDriverSettings(row.driver as GatewayDriver, row.settings, row.updated_at));
  return { driver, drivers, webhook_url: `${baseUrlOf(request, context.config.publicBaseUrl)}/webhook` };
}

/**
 * The console's settings endpoints (README, "Console API"): the gateway (read, set, test), the secret keys
 * (list, create, revoke: a signed-in user's), and the SIMs' labels and numbers.
 */
export function registerSettingsRoutes(app: App, context: SmsContext): void {
  app.get(
    '/api/orgs/:org_id/gateway',
    {
      ...handValidated,
      schema: {
        tags: TAGS,
        summary: "The organization's gateway: sending driver, settings (credentials as set or not), webhook URL",
        security: CONSOLE_SECURITY,
        params: consoleOrgParams,
        response: { 200: gatewayViewSchema, ...ERRORS },
      },
    },
    async (request) => {
      const caller = await callerOf(context, request, orgOf(request));
      return gatewayView(context, request, caller.orgId);
    },
  );

  app.put(
    '/api/orgs/:org_id/gateway',
    {
      ...handValidated,
      schema: {
        tags: TAGS,
        summary: 'Sets a driver and makes it the sending driver (credentials write-only)',
        security: CONSOLE_SECURITY,
        params: consoleOrgParams,
        body: gatewayBodySchema,
        response: { 200: gatewayViewSchema, ...ERRORS },
      },
    },
    async (request) => {
      const parsed = validateGatewayBody(bodyOf(request));
      if (!parsed.ok) throw validationFailed(parsed.issues);
      const caller = await callerOf(context, request, orgOf(request));
      const { driver, settings: change } = parsed.value;
      const settings = mergeSettings((await context.orgs.gatewaySettings(caller.orgId, driver)) ?? {}, change);
      const missing = missingSettings(driver, settings);
      if (missing.length > 0) {
        const issues: ValidationIssue[] = missing.map((field) => ({ type: 'missing', loc: ['body', field.name], msg: 'Field required', input: change }));
        throw validationFailed(issues);
      }
      await context.orgs.setGateway(caller.orgId, driver, settings, new Date());
      request.log.info({ org_id: caller.orgId, driver, by: caller.kind === 'user' ? caller.user.email : `key ${caller.keyId}` }, 'gateway set');
      return gatewayView(context, request, caller.orgId);
    },
  );

  app.post(
    '/api/orgs/:org_id/gateway/test',
    {
      ...handValidated,
      schema: {
        tags: TAGS,
        summary: 'Sends one message through the sending driver now and answers what the gateway said',
        description:
          "Nothing is stored or retried. A gateway that refuses or cannot be reached is `ok: false` with its answer; counted against the organization's send rate.",
        security: CONSOLE_SECURITY,
        params: consoleOrgParams,
        body: testBodySchema,
        response: { 200: testResultSchema, 429: detailSchema, ...ERRORS },
      },
    },
    async (request) => {
      const parsed = validateTestBody(bodyOf(request));
      if (!parsed.ok) throw validationFailed(parsed.issues);
      const caller = await callerOf(context, request, orgOf(request));
      const decision = await context.limiter.hit(`sms:send:${caller.orgId}`, context.config.sendRateLimit);
      if (!decision.allowed) throw new AppError('rate_limited', 'Rate limit exceeded', undefined, decision.retryAfterSeconds);
      const { driver, settings } = await context.orgs.activeGateway(caller.orgId);
      return testGateway(caller.orgId, driver, settings, parsed.value.to, parsed.value.body ?? TEST_TEXT, context.config.sendTimeoutMs, new Date());
    },
  );

  app.get(
    '/api/orgs/:org_id/keys',
    {
      ...handValidated,
      schema: {
        tags: TAGS,
        summary: "The organization's secret keys (never the secrets)",
        security: CONSOLE_SECURITY,
        params: consoleOrgParams,
        response: { 200: z.object({ keys: z.array(keyListingSchema) }), ...ERRORS },
      },
    },
    async (request) => {
      const caller = await callerOf(context, request, orgOf(request));
      requireUser(caller);
      return { keys: await context.orgs.listKeys(caller.orgId) };
    },
  );

  app.post(
    '/api/orgs/:org_id/keys',
    {
      ...handValidated,
      schema: {
        tags: TAGS,
        summary: 'Creates a secret key: the answer is the only time it is shown',
        security: [{ session: [] }],
        params: consoleOrgParams,
        body: keyBodySchema,
        response: { 201: createdKeySchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const parsed = validateKeyBody(bodyOf(request));
      if (!parsed.ok) throw validationFailed(parsed.issues);
      const caller = await callerOf(context, request, orgOf(request));
      const user = requireUser(caller);
      const created = await context.orgs.createKey(caller.orgId, parsed.value.name, new Date());
      request.log.info({ org_id: caller.orgId, key_id: created.keyId, by: user.email }, 'secret key created');
      reply.code(201).header('cache-control', 'no-store');
      const answer: CreatedKey = { key_id: created.keyId, name: parsed.value.name, secret_key: created.secretKey };
      return answer;
    },
  );

  app.delete(
    '/api/orgs/:org_id/keys/:key_id',
    {
      ...handValidated,
      schema: {
        tags: TAGS,
        summary: 'Revokes a key: it fails on its very next request, on every instance',
        security: [{ session: [] }],
        params: consoleOrgParams.extend({ key_id: z.string() }),
        response: { 200: z.object({ revoked: z.literal(true) }), ...ERRORS },
      },
    },
    async (request) => {
      const raw = (request.params as { key_id: string }).key_id;
      if (!/^\d{1,15}$/.test(raw))
        throw validationFailed([
          { type: 'int_parsing', loc: ['path', 'key_id'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: raw },
        ]);
      const caller = await callerOf(context, request, orgOf(request));
      const user = requireUser(caller);
      await context.orgs.revokeKey(caller.orgId, Number(raw), new Date());
      request.log.info({ org_id: caller.orgId, key_id: Number(raw), by: user.email }, 'secret key revoked');
      return { revoked: true as const };
    },
  );

  app.get(
    '/api/orgs/:org_id/sims',
    {
      ...handValidated,
      schema: {
        tags: TAGS,
        summary: 'The SIMs the organization has seen',
        security: CONSOLE_SECURITY,
        params: consoleOrgParams,
        response: { 200: simListSchema, ...ERRORS },
      },
    },
    async (request) => {
      const caller = await callerOf(context, request, orgOf(request));
      return { sims: await context.orgs.listSims(caller.orgId) };
    },
  );

  app.patch(
    '/api/orgs/:org_id/sims/:sim',
    {
      ...handValidated,
      schema: {
        tags: TAGS,
        summary: "Sets a SIM's label and phone number (null clears one; a new SIM is registered)",
        security: CONSOLE_SECURITY,
        params: consoleOrgParams.extend({ sim: z.string() }),
        body: simBodySchema,
        response: { 200: simSchema, ...ERRORS },
      },
    },
    async (request) => {
      const parsed = validateSimBody(bodyOf(request));
      if (!parsed.ok) throw validationFailed(parsed.issues);
      const sim = (request.params as { sim: string }).sim;
      if (sim.length === 0 || sim.length > 64 || sim.includes('\u0000')) {
        throw validationFailed([
          { type: 'value_error', loc: ['path', 'sim'], msg: 'Value error, a SIM id is 1 to 64 characters', input: sim, ctx: { error: {} } },
        ]);
      }
      const caller = await callerOf(context, request, orgOf(request));
      return context.orgs.setSim(caller.orgId, sim, parsed.value, new Date());
    },
  );
}
