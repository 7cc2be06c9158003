import { z } from 'zod';
import { messageSchema } from './message.ts';

// The console's records (README, "Console"), declared once: the TypeScript types, /openapi.json and the UI's client.

/** A conversation: one per other party's number, its latest message and how many of its inbound messages the caller has not read. */
export const conversationSchema = z.object({
  peer: z.string().describe("the other party's number: from of an inbound message, to of an outbound one"),
  last_message: messageSchema,
  message_count: z.number().int(),
  unread: z.number().int().describe("inbound messages after the caller's read mark"),
});

/** A conversation as GET /api/orgs/{org_id}/conversations lists it. */
export type Conversation = z.infer<typeof conversationSchema>;

/** A page of conversations, the latest message first; `next_before` pages on (null at the end). */
export const conversationPageSchema = z.object({
  conversations: z.array(conversationSchema),
  next_before: z.number().int().nullable(),
  seq: z.number().int().describe("the organization's change number the page reflects at least: open the live stream with ?since=seq to miss nothing after it"),
});

/** A page of conversations. */
export type ConversationPage = z.infer<typeof conversationPageSchema>;

/** A page of a conversation's messages, ascending by id: the `limit` latest before `before_id`; `next_before_id` pages back (null at the start). */
export const threadPageSchema = z.object({
  peer: z.string(),
  messages: z.array(messageSchema),
  next_before_id: z.number().int().nullable(),
});

/** A page of a thread. */
export type ThreadPage = z.infer<typeof threadPageSchema>;

/** One commit's changes as the console's stream sends them (`event: messages`, `id: SEQ`): the messages it inserted or changed, as they are now. */
export const changeBatchSchema = z.object({
  seq: z.number().int(),
  messages: z.array(messageSchema),
});

/** One commit's changes. */
export type ChangeBatch = z.infer<typeof changeBatchSchema>;
