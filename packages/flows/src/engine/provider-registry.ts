import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { EmbeddingModel, LanguageModel } from 'ai';
import type OpenAI from 'openai';
import { isolatedOpenAIOptions } from '@switchboard/core';
import type { FlowsConfig } from '../config.ts';
import type { OrgStore, ProviderConnection } from '../store/org-store.ts';
import { FlowsError } from '../domain/errors.ts';
import { effectivePrices, lookupPrice, type ModelPrice, type PriceTable } from '../domain/prices.ts';
import type { PriceStore } from '../store/price-store.ts';
import { providerFetch } from './http-fetch.ts';
import { openaiChatModel, sdkChatModel, type ChatModel } from './chat-models.ts';

/** The provider SDKs (AI SDK providers, the openai client), loaded on first use so that the CLI (which never calls a model) starts fast. */
interface ProviderSdk {
  createOpenAI: typeof import('@ai-sdk/openai').createOpenAI;
  createAnthropic: typeof import('@ai-sdk/anthropic').createAnthropic;
  createOpenAICompatible: typeof import('@ai-sdk/openai-compatible').createOpenAICompatible;
  OpenAI: typeof OpenAI;
}

let sdk: Promise<ProviderSdk> | undefined;
function loadSdk(): Promise<ProviderSdk> {
  sdk ??= Promise.all([import('@ai-sdk/openai'), import('@ai-sdk/anthropic'), import('@ai-sdk/openai-compatible'), import('openai')]).then(
    ([openai, anthropic, compatible, openaiClient]) => ({
      createOpenAI: openai.createOpenAI,
      createAnthropic: anthropic.createAnthropic,
      createOpenAICompatible: compatible.createOpenAICompatible,
      OpenAI: openaiClient.default,
    }),
  );
  return sdk;
}

/** The provider connections of one organization, as AI SDK models and chat models. */
export class OrgProviders {
  private readonly models = new Map<string, LanguageModel>();
  private readonly chats = new Map<string, ChatModel>();
  private readonly byName: Map<string, ProviderConnection>;
  private readonly priceTables = new Map<string, PriceTable>();

  constructor(
    connections: ProviderConnection[],
    private readonly sdk: ProviderSdk,
    /** The organization's own prices per connection name. */
    private readonly ownPrices: ReadonlyMap<string, PriceTable> = new Map(),
  ) {
    this.byName = new Map(connections.map((c) => [c.name, c]));
  }

  /** The kind of connection `name` (`openai`, `anthropic`, `openai-compatible`), if there is one. */
  kindOf(name: string): string | undefined {
    return this.byName.get(name)?.kind;
  }

  /** What model `model` of connection `name` costs: the organization's price, else the default of its kind; undefined when neither has one. */
  priceOf(name: string, model: string): ModelPrice | undefined {
    let table = this.priceTables.get(name);
    if (!table) {
      table = effectivePrices(this.byName.get(name)?.kind ?? '', this.ownPrices.get(name) ?? {});
      this.priceTables.set(name, table);
    }
    return lookupPrice(table, model);
  }

  /** The API key of a connection, so error messages can be scrubbed of it. */
  secretOf(name: string): string | null {
    return this.byName.get(name)?.apiKey ?? null;
  }

  /** The embedding model `modelId` of connection `name` (knowledge bases); Anthropic has none. */
  embeddingModel(name: string, modelId: string): EmbeddingModel {
    const connection = this.byName.get(name);
    if (!connection) throw new FlowsError('upstream_error', `No provider connection named "${name}"`, 'upstream_error');
    const apiKey = connection.apiKey ?? undefined;
    const baseURL = connection.baseUrl ?? undefined;
    if (connection.kind === 'openai') return this.sdk.createOpenAI({ apiKey: apiKey ?? '', baseURL, fetch: providerFetch }).embedding(modelId);
    if (connection.kind === 'openai-compatible')
      return this.sdk.createOpenAICompatible({ name: connection.name, baseURL: baseURL!, apiKey, fetch: providerFetch }).textEmbeddingModel(modelId);
    throw new FlowsError('invalid_request', `Provider connection "${name}" (${connection.kind}) offers no embedding models`, 'invalid_request');
  }

  /** The AI SDK model `modelId` of connection `name` (tool loops), built once and reused. */
  model(name: string, modelId: string): LanguageModel {
    const key = `${name}\u0000${modelId}`;
    let model = this.models.get(key);
    if (!model) {
      model = buildModel(this.sdk, this.connection(name), modelId);
      this.models.set(key, model);
    }
    return model;
  }

