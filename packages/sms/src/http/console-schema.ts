import { z } from 'zod';
import { GATEWAY_DRIVERS } from '../domain/gateway-fields.ts';
import { simSchema } from '../domain/message.ts';

// The console's endpoints in /openapi.json (README, "Console API"). As for the rest of the service, requests
// are checked by domain/console-validation.ts, in pydantic's words.

/** `{org_id}` of the console's paths. */
export const consoleOrgParams = z.object({ org_id: z.string() });

/** Query of the conversation list and of a thread. */
export const consoleQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('at most this many (1 to 200)'),
  before: z.coerce.number().int().min(1).optional().describe('the page before this position: next_before (conversations) or next_before_id (a thread)'),
  direction: z.enum(['inbound', 'outbound']).optional().describe('only messages of this direction'),
  sim: z.string().optional().describe('only messages of this SIM (its id such as sim1, or its phone number)'),
});

/** Body of POST …/conversations/{peer}/read. */
export const readBodySchema = z.object({ up_to_id: z.number().int().min(1).describe("the last message read (the thread's latest id shown)") });

/** A key as listed (never the secret). */
export const keyListingSchema = z.object({
  key_id: z.number().int(),
  name: z.string(),
  hint: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});

/** Body of POST …/keys and its answer (the secret, this once). */
export const keyBodySchema = z.object({ name: z.string().min(1).max(100) });
export const createdKeySchema = z.object({ key_id: z.number().int(), name: z.string(), secret_key: z.string() });

/** A driver's settings as GET …/gateway answers them (gateway-fields.ts DriverSettings). */
export const driverSettingsSchema = z.object({
  driver: z.enum(GATEWAY_DRIVERS),
  settings: z.object({ url: z.string().nullable(), username: z.string().nullable(), account_sid: z.string().nullable(), from: z.string().nullable() }),
  secrets: z
    .object({ password: z.boolean(), api_key: z.boolean(), auth_token: z.boolean(), signing_key: z.boolean() })
    .describe('whether each credential is set (never its value)'),
  updated_at: z.string().nullable(),
});

/** GET …/gateway: the sending driver, each configured driver's settings (credentials only as set or not), and what to give a gateway. */
export const gatewayViewSchema = z.object({
  driver: z.enum(GATEWAY_DRIVERS).describe('the driver that sends'),
  drivers: z.array(driverSettingsSchema),
  webhook_url: z.string().describe("POST /webhook at this service's public URL: give it to the gateway with ?key=SECRET_KEY (or the key in a header)"),
});

/** Body of PUT …/gateway. */
export const gatewayBodySchema = z
  .object({
    driver: z.enum(GATEWAY_DRIVERS),
    url: z.string().nullable().optional(),
    username: z.string().nullable().optional(),
    account_sid: z.string().nullable().optional(),
    from: z.string().nullable().optional(),
    password: z.string().nullable().optional(),
    api_key: z.string().nullable().optional(),
    auth_token: z.string().nullable().optional(),
    signing_key: z.string().nullable().optional(),
  })
  .describe(
    'Makes `driver` the sending driver with these settings. A plain setting given replaces the stored one (empty or null removes it); a credential given replaces it, null removes it, and one left out or empty is kept.',
  );

/** Body of POST …/gateway/test and its answer. */
export const testBodySchema = z.object({
  to: z.string().describe('a phone number to send the test to'),
  body: z.string().optional().describe('the text (default: a test message)'),
});
export const testResultSchema = z.object({
  ok: z.boolean(),
  driver: z.string(),
  external_id: z.string().nullable().describe("the gateway's id for the message, when it accepted it"),
  answer: z.string().nullable().describe('what the gateway answered (its JSON, at most 1,000 characters), or why it failed'),
});

/** Body of PATCH …/sims/{sim}. */
export const simBodySchema = z.object({ label: z.string().max(100).nullable().optional(), phone_number: z.string().nullable().optional() });
export const simListSchema = z.object({ sims: z.array(simSchema) });
