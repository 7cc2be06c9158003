/** The Prices table's rows and what they send: pure, so the table's rules are tested without a browser. */
import type { PriceRow, ProviderPrices } from './prices-api.ts';

/** One editable row: the text of its fields, and whether it is the organization's own price. */
export interface Row {
  key: number;
  model: string;
  input: string;
  output: string;
  custom: boolean;
  /** The default it overrides or shows, if the model has one. */
  base?: PriceRow;
}

let nextKey = 0;

/** The rows of a provider's prices as the API answered them. */
export function rowsOf(prices: ProviderPrices): Row[] {
  return Object.entries(prices.models).map(([model, price]) => ({
    key: nextKey++,
    model,
    input: String(price.input_per_mtok),
    output: String(price.output_per_mtok),
    custom: price.source === 'custom',
    base: price.source === 'default' ? price : undefined,
  }));
}

/** The organization's own prices among the rows: those it added, and defaults whose figures were changed. */
export function ownPrices(
  rows: Array<Pick<Row, 'model' | 'input' | 'output' | 'custom' | 'base'>>,
): Record<string, { input_per_mtok: number; output_per_mtok: number }> | string {
  const own: Record<string, { input_per_mtok: number; output_per_mtok: number }> = {};
  for (const row of rows) {
    const model = row.model.trim();
    if (model === '') {
      if (row.input.trim() === '' && row.output.trim() === '') continue;
      return 'Every price needs its model id.';
    }
    const input = Number(row.input);
    const output = Number(row.output);
    if (row.input.trim() === '' || row.output.trim() === '' || !Number.isFinite(input) || !Number.isFinite(output))
      return `The prices of "${model}" must be numbers.`;
    if (input < 0 || output < 0) return `The prices of "${model}" must not be negative.`;
    const changed = !row.base || row.base.input_per_mtok !== input || row.base.output_per_mtok !== output;
    if (row.custom || changed) own[model] = { input_per_mtok: input, output_per_mtok: output };
  }
  return own;
}

/** An empty row for a model to add. */
export function newRow(): Row {
  return { key: nextKey++, model: '', input: '', output: '', custom: true };
}
