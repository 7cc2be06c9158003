import { z } from 'zod';
import { MAX_NOTE_LENGTH } from '../domain/save-request.ts';
import { MAX_STATS_HOURS } from '../domain/run-stats.ts';
import { RUN_STATUSES, RUN_TRIGGERS } from '../store/run-store.ts';
import { MAX_SECRET_LENGTH } from '../store/secret-store.ts';

/** Path parameters `{org_code}`. */
export const orgParams = z.object({ org_code: z.string() });
/** Path parameters `{org_code}/flows/{slug}`. */
export const flowParams = z.object({ org_code: z.string(), slug: z.string() });
/** Path parameters `{org_code}/flows/{slug}/versions/{version}`. */
export const versionParams = z.object({
  org_code: z.string(),
  slug: z.string(),
  version: z.coerce.number().int().min(1).describe('a version number of the flow'),
});
/** Path parameters `{org_code}/runs/{run_id}`. */
export const runParams = z.object({ org_code: z.string(), run_id: z.string() });
/** Path parameters `{org_code}/tokens/{token_id}`. */
export const tokenParams = z.object({ org_code: z.string(), token_id: z.string() });
/** Path parameters `{org_code}/providers/{name}`. */
export const providerParams = z.object({ org_code: z.string(), name: z.string() });

/** Run request body, documented; checked by domain/run-request.ts for exact error messages. */
export const runBody = z.any().describe('{"input": {...}, "stream"?: boolean, "metadata"?: {...}}: input keys must match the Input node');

/** Chat completion request body, documented; checked by domain/run-request.ts. */
export const chatBody = z.any().describe('OpenAI chat completion request: {"model": "service-flow", "messages": [...], "stream"?: boolean, "input"?: {...}}');

/** A flow definition (design/flows.md), checked by domain/flow-validation.ts; `note` and `base_version` by domain/save-request.ts. */
export const definitionBody = z
  .any()
  .describe(
    'Flow definition: {"name", "slug"?, "description"?, "nodes": [{"id", "type", "data", "position"?: {"x", "y"}}], "edges": [{"from", "to"}]}, ' +
      `plus, never stored in it, "note"? (at most ${MAX_NOTE_LENGTH} characters, shown in the version history) and "base_version"? ` +
      '(the version the edit started from: 409 version_conflict unless it is still the latest; the header If-Match: "N" says the same)',
  );

/** Body of a version restore. */
export const restoreBody = z
  .object({
    note: z.string().max(MAX_NOTE_LENGTH).optional().describe('default "Restored version N"'),
    base_version: z.number().int().min(1).optional().describe('409 version_conflict unless this is still the latest version'),
  })
  // No body at all (null) is fine too.
  .nullish();

/** Query of the runs list. */
export const runsQuery = z.object({
  flow: z.string().optional().describe('slug of a flow'),
  status: z.enum(RUN_STATUSES, { error: `status must be one of ${RUN_STATUSES.join(', ')}` }).optional(),
  trigger: z
    .enum(RUN_TRIGGERS, { error: `trigger must be one of ${RUN_TRIGGERS.join(', ')}` })
    .optional()
    .describe('what started the runs'),
  limit: z.coerce.number().int().min(1).max(200).optional().describe('runs per page (default 50)'),
  before: z.string().optional().describe('the next_before of the previous page (or a timestamp: runs started before it)'),
});

/** Query of the statistics. */
export const statsQuery = z.object({
  hours: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_STATS_HOURS)
    .optional()
    .describe(`hours covered, ending with the current one (default 24, at most ${MAX_STATS_HOURS})`),
});

/** Body of a knowledge-base query. */
export const kbQueryBody = z.object({
  query: z.string().min(1).max(10_000),
  top_k: z.number().int().min(1).max(20).optional().describe('results wanted (default 5)'),
});

/** Body of token creation. */
export const tokenBody = z.object({ name: z.string().min(1).max(100).optional(), scope: z.enum(['run', 'manage']).optional() }).optional();

/** Body of a provider connection. */
export const providerBody = z.object({
  kind: z.enum(['openai', 'anthropic', 'openai-compatible']),
  base_url: z.string().optional(),
  api_key: z.string().nullable().optional().describe('omitted on an update: the stored key is kept; null or "" removes it'),
});

/** Query of a provider's model list. */
export const modelsQuery = z.object({
  refresh: z.enum(['true', 'false']).optional().describe('true: ask the provider again instead of using the 10-minute cache'),
});

/** Path of one secret. */
export const secretParams = z.object({ org_code: z.string(), name: z.string().describe('1-64 letters, digits and "_", not starting with a digit') });

/** Body of a secret: its value (its length is checked by the store, whose messages never repeat it). */
export const secretBody = z.object({ value: z.string().describe(`the secret, 1 to ${MAX_SECRET_LENGTH} characters; stored encrypted and never returned`) });

/** Bearer security requirement shared by every API route. */
export const bearer = [{ bearerAuth: [] }];
