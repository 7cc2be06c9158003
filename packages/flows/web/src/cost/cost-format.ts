/** How the dashboard writes money: run costs, prices and totals in US dollars. Pure. */

/** A run's cost as the API answers it (`null` for runs recorded before costs were kept). */
export interface RunCost {
  usd: number;
  priced: boolean;
}

/** "$12.35", "$0.0123", "$0.000045": enough digits that a cheap run does not read as free; "$0" for nothing. */
export function usd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (value === 0) return '$0';
  const digits = value >= 1 ? 2 : value >= 0.01 ? 4 : 6;
  return `$${Number(value.toFixed(digits)).toLocaleString('en-US', { maximumFractionDigits: digits })}`;
}

/** A run's cost in a table cell, and what a reader should know about it (the cell's title). */
export function costCell(cost: RunCost | null | undefined): { text: string; title: string } {
  if (!cost) return { text: '—', title: 'Recorded before costs were kept' };
  if (!cost.priced) return { text: `${usd(cost.usd)}+`, title: 'At least this much: a model this run called has no price (LLM Hub → Providers → Prices)' };
  return { text: usd(cost.usd), title: "What the run's model calls cost, its sub-agents included" };
}
