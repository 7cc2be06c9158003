// The kit's API client alone (no components): the unit tests of the price rows type-check with the server's sources.
import { api } from '@switchboard/web-kit/api';
import { problemsOf } from '../api/schedules-api.ts';

/** One model's price as `GET …/providers/{name}/prices` answers it (src/http/price-routes.ts). */
export interface PriceRow {
  input_per_mtok: number;
  output_per_mtok: number;
  /** The organization's own price, or the dated default of the provider's kind. */
  source: 'custom' | 'default';
}

/** A provider's prices: its defaults' date (null: its kind has none) and every priced model. */
export interface ProviderPrices {
  provider: string;
  kind: string;
  defaults_as_of: string | null;
  models: Record<string, PriceRow>;
}

/** Model prices of the providers of the organization whose API is at `base`. */
export function pricesApi(base: string) {
  const path = (name: string) => `${base}/providers/${encodeURIComponent(name)}/prices`;
  return {
    get: (name: string, signal?: AbortSignal) => api<ProviderPrices>(path(name), { signal }),
    /** Replaces the organization's own prices of the provider (every problem of a 422 named). */
    save: (name: string, models: Record<string, { input_per_mtok: number; output_per_mtok: number }>) =>
      api<ProviderPrices>(path(name), { method: 'PUT', body: { models } }).catch((error: unknown) => {
        throw problemsOf(error);
      }),
  };
}
