import { describe, expect, it } from 'vitest';
import { addCost, callCost, CostMeter, zeroCost } from '../src/domain/cost.ts';
import { DEFAULT_PRICES, describePrices, effectivePrices, lookupPrice, parsePriceTable } from '../src/domain/prices.ts';
import { cronProblems, isKnownTimeZone, nextTimes, parseScheduleBody, planDue } from '../src/domain/schedule.ts';
import { usageOf } from '../src/domain/usage.ts';
import type { InputVariable } from '../src/domain/flow-definition.ts';

const NOW = new Date('2026-03-28T12:00:00.000Z');
const HOUR = 3_600_000;

describe('model prices', () => {
  it('prices a dated snapshot or alias as its model, and any other variant not at all', () => {
    const openai = DEFAULT_PRICES.openai;
    expect(lookupPrice(openai, 'gpt-4o')).toEqual({ input_per_mtok: 2.5, output_per_mtok: 10 });
    expect(lookupPrice(openai, 'gpt-4o-2024-08-06')).toEqual(openai['gpt-4o']);
    expect(lookupPrice(openai, 'gpt-4o-mini-2024-07-18')).toEqual(openai['gpt-4o-mini']);
    expect(lookupPrice(DEFAULT_PRICES.anthropic, 'claude-sonnet-4-20250514')).toEqual({ input_per_mtok: 3, output_per_mtok: 15 });
    expect(lookupPrice(DEFAULT_PRICES.anthropic, 'claude-3-5-haiku-latest')).toEqual({ input_per_mtok: 0.8, output_per_mtok: 4 });
    expect(lookupPrice(openai, 'gpt-4o-audio-preview')).toBeUndefined();
    expect(lookupPrice(openai, 'llama3.2')).toBeUndefined();
  });

  it("lets an organization's own prices win over the defaults of the provider's kind; an OpenAI-compatible server has none", () => {
    const own = { 'gpt-4o': { input_per_mtok: 1, output_per_mtok: 2 }, 'my-model': { input_per_mtok: 0, output_per_mtok: 0 } };
    expect(effectivePrices('openai', own)['gpt-4o']).toEqual({ input_per_mtok: 1, output_per_mtok: 2 });
    expect(effectivePrices('openai-compatible', {})).toEqual({});
    const described = describePrices('openai', own);
    expect([described['gpt-4o'].source, described['gpt-4o-mini'].source, described['my-model'].source]).toEqual(['custom', 'default', 'custom']);
  });

  it('refuses prices that are negative or not numbers, naming every problem', () => {
    const parsed = parsePriceTable({
      models: { a: { input_per_mtok: -1, output_per_mtok: '2' }, b: 5, c: { input_per_mtok: 1, output_per_mtok: 2, cached: 1 } },
    });
    expect(parsed).toEqual({
      ok: false,
      problems: [
        { param: 'models.a.input_per_mtok', message: 'input_per_mtok of "a" must not be negative' },
        { param: 'models.a.output_per_mtok', message: 'output_per_mtok of "a" must be a number (US dollars per million tokens)' },
        { param: 'models.b', message: 'The price of "b" must be {"input_per_mtok": USD, "output_per_mtok": USD}' },
        { param: 'models.c.cached', message: 'Unknown field "cached" (a price has input_per_mtok and output_per_mtok)' },
      ],
    });
    expect(parsePriceTable({ prices: {} })).toMatchObject({ ok: false, problems: [{ param: 'models' }] });
    expect(parsePriceTable({ models: { m: { input_per_mtok: 0.5, output_per_mtok: 0 } } })).toEqual({
      ok: true,
      table: { m: { input_per_mtok: 0.5, output_per_mtok: 0 } },
    });
  });

  it('adds up the cost of calls; one unpriced call makes the sum unpriced', () => {
    const priced = callCost({ input_per_mtok: 2.5, output_per_mtok: 10 }, usageOf(1000, 500));
    expect(priced).toEqual({ usd: 0.0075, priced: true });
    expect(callCost(undefined, usageOf(10, 10))).toEqual({ usd: 0, priced: false });
    expect(addCost(priced, zeroCost())).toEqual(priced);
    const meter = new CostMeter();
    for (let i = 0; i < 3; i++) meter.add(callCost({ input_per_mtok: 0.1, output_per_mtok: 0.2 }, usageOf(1, 1)));
    expect(meter.cost).toEqual({ usd: 0.0000009, priced: true });
    meter.add(callCost(undefined, usageOf(1, 1)));
    expect(meter.cost.priced).toBe(false);
  });
});

