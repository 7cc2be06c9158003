/** What a run's model calls cost. Pure. */
import type { ModelPrice } from './prices.ts';
import type { Usage } from './usage.ts';

/** A run's cost (design/flows.md, "Costs"): the sum over its model calls; `priced` false when one call's model has no price. */
export interface Cost {
  usd: number;
  priced: boolean;
}

/** The cost of no model call at all. */
export function zeroCost(): Cost {
  return { usd: 0, priced: true };
}

/** What one call costs: its tokens at its model's price (an unpriced model costs 0 and makes the sum unpriced). */
export function callCost(price: ModelPrice | undefined, usage: Usage): Cost {
  if (!price) return { usd: 0, priced: false };
  return { usd: (usage.prompt_tokens * price.input_per_mtok + usage.completion_tokens * price.output_per_mtok) / 1_000_000, priced: true };
}

/** a + b. */
export function addCost(a: Cost, b: Cost): Cost {
  return { usd: a.usd + b.usd, priced: a.priced && b.priced };
}

/** A cost as a run record shows it: dollars rounded to a millionth of a cent, so sums print without float noise. */
export function presentCost(cost: Cost): Cost {
  return { usd: roundUsd(cost.usd), priced: cost.priced };
}

/** Dollars to 8 decimals. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e8) / 1e8;
}

/**
 * Adds up the cost of every model call of one run, its sub-agents' included
 * (they share the run's meter). Calls may end in any order.
 */
export class CostMeter {
  private total = zeroCost();

  /** Counts one call. */
  add(cost: Cost): void {
    this.total = addCost(this.total, cost);
  }

  /** The sum so far. */
  get cost(): Cost {
    return presentCost(this.total);
  }
}
