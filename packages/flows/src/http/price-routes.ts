import { AppError, type App } from '@switchboard/core';
import { z } from 'zod';
import { invalidWith } from '../domain/errors.ts';
import { DEFAULT_PRICES_AS_OF, describePrices, parsePriceTable } from '../domain/prices.ts';
import type { ProviderRegistry } from '../engine/provider-registry.ts';
import type { PriceStore } from '../store/price-store.ts';
import { bearer, providerParams } from './schema.ts';

const pricesBody = z
  .any()
  .describe('{"models": {"MODEL": {"input_per_mtok": USD, "output_per_mtok": USD}}}: the organization\'s own prices of this provider, replacing those it had');

/** Model prices per provider connection (design/flows.md, "Costs"; manage scope). */
export function registerPriceRoutes(app: App, deps: { providers: ProviderRegistry; prices: PriceStore }): void {
  const tags = ['providers'];

  // The provider's kind decides its default prices; an unknown name is 404 (the environment's openai/anthropic count).
  const kindOf = async (orgId: number, name: string): Promise<string> => {
    const connection = await deps.providers.connection(orgId, name);
    if (!connection) throw new AppError('not_found', `Provider connection "${name}" not found`);
    return connection.kind;
  };
  const present = async (orgId: number, name: string, kind: string) => {
    const own = (await deps.prices.forOrg(orgId)).get(name) ?? {};
    return { provider: name, kind, defaults_as_of: kind === 'openai-compatible' ? null : DEFAULT_PRICES_AS_OF, models: describePrices(kind, own) };
  };

  app.get(
    '/api/llm/:org_code/providers/:name/prices',
    {
      config: { scope: 'manage' },
      schema: {
        tags,
        summary: "A provider's model prices (USD per million tokens)",
        description:
          'Each model says whether its price is the organization\'s own ("custom") or the dated default table\'s ("default", OpenAI and Anthropic kinds).',
        params: providerParams,
        security: bearer,
      },
    },
    async (request) => {
      const principal = request.principal!;
      return present(principal.orgId, request.params.name, await kindOf(principal.orgId, request.params.name));
    },
  );

  app.put(
    '/api/llm/:org_code/providers/:name/prices',
    {
      config: { scope: 'manage' },
      schema: {
        tags,
        summary: "Set the organization's own prices of a provider's models",
        description:
          'Replaces the own prices of this provider ({"models": {}} returns to the defaults). A price that is negative or not a number is 422 invalid_prices, every problem in error.details.',
        params: providerParams,
        body: pricesBody,
        security: bearer,
      },
    },
    async (request) => {
      const principal = request.principal!;
      const kind = await kindOf(principal.orgId, request.params.name);
      const parsed = parsePriceTable(request.body);
      if (!parsed.ok) throw invalidWith('invalid_prices', parsed.problems);
      await deps.prices.replace(principal.orgId, request.params.name, parsed.table);
      return present(principal.orgId, request.params.name, kind);
    },
  );
}