describe('schedule rules', () => {
  const variables: InputVariable[] = [
    { name: 'question', type: 'string', required: true },
    { name: 'limit', type: 'integer', minimum: 1 },
  ];

  it('refuses cron expressions that cannot be parsed, fire every second or never fire', () => {
    expect(cronProblems('*/15 * * * *', 'UTC', NOW)).toEqual([]);
    expect(cronProblems('@daily', 'UTC', NOW)).toEqual([]);
    expect(cronProblems('* * * * * *', 'UTC', NOW)).toEqual([
      '"* * * * * *" has 6 fields: a schedule fires at most once a minute, so give five (minute hour day-of-month month day-of-week), no seconds',
    ]);
    expect(cronProblems('0 0 30 2 *', 'UTC', NOW)).toEqual(['"0 0 30 2 *" never fires (no date matches it)']);
    expect(cronProblems('61 * * * *', 'UTC', NOW)[0]).toMatch(/^"61 \* \* \* \*" is not a valid cron expression: /);
    expect(cronProblems('every day', 'UTC', NOW)).toEqual(['"every day" has 2 fields: give five, minute hour day-of-month month day-of-week']);
    expect(cronProblems('@reboot', 'UTC', NOW)[0]).toMatch(/^"@reboot" is not a schedule nickname/);
  });

  it('knows the time zones the platform knows', () => {
    expect(['Europe/Paris', 'UTC', 'America/Argentina/Buenos_Aires'].map(isKnownTimeZone)).toEqual([true, true, true]);
    expect(['Mars/Olympus', '', 'Europe/Pariss'].map(isKnownTimeZone)).toEqual([false, false, false]);
  });

  it('names every problem of a schedule body at once', () => {
    const parsed = parseScheduleBody({ cron: '* * * * * *', timezone: 'Mars/Olympus', input: { limit: '5', extra: 1 }, enabled: 'yes' }, variables, NOW);
    expect(parsed.ok ? [] : parsed.problems.map((p) => p.param)).toEqual(['timezone', 'cron', 'input.extra', 'input.question', 'input.limit', 'enabled']);
    expect(parseScheduleBody({ cron: '*/15 * * * *', timezone: 'Europe/Paris', input: { question: 'q' } }, variables, NOW)).toEqual({
      ok: true,
      spec: { cron: '*/15 * * * *', timezone: 'Europe/Paris', input: { question: 'q' }, enabled: true },
    });
  });

  it('lists the next times in the time zone, across a change to summer time', () => {
    // Paris moved its clocks from 02:00 to 03:00 on 2026-03-29 (01:00 UTC).
    expect(nextTimes('30 2 * * *', 'Europe/Paris', new Date('2026-03-27T12:00:00Z'), 3).map((t) => t.toISOString())).toEqual([
      '2026-03-28T01:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
  });

  it('runs a missed due time once when it is recent, records older ones as skipped', () => {
    const recent = planDue('0 * * * *', 'UTC', new Date('2026-03-28T11:00:00Z'), NOW, HOUR);
    expect(recent.run?.toISOString()).toBe('2026-03-28T12:00:00.000Z');
    expect(recent.skipped.map((s) => [s.dueAt.toISOString(), s.reason])).toEqual([['2026-03-28T11:00:00.000Z', 'missed']]);
    expect(recent.next?.toISOString()).toBe('2026-03-28T13:00:00.000Z');

    const old = planDue('0 * * * *', 'UTC', new Date('2026-03-28T08:00:00Z'), new Date('2026-03-28T11:30:00Z'), 10 * 60_000);
    expect([old.run, old.skipped.length, old.olderSkipped]).toEqual([null, 4, false]);

    // A year of every-minute due times: the newest hundred are recorded, and it says there were more.
    const year = planDue('* * * * *', 'UTC', new Date('2025-03-28T12:00:00Z'), NOW, HOUR);
    expect([year.run?.toISOString(), year.skipped.length, year.olderSkipped]).toEqual(['2026-03-28T12:00:00.000Z', 100, true]);
  });
});
