import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { simpleFlow } from '../helpers/harness.ts';

// 7 prompt tokens and one completion token at $1,000 / $2,000 per million.
const RUN_COST = '$0.009';

describeInBrowser('Costs and schedules in the browser', () => {
  let h: UiHarness;
  let page: Page;

  beforeAll(async () => {
    h = await startUiHarness('sqlite', { FLOWS_SCHEDULE_TICK_MS: '50' });
    await h.save(simpleFlow({ name: 'Digest', slug: 'digest', model: 'reply:hi', format: 'raw' }));
    await (await h.post('/api/llm/acme/flows/digest/run', { input: { question: 'Before prices' } }, h.runToken)).text();
    page = await h.signedInPage('/orgs/acme/providers');
  });
  afterAll(async () => {
    await h?.close();
  });

  it("Providers → Prices: adds a model's price, refusing a negative one with the reason", async () => {
    await page.getByRole('button', { name: 'Prices of local' }).click();
    const dialog = page.getByRole('dialog', { name: 'Prices of local' });
    await dialog.getByText('This kind of provider has no default prices.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Add model' }).click();
    await dialog.getByRole('textbox', { name: 'Model', exact: true }).fill('reply:hi');
    await dialog.getByRole('textbox', { name: 'Input price of reply:hi' }).fill('-1');
    await dialog.getByRole('textbox', { name: 'Output price of reply:hi' }).fill('2000');
    await dialog.getByRole('button', { name: 'Save prices' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The prices of "reply:hi" must not be negative.' }).waitFor();
    await dialog.getByRole('textbox', { name: 'Input price of reply:hi' }).fill('1000');
    await screenshot(page, 'provider-prices');
    await dialog.getByRole('button', { name: 'Save prices' }).click();
    await dialog.waitFor({ state: 'detached' });
    const prices = await (await h.get('/api/llm/acme/providers/local/prices')).json();
    expect(prices.models).toEqual({ 'reply:hi': { input_per_mtok: 1000, output_per_mtok: 2000, source: 'custom' } });
  });

  it('Runs: a Cost column (a lower bound or none before prices) and a Trigger filter in the URL', async () => {
    await (await h.post('/api/llm/acme/flows/digest/run', { input: { question: 'After prices' } }, h.runToken)).text();
    await h.put('/api/llm/acme/flows/digest/schedules/nightly', { cron: '0 3 * * *', input: { question: 'Scheduled' } });
    await h.stores.database.db
      .updateTable('flow_schedules')
      .set({ next_run_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    await expect.poll(async () => (await (await h.get('/api/llm/acme/runs?trigger=schedule')).json()).runs.length, { timeout: 10_000 }).toBe(1);

    await page.goto('/orgs/acme/runs');
    const header = page.getByRole('row').first();
    await header.waitFor();
    expect(await header.getByRole('columnheader').allInnerTexts()).toEqual(['Started', 'Flow', 'Version', 'Status', 'Latency', 'Tokens', 'Cost', 'Trigger']);
    const rows = page.getByRole('row');
    await expect.poll(() => rows.count()).toBe(4);
    const cells = async (n: number) => (await rows.nth(n).getByRole('cell').allInnerTexts()).slice(5);
    expect([await cells(1), await cells(2), await cells(3)]).toEqual([
      ['8', RUN_COST, 'Schedule nightly'],
      ['8', RUN_COST, 'API'],
      ['8', '$0+', 'API'],
    ]);
    await page.getByRole('combobox', { name: 'Trigger' }).selectOption('schedule');
    await page.waitForURL(`${h.base}/orgs/acme/runs?trigger=schedule`);
    await expect.poll(() => rows.count()).toBe(2);
    await screenshot(page, 'runs-trigger-filter');
    // The run's page says the same.
    await rows.nth(1).getByRole('link').first().click();
    const summary = page.getByRole('region', { name: 'Summary' });
    await summary.getByText('Schedule nightly', { exact: true }).waitFor();
    expect(await summary.getByText(RUN_COST, { exact: true }).count()).toBe(1);
    await page.goBack();
    await page.goBack();
    await expect.poll(() => rows.count()).toBe(4);
  });

  it('Overview: the cost tile, the cost chart and the cost per flow', async () => {
    await page.goto('/orgs/acme');
    const tile = page
      .locator('.tiles > div')
      .filter({ has: page.getByText('Cost', { exact: true }) })
      .locator('dd');
    await tile.waitFor();
    expect((await tile.innerText()).trim()).toBe('$0.018');
    await page.getByRole('heading', { name: 'Cost per hour', level: 3 }).waitFor();
    const perFlow = page.getByRole('region', { name: 'Per flow' }).getByRole('row');
    expect(
      (await perFlow.nth(1).getByRole('cell').allInnerTexts()).slice(0, 1).concat((await perFlow.nth(1).getByRole('cell').allInnerTexts()).slice(7, 8)),
    ).toEqual(['Digest', '$0.018']);
    await screenshot(page, 'overview-cost');
  });

  it('Schedules tab: the next five times in the chosen zone, last runs, add with a live preview, pause and delete', async () => {
    await page.goto('/orgs/acme/flows/digest');
    await page.getByRole('tab', { name: 'Schedules', exact: true }).click();
    const nightly = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'nightly', level: 3 }) });
    await nightly.waitFor();
    expect(await nightly.getByRole('list', { name: 'Next five times of nightly' }).getByRole('listitem').allInnerTexts()).toHaveLength(5);
    for (const time of await nightly.getByRole('list', { name: 'Next five times of nightly' }).getByRole('listitem').allInnerTexts())
      expect(time).toMatch(/, 03:00$/);
    const lastRun = nightly.getByRole('list', { name: 'Last runs of nightly' }).getByRole('link');
    expect(await lastRun.innerText()).toBe('succeeded');

    await page.getByRole('button', { name: 'Add schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add schedule' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('weekly');
    await dialog.getByRole('textbox', { name: 'Cron' }).fill('* * * * * *');
    await dialog.getByRole('alert').filter({ hasText: 'has 6 fields' }).waitFor();
    await dialog.getByRole('textbox', { name: 'Cron' }).fill('0 9 * * 1');
    await dialog.getByRole('combobox', { name: 'Time zone' }).selectOption('Asia/Tokyo');
    const preview = dialog.getByRole('list', { name: 'Next five times' });
    await expect.poll(async () => (await preview.getByRole('listitem').allInnerTexts()).every((t) => /^Mon .*, 09:00$/.test(t))).toBe(true);
    await dialog.getByRole('textbox', { name: 'Input (JSON)' }).fill('{"question": "Weekly digest"}');
    await screenshot(page, 'schedule-add');
    await dialog.getByRole('button', { name: 'Add schedule' }).click();
    const weekly = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'weekly', level: 3 }) });
    await weekly.waitFor();
    const saved = await (await h.get('/api/llm/acme/flows/digest/schedules/weekly')).json();
    expect(saved).toMatchObject({ cron: '0 9 * * 1', timezone: 'Asia/Tokyo', input: { question: 'Weekly digest' }, enabled: true });
    await screenshot(page, 'schedules-tab');

    await weekly.getByRole('button', { name: 'Pause' }).click();
    await weekly.getByText('Paused', { exact: true }).waitFor();
    expect((await (await h.get('/api/llm/acme/flows/digest/schedules/weekly')).json()).enabled).toBe(false);
    await weekly.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete schedule weekly?' }).getByRole('button', { name: 'Delete' }).click();
    await weekly.waitFor({ state: 'detached' });
    expect((await h.get('/api/llm/acme/flows/digest/schedules/weekly')).status).toBe(404);
  });
});
