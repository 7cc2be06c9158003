import { z } from 'zod';

// These schemas document the API (/openapi.json). Requests are checked by
// domain/validation.ts instead, because clients expect pydantic's exact 422 wording.

/** A message record. */
export const messageSchema = z.object({
  id: z.number().int(),
  org_id: z.string(),
  direction: z.enum(['inbound', 'outbound']),
  sim: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  body: z.string(),
  status: z.enum(['received', 'queued', 'sending', 'sent', 'delivered', 'failed']),
  segments: z.number().int(),
  gateway: z.string().nullable(),
  external_id: z.string().nullable(),
  error: z.string().nullable(),
  received_at: z.string().nullable(),
  sent_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The listing envelope. */
export const messagePageSchema = z.object({
  messages: z.array(messageSchema),
  count: z.number().int(),
  next_since_id: z.number().int(),
  has_more: z.boolean(),
});

/** Query of both listings. */
export const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('at most this many messages (1 to 1000)'),
  since_id: z.coerce.number().int().min(0).default(0).describe('only messages with a larger id; pass next_since_id back'),
  direction: z.enum(['inbound', 'outbound']).nullable().optional().describe('only this direction'),
  sim: z.string().nullable().optional().describe('only this SIM (its id such as sim1, or its phone number)'),
});

/** A SIM record. */
export const simSchema = z.object({
  sim: z.string(),
  label: z.string().nullable(),
  phone_number: z.string().nullable(),
  device_id: z.string().nullable(),
  slot: z.number().int().nullable(),
  message_count: z.number().int(),
  inbound_count: z.number().int(),
  outbound_count: z.number().int(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
});

/** Body of POST /send. */
export const sendBodySchema = z.object({
  to: z.string().describe('recipient: + and 3 to 15 digits (spaces, dashes and parentheses are ignored)'),
  body: z.string().min(1).max(1600),
  sim: z.string().nullable().optional().describe('SIM to send from, e.g. sim1'),
});

/** Answer of POST /send. */
export const sendResponseSchema = messageSchema.extend({ warning: z.string().optional() });

/** pydantic's validation error. */
export const validationErrorSchema = z.object({
  detail: z.array(
    z.object({
      loc: z.array(z.union([z.string(), z.number()])),
      msg: z.string(),
      type: z.string(),
      input: z.unknown().optional(),
      ctx: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});

/** Any other error. */
export const detailSchema = z.object({ detail: z.string() });

/** Answer of POST /webhook. */
export const webhookResponseSchema = z.object({
  status: z.literal('ok'),
  stored: z.array(z.number().int()),
  duplicates: z.number().int(),
  updated: z.number().int(),
});

/** Answer of GET /health. */
export const healthSchema = z.object({ status: z.string(), version: z.string(), database: z.string() });

/** Path of the listings with the key in the path. */
export const orgKeyParams = z.object({ org_id: z.string(), secret_key: z.string() });
/** Path of the header-authenticated endpoints. */
export const orgParams = z.object({ org_id: z.string() });
