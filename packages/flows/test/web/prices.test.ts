import { describe, expect, it } from 'vitest';
import { ownPrices } from '../../web/src/cost/price-rows.ts';

const DEFAULT = { input_per_mtok: 2.5, output_per_mtok: 10, source: 'default' as const };

describe('the Prices table', () => {
  it("sends the organization's own prices only: added models and defaults whose figures changed", () => {
    expect(
      ownPrices([
        { model: 'gpt-4o', input: '2.5', output: '10', custom: false, base: DEFAULT },
        { model: 'gpt-4o-mini', input: '0.1', output: '0.6', custom: false, base: { ...DEFAULT, input_per_mtok: 0.15, output_per_mtok: 0.6 } },
        { model: ' llama3.2 ', input: '0', output: '0', custom: true },
        { model: '', input: '', output: '', custom: true },
      ]),
    ).toEqual({ 'gpt-4o-mini': { input_per_mtok: 0.1, output_per_mtok: 0.6 }, 'llama3.2': { input_per_mtok: 0, output_per_mtok: 0 } });
  });

  it('says what is wrong before sending', () => {
    expect(ownPrices([{ model: 'm', input: '-1', output: '2', custom: true }])).toBe('The prices of "m" must not be negative.');
    expect(ownPrices([{ model: 'm', input: 'abc', output: '2', custom: true }])).toBe('The prices of "m" must be numbers.');
    expect(ownPrices([{ model: '', input: '1', output: '2', custom: true }])).toBe('Every price needs its model id.');
  });
});