  /**
   * The chat model `modelId` of connection `name` for calls without tools,
   * built once and reused: OpenAI-compatible servers through the official
   * openai client, OpenAI and Anthropic through their AI SDK providers (which
   * know each model's parameters).
   */
  chat(name: string, modelId: string): ChatModel {
    const key = `${name}\u0000${modelId}`;
    let chat = this.chats.get(key);
    if (!chat) {
      const connection = this.connection(name);
      chat =
        connection.kind === 'openai-compatible'
          ? openaiChatModel(openaiClient(this.sdk, connection), modelId)
          : sdkChatModel(this.model(name, modelId) as LanguageModelV3);
      this.chats.set(key, chat);
    }
    return chat;
  }

  private connection(name: string): ProviderConnection {
    const connection = this.byName.get(name);
    if (!connection) throw new FlowsError('upstream_error', `No provider connection named "${name}"`, 'upstream_error');
    return connection;
  }
}

/**
 * The official openai client for an OpenAI-compatible connection (nothing from the environment; retries are the llm
 * node's). Its fetch hands a streamed answer's text over without a web stream (openaiChatModel reads it).
 */
function openaiClient(sdk: ProviderSdk, connection: ProviderConnection): OpenAI {
  return new sdk.OpenAI({ ...isolatedOpenAIOptions(connection.baseUrl!, connection.apiKey), maxRetries: 0, fetch: providerFetch.rawEventStreams });
}

function buildModel(sdk: ProviderSdk, connection: ProviderConnection, modelId: string): LanguageModel {
  const apiKey = connection.apiKey ?? '';
  const baseURL = connection.baseUrl ?? undefined;
  switch (connection.kind) {
    case 'openai':
      // Chat Completions rather than the Responses API: it is what OPENAI_BASE_URL proxies and gateways speak.
      return sdk.createOpenAI({ apiKey, baseURL, fetch: providerFetch }).chat(modelId);
    case 'anthropic':
      return sdk.createAnthropic({ apiKey, baseURL, fetch: providerFetch })(modelId);
    case 'openai-compatible':
      return sdk
        .createOpenAICompatible({ name: connection.name, baseURL: baseURL!, apiKey: connection.apiKey ?? undefined, includeUsage: true, fetch: providerFetch })
        .chatModel(modelId);
  }
}

/**
 * Resolves an organization's providers, falling back to OPENAI_API_KEY /
 * ANTHROPIC_API_KEY for the names `openai` / `anthropic`. Cached per
 * organization and `providers_version`, which every change bumps, so a change
 * is seen on the next request by every instance.
 */
export class ProviderRegistry {
  private readonly cache = new Map<number, { version: number; providers: OrgProviders }>();

  constructor(
    private readonly orgs: OrgStore,
    private readonly config: FlowsConfig,
    private readonly prices?: PriceStore,
  ) {}

  /** The providers of an organization at the given providers_version. */
  async forOrg(orgId: number, providersVersion: number): Promise<OrgProviders> {
    const hit = this.cache.get(orgId);
    if (hit && hit.version === providersVersion) return hit.providers;
    // Prices change with providers_version too (PriceStore.replace bumps it), so they are cached alongside.
    const [connections, prices, loaded] = await Promise.all([this.connections(orgId), this.prices?.forOrg(orgId), loadSdk()]);
    const providers = new OrgProviders(connections, loaded, prices);
    this.cache.set(orgId, { version: providersVersion, providers });
    return providers;
  }

  /** One connection of the organization (environment fallbacks included), key decrypted, if it has one by that name. */
  async connection(orgId: number, name: string): Promise<ProviderConnection | undefined> {
    return (await this.connections(orgId)).find((c) => c.name === name);
  }

  /** Names of the providers a flow of this organization may use (its connections plus environment fallbacks). */
  async names(orgId: number): Promise<Set<string>> {
    return new Set((await this.connections(orgId)).map((c) => c.name));
  }

  private async connections(orgId: number): Promise<ProviderConnection[]> {
    const connections = await this.orgs.loadProviders(orgId);
    const names = new Set(connections.map((c) => c.name));
    if (!names.has('openai') && this.config.openaiApiKey) {
      connections.push({ name: 'openai', kind: 'openai', apiKey: this.config.openaiApiKey, baseUrl: this.config.openaiBaseUrl ?? null });
    }
    if (!names.has('anthropic') && this.config.anthropicApiKey) {
      connections.push({ name: 'anthropic', kind: 'anthropic', apiKey: this.config.anthropicApiKey, baseUrl: this.config.anthropicBaseUrl ?? null });
    }
    return connections;
  }
}
