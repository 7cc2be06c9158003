import { isolatedOpenAIOptions } from '@switchboard/core';
import type { ProviderConnection } from '../store/org-store.ts';
import { providerFetch } from './http-fetch.ts';
import { providerError, scrubSecrets, unreachableIn } from './run-errors.ts';

/** What a provider check answers: the provider's model ids, or its error (never the key). */
export type ProviderCheck = { ok: true; models: string[] } | { ok: false; error: string };

/** Longest a check waits for the provider. */
export const PROVIDER_CHECK_TIMEOUT_MS = 10_000;
// Model lists are a page or two; a misbehaving server that pages forever is cut here.
const MAX_MODELS = 2000;

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/**
 * Lists a connection's models with the provider's official SDK (the `openai`
 * client for `openai` and `openai-compatible`, `@anthropic-ai/sdk` for
 * `anthropic`), over the same transport as model calls. Provider addresses
 * are not SSRF-checked, as for model calls: local servers are the point of
 * `openai-compatible` connections, and only `manage` callers set them.
 */
export async function checkProvider(connection: ProviderConnection, timeoutMs = PROVIDER_CHECK_TIMEOUT_MS): Promise<ProviderCheck> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const models = connection.kind === 'anthropic' ? await anthropicModels(connection, signal, timeoutMs) : await openaiModels(connection, signal, timeoutMs);
    return { ok: true, models };
  } catch (error) {
    if (signal.aborted) return { ok: false, error: `The provider did not answer within ${timeoutMs / 1000} s` };
    return { ok: false, error: await messageOf(error, connection.apiKey) };
  }
}

async function openaiModels(connection: ProviderConnection, signal: AbortSignal, timeoutMs: number): Promise<string[]> {
  const { default: OpenAI } = await import('openai');
  // Nothing from OPENAI_* (isolatedOpenAIOptions): the connection's own address and key only.
  const client = new OpenAI({
    ...isolatedOpenAIOptions(connection.baseUrl ?? OPENAI_BASE_URL, connection.apiKey),
    maxRetries: 0,
    timeout: timeoutMs,
    fetch: providerFetch,
  });
  const models: string[] = [];
  for await (const model of client.models.list({ signal })) {
    models.push(model.id);
    if (models.length >= MAX_MODELS) break;
  }
  return models;
}

async function anthropicModels(connection: ProviderConnection, signal: AbortSignal, timeoutMs: number): Promise<string[]> {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const client = new Anthropic({
    // Connections name the AI SDK's base URL (…/v1); the official client adds /v1 itself.
    baseURL: connection.baseUrl ? connection.baseUrl.replace(/\/v1\/?$/, '') : ANTHROPIC_BASE_URL,
    // Passed explicitly (empty when unset) so that nothing is read from ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN
    // or a credentials profile; without a key, no Authorization header at all.
    apiKey: connection.apiKey ?? '',
    defaultHeaders: connection.apiKey ? undefined : { authorization: null },
    webhookKey: null,
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: 'off',
    fetch: providerFetch,
  });
  const models: string[] = [];
  for await (const model of client.models.list({ limit: 1000 }, { signal })) {
    models.push(model.id);
    if (models.length >= MAX_MODELS) break;
  }
  return models;
}

/** The provider's own message, with its status, scrubbed of the key. */
async function messageOf(error: unknown, apiKey: string | null): Promise<string> {
  const { APIError } = await import('@anthropic-ai/sdk');
  if (error instanceof APIError) {
    // No status: the request never got an answer (refused, reset); what failed is its cause.
    if (error.status === undefined) {
      const unreachable = unreachableIn(error);
      return scrubSecrets(unreachable ? unreachable.message : `Provider request failed: ${(error.cause as Error | undefined)?.message ?? error.message}`, [
        apiKey,
      ]);
    }
    const message = error.apiMessage ?? error.message.replace(/^\d{3} /, '');
    return scrubSecrets(`Provider error${error.status ? ` (HTTP ${error.status})` : ''}: ${message}`, [apiKey]);
  }
  return providerError(error, new AbortController().signal, [apiKey]).message;
}
