import { z } from 'zod';
import { messageSchema } from '../domain/message.ts';

// These schemas document the API (/openapi.json). Requests are checked by
// domain/validation.ts instead, because clients expect pydantic's exact 422 wording.

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
