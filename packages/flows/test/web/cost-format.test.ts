import { describe, expect, it } from 'vitest';
import { costCell, usd } from '../../web/src/cost/cost-format.ts';

describe('money in the dashboard', () => {
  it('writes enough digits that a cheap run does not read as free', () => {
    expect([usd(0), usd(12.345), usd(1234.5), usd(0.0123), usd(0.000045), usd(0.009), usd(null)]).toEqual([
      '$0',
      '$12.35',
      '$1,234.5',
      '$0.0123',
      '$0.000045',
      '$0.009',
      '—',
    ]);
  });

  it('says when a cost is only a lower bound, and when a run has none', () => {
    expect(costCell({ usd: 0.0075, priced: true })).toEqual({ text: '$0.0075', title: "What the run's model calls cost, its sub-agents included" });
    expect(costCell({ usd: 0.0075, priced: false }).text).toBe('$0.0075+');
    expect(costCell(null).text).toBe('—');
  });
});
