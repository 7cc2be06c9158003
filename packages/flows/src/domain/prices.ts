/** Model prices: the shipped default table, an organization's own prices, and which price a model call gets. Pure. */
import type { ProblemDetail } from './errors.ts';

/** What one model costs, in US dollars per million tokens. */
export interface ModelPrice {
  input_per_mtok: number;
  output_per_mtok: number;
}

/** Prices of a provider's models, by model id. */
export type PriceTable = Record<string, ModelPrice>;

/** The day the default table was read off OpenAI's and Anthropic's price pages. */
export const DEFAULT_PRICES_AS_OF = '2025-10-15';

const p = (input: number, output: number): ModelPrice => ({ input_per_mtok: input, output_per_mtok: output });

/**
 * Standard (not batch, not cached-input) prices of the well-known models, by
 * provider kind. A dated snapshot: an organization's own prices
 * (`PUT …/providers/{name}/prices`) win over it.
 */
export const DEFAULT_PRICES: Readonly<Record<'openai' | 'anthropic', PriceTable>> = {
  openai: {
    'gpt-5': p(1.25, 10),
    'gpt-5-mini': p(0.25, 2),
    'gpt-5-nano': p(0.05, 0.4),
    'gpt-4.1': p(2, 8),
    'gpt-4.1-mini': p(0.4, 1.6),
    'gpt-4.1-nano': p(0.1, 0.4),
    'gpt-4o': p(2.5, 10),
    'gpt-4o-mini': p(0.15, 0.6),
    'gpt-4-turbo': p(10, 30),
    'gpt-3.5-turbo': p(0.5, 1.5),
    o1: p(15, 60),
    o3: p(2, 8),
    'o3-pro': p(20, 80),
    'o3-mini': p(1.1, 4.4),
    'o4-mini': p(1.1, 4.4),
  },
  anthropic: {
    'claude-opus-4-1': p(15, 75),
    'claude-opus-4': p(15, 75),
    'claude-sonnet-4-5': p(3, 15),
    'claude-sonnet-4': p(3, 15),
    'claude-haiku-4-5': p(1, 5),
    'claude-3-7-sonnet': p(3, 15),
    'claude-3-5-sonnet': p(3, 15),
    'claude-3-5-haiku': p(0.8, 4),
    'claude-3-opus': p(15, 75),
    'claude-3-haiku': p(0.25, 1.25),
  },
};

// A dated snapshot or alias of a listed model (`gpt-4o-2024-08-06`, `claude-sonnet-4-20250514`, `claude-3-5-haiku-latest`)
// costs what the model does; any other suffix is another model (`gpt-4o-audio-preview`), which has no price until one is set.
const SNAPSHOT_SUFFIX = /^-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|latest)$/;

/** The price of `model` in a table: its own entry, else that of the model it is a dated snapshot of. */
export function lookupPrice(table: PriceTable, model: string): ModelPrice | undefined {
  if (Object.hasOwn(table, model)) return table[model];
  let best: string | undefined;
  for (const name of Object.keys(table)) {
    if (model.startsWith(name) && SNAPSHOT_SUFFIX.test(model.slice(name.length)) && (!best || name.length > best.length)) best = name;
  }
  return best === undefined ? undefined : table[best];
}

/** A provider's prices as it charges them: its own over the defaults of its kind (none for an OpenAI-compatible server). */
export function effectivePrices(kind: string, own: PriceTable): PriceTable {
  const defaults = kind === 'openai' || kind === 'anthropic' ? DEFAULT_PRICES[kind] : {};
  return { ...defaults, ...own };
}

/** Each model of a provider's effective table, saying whether its price is the organization's or the default. */
export function describePrices(kind: string, own: PriceTable): Record<string, ModelPrice & { source: 'custom' | 'default' }> {
  const out: Record<string, ModelPrice & { source: 'custom' | 'default' }> = {};
  for (const [model, price] of Object.entries(effectivePrices(kind, own))) out[model] = { ...price, source: Object.hasOwn(own, model) ? 'custom' : 'default' };
  return out;
}

/** Longest model id a price may name. */
export const MAX_MODEL_ID_LENGTH = 200;
/** Most models one provider may price. */
export const MAX_PRICED_MODELS = 500;

/**
 * Checks a `PUT …/prices` body, `{"models": {MODEL: {"input_per_mtok", "output_per_mtok"}}}`: every
 * problem named (a price must be a finite number, zero or more). Returns the table or the problems.
 */
export function parsePriceTable(body: unknown): { ok: true; table: PriceTable } | { ok: false; problems: ProblemDetail[] } {
  if (!isObject(body) || !isObject(body.models))
    return { ok: false, problems: [{ param: 'models', message: 'Send {"models": {"MODEL": {"input_per_mtok": USD, "output_per_mtok": USD}}}' }] };
  const problems: ProblemDetail[] = [];
  const table: PriceTable = {};
  const entries = Object.entries(body.models);
  if (entries.length > MAX_PRICED_MODELS) problems.push({ param: 'models', message: `At most ${MAX_PRICED_MODELS} models may be priced per provider` });
  for (const [model, price] of entries) {
    const param = `models.${model}`;
    if (model.trim() === '' || model.length > MAX_MODEL_ID_LENGTH) problems.push({ param, message: `A model id has 1 to ${MAX_MODEL_ID_LENGTH} characters` });
    if (!isObject(price)) {
      problems.push({ param, message: `The price of "${model}" must be {"input_per_mtok": USD, "output_per_mtok": USD}` });
      continue;
    }
    for (const key of Object.keys(price)) {
      if (key !== 'input_per_mtok' && key !== 'output_per_mtok')
        problems.push({ param: `${param}.${key}`, message: `Unknown field "${key}" (a price has input_per_mtok and output_per_mtok)` });
    }
    for (const key of ['input_per_mtok', 'output_per_mtok'] as const) {
      const value = price[key];
      if (typeof value !== 'number' || !Number.isFinite(value))
        problems.push({ param: `${param}.${key}`, message: `${key} of "${model}" must be a number (US dollars per million tokens)` });
      else if (value < 0) problems.push({ param: `${param}.${key}`, message: `${key} of "${model}" must not be negative` });
    }
    table[model] = { input_per_mtok: price.input_per_mtok as number, output_per_mtok: price.output_per_mtok as number };
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, table };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
