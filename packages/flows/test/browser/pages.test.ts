import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { simpleFlow } from '../helpers/harness.ts';

interface Figures {
  runs: number;
  failed: number;
  failure_rate: number | null;
  prompt_tokens: number;
  completion_tokens: number;
}
interface Stats {
  total: Figures & { by_hour: Array<Figures & { hour: string }> };
  flows: Array<Figures & { flow: string }>;
}

/** Runs of the last 24 hours (started at past times, which a run over HTTP cannot be), for the Overview's charts. */
async function seedDayOfRuns(h: UiHarness & { busyToken?: string }, orgId: number): Promise<void> {
  const now = Date.now();
  const rows = [];
  for (let hour = 0; hour < 24; hour++) {
    const count = hour % 7 === 3 ? 0 : 2 + ((hour * 7) % 9);
    for (let i = 0; i < count; i++) {
      const flow = i % 3 === 0 ? 'triage' : 'support-bot';
      const failed = (hour + i) % 6 === 0;
      const started = new Date(now - (hour * 3600 + i * 97) * 1000 - 60_000);
      const latency = 300 + ((hour * 131 + i * 53) % 900) + (flow === 'triage' ? 1500 : 0);
      const usage = failed
        ? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }
        : { prompt_tokens: 120 + i * 7, completion_tokens: 40 + hour, total_tokens: 160 + i * 7 + hour };
      rows.push({
        id: `run_seed_${hour}_${i}`,
        org_id: orgId,
        flow,
        version: 1,
        status: failed ? 'failed' : 'succeeded',
        input: JSON.stringify({ question: `Seeded ${hour}/${i}` }),
        metadata: '{}',
        output: failed ? null : JSON.stringify('Seeded answer'),
        error: failed ? JSON.stringify({ message: 'Provider error (HTTP 500)', type: 'api_error', code: 'upstream_error' }) : null,
        usage: JSON.stringify(usage),
        latency_ms: latency,
        started_at: started.toISOString(),
        finished_at: new Date(started.getTime() + latency).toISOString(),
        trace: '[]',
      });
    }
  }
  await h.stores.runs.upsert(rows);
  h.busyToken = (await h.stores.orgs.createToken(orgId, { scope: 'manage', name: 'seed' })).token;
}

describeInBrowser("Overview, Flows and a flow's API page in the browser", () => {
  let h: UiHarness & { busyToken?: string };
  let page: Page;

  beforeAll(async () => {
    h = await startUiHarness('sqlite');
    await h.stores.orgs.createOrg('fresh', 'Fresh Start');
    await seedDayOfRuns(h, (await h.stores.orgs.createOrg('busy', 'Busy Inc')).id);
    await h.save({
      ...simpleFlow({ name: 'Support bot', slug: 'support-bot', extraVariables: [{ name: 'tier', type: 'enum', values: ['free', 'pro'], default: 'free' }] }),
      description: 'Answers product questions',
    });
    await h.save(simpleFlow({ name: 'Flaky bot', slug: 'flaky-bot', model: 'fail' }));
    for (let i = 0; i < 6; i++) await (await h.post('/api/llm/acme/flows/support-bot/run', { input: { question: `Question ${i}` } }, h.runToken)).text();
    for (let i = 0; i < 2; i++) await (await h.post('/api/llm/acme/flows/flaky-bot/run', { input: { question: `Doomed ${i}` } }, h.runToken)).text();
    const context = await h.context();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.base });
    page = await context.newPage();
    await page.goto('/orgs/acme');
    await page.getByLabel('Email').fill(h.email);
    await page.getByLabel('Password').fill(h.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });
  afterAll(async () => {
    await h?.close();
  });

  const stats = async () => (await (await h.get('/api/llm/acme/stats?hours=24')).json()) as Stats;
  const tile = async (label: string) =>
    (
      await page
        .locator('.tiles > div')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('dd')
        .innerText()
    ).trim();

  it('Overview: totals and the five charts of the last 24 hours, each with a title, a text alternative and its figures', async () => {
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const expected = await stats();
    expect(expected.total.runs).toBe(8);
    expect(expected.total.failed).toBe(2);
    expect(await tile('Runs')).toBe('8');
    expect(await tile('Failed')).toBe('2');
    expect(await tile('Failure rate')).toBe('25%');
    expect(await tile('Tokens')).toBe(String(expected.total.prompt_tokens + expected.total.completion_tokens));

    const charts = page.getByRole('img');
    expect(await charts.count()).toBe(5);
    const names = await charts.evaluateAll((svgs) => svgs.map((svg) => svg.getAttribute('aria-label')));
    expect(names).toEqual([
      'Runs per hour. 8 runs of all flows in the last 24 hours, 2 failed; at most 8 in one hour.',
      'Failure rate. 25% of finished runs failed over the window; hours without finished runs are left empty.',
      expect.stringMatching(/^Latency p50 \/ p95\. Over the window, half the runs took at most [\d.]+ m?s and 95% at most [\d.]+ m?s\.$/),
      `Tokens per hour. ${expected.total.prompt_tokens} prompt and ${expected.total.completion_tokens} completion tokens over the window.`,
      'Cost per hour. $0 of priced model calls over the window (calls to a model without a price count nothing: LLM Hub → Providers → Prices).',
    ]);
    expect(await tile('Cost')).toBe('$0');
    for (const title of ['Runs per hour', 'Failure rate', 'Latency p50 / p95', 'Tokens per hour', 'Cost per hour'])
      await page.getByRole('heading', { name: title, level: 3 }).waitFor();

    // The figures behind "Runs per hour": the current hour holds every run.
    const runsChart = page.getByRole('figure').filter({ has: page.getByRole('heading', { name: 'Runs per hour' }) });
    await runsChart.getByText('Show the figures').click();
    const rows = runsChart.getByRole('table').getByRole('row');
    expect(await rows.count()).toBe(25);
    expect((await rows.last().getByRole('cell').allInnerTexts()).slice(1)).toEqual(['6', '2']);
    expect((await rows.nth(1).getByRole('cell').allInnerTexts()).slice(1)).toEqual(['0', '0']);
    await runsChart.getByText('Show the figures').click();

    const perFlow = page.getByRole('region', { name: 'Per flow' }).getByRole('row');
    expect(await perFlow.count()).toBe(3);
    expect((await perFlow.nth(1).getByRole('cell').allInnerTexts()).slice(0, 4)).toEqual(['Support bot', '6', '0', '0%']);
    expect((await perFlow.nth(2).getByRole('cell').allInnerTexts()).slice(0, 4)).toEqual(['Flaky bot', '2', '2', '100%']);
    await screenshot(page, 'overview');
  });

  it('Overview per flow: the Flow selector (in the URL) shows one flow, and back returns to all flows', async () => {
    await page.getByRole('combobox', { name: 'Flow' }).selectOption('flaky-bot');
    await page.waitForURL(`${h.base}/orgs/acme?flow=flaky-bot`);
    await expect.poll(() => tile('Runs')).toBe('2');
    expect(await tile('Failure rate')).toBe('100%');
    expect(await page.getByText('The last 24 hours of flow Flaky bot, by hour (your time zone).').isVisible()).toBe(true);
    await page.goBack();
    await page.waitForURL(`${h.base}/orgs/acme`);
    await page.waitForFunction(() => document.querySelector('.tiles dd')?.textContent === '8');
    await page.getByRole('region', { name: 'Per flow' }).getByRole('button', { name: 'Support bot' }).click();
    await page.waitForURL(`${h.base}/orgs/acme?flow=support-bot`);
    await expect.poll(() => tile('Runs')).toBe('6');
  });

  it('Overview of an organization without runs says what to do first', async () => {
    await page.getByRole('combobox', { name: 'Organization' }).selectOption('fresh');
    await page.waitForURL(`${h.base}/orgs/fresh`);
    await page.getByRole('heading', { name: 'Nothing has run yet' }).waitFor();
    for (const name of ['Create a flow', 'Connect a model provider', 'create a run token'])
      expect(await page.getByRole('link', { name }).isVisible()).toBe(true);
    expect(await page.getByRole('img').count()).toBe(0);
    await screenshot(page, 'overview-empty');
    await page.getByRole('link', { name: 'create a run token' }).click();
    await page.waitForURL(`${h.base}/orgs/fresh/tokens`);
  });

  it('shows the loading state, then a failed load with Try again, and loads when tried again', async () => {
    let fail = true;
    let answer: () => void = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/api/llm/acme/stats*', async (route) => {
      if (!fail) return route.continue();
      await held;
      return route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { message: 'Database unavailable', type: 'api_error', code: 'internal' } }),
      });
    });
    await page.goto('/orgs/acme');
    await page.getByRole('status').filter({ hasText: 'Loading the last 24 hours…' }).waitFor();
    answer();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect((await alert.innerText()).replace(/\s+/g, ' ')).toBe('Something went wrong Database unavailable Try again');
    fail = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('img', { name: /^Runs per hour\./ }).waitFor();
    await page.unroute('**/api/llm/acme/stats*');
  });

  it('Flows lists each flow with a link to its API page', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Flows' }).click();
    const row = page.getByRole('row').filter({ hasText: 'support-bot' });
    await row.waitFor();
    expect((await row.getByRole('cell').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '))).toEqual([
      'Support bot Answers product questions',
      'support-bot',
      '1',
      'just now',
      '6',
      'API',
      'DuplicateDelete',
    ]);
    await screenshot(page, 'flows');
    await row.getByRole('link', { name: 'API of Support bot' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/flows/support-bot/api`);
  });

  it("the API page shows the input schema, the OpenAI client's base URL and model, and every snippet with a Copy button", async () => {
    await page.getByRole('heading', { name: 'API of Support bot', level: 1 }).waitFor();
    expect(await page.title()).toBe('API · Support bot · Switchboard Flows');
    await screenshot(page, 'flow-api');
    const snippets = (
      (await (await h.get('/api/llm/acme/flows/support-bot/snippets')).json()) as { snippets: Array<{ id: string; title: string; code: string }> }
    ).snippets;
    const schema = await (await h.get('/api/llm/acme/flows/support-bot/schema')).json();
    const flowUrl = `${h.base}/api/llm/acme/flows/support-bot`;

    const openai = page.getByRole('region', { name: 'OpenAI client' });
    expect((await openai.innerText()).replace(/\s+/g, ' ')).toBe(
      `OpenAI client Base URL ${flowUrl} Copy Model service-flow Copy API key a token of this organization`,
    );
    await openai.getByRole('button', { name: 'Copy base URL' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(flowUrl);
    await openai.getByRole('button', { name: 'Copy model' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('service-flow');

    const schemaBlock = page.getByRole('figure').filter({ hasText: 'Input JSON Schema' });
    expect(await schemaBlock.locator('code').innerText()).toBe(JSON.stringify(schema, null, 2));
    expect(schema).toMatchObject({ type: 'object', required: ['question'] });

    // Every snippet, tab by tab, each with its own Copy button; the tabs move with the arrow keys.
    const tabs = page.getByRole('tablist', { name: 'Snippet language' }).getByRole('tab');
    expect(await tabs.allInnerTexts()).toEqual(['curl', 'JavaScript (fetch)', 'Python (requests)', 'OpenAI SDK (JavaScript)', 'OpenAI SDK (Python)']);
    const seen: string[] = [];
    await tabs.first().click();
    for (let i = 0; i < (await tabs.count()); i++) {
      if (i > 0) await page.keyboard.press('ArrowRight');
      expect(await tabs.nth(i).getAttribute('aria-selected')).toBe('true');
      const panel = page.getByRole('tabpanel');
      for (const block of await panel.getByRole('figure').all()) {
        const title = (await block.locator('figcaption span').innerText()).trim();
        const snippet = snippets.find((s) => s.title === title)!;
        expect(await block.locator('code').innerText()).toBe(snippet.code);
        expect(await block.getByRole('button', { name: `Copy ${title}` }).innerText()).toBe('Copy');
        seen.push(snippet.id);
      }
    }
    expect(seen.sort()).toEqual(snippets.map((s) => s.id).sort());
    expect(seen).toHaveLength(11);

    await tabs.first().click();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Copy curl', exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippets.find((s) => s.id === 'curl')!.code);
  });

  it('the API page of an unknown flow says it is not found', async () => {
    await page.goto('/orgs/acme/flows/no-such-flow/api');
    await page.getByRole('heading', { name: 'Flow not found', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'See all flows' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/flows`);
  });

  it('Overview of a day of runs draws a bar for every busy hour and the latency lines across them', async () => {
    await page.goto('/orgs/busy');
    const chart = page.getByRole('figure').filter({ has: page.getByRole('heading', { name: 'Runs per hour' }) });
    await chart.getByRole('img').waitFor();
    const busyStats = (await (await h.get('/api/llm/busy/stats?hours=24', h.busyToken)).json()) as Stats;
    const busyHours = busyStats.total.by_hour.filter((hour) => hour.runs > 0);
    expect(busyHours.length).toBeGreaterThanOrEqual(20);
    expect(await tile('Runs')).toBe(String(busyStats.total.runs));
    // One stacked bar part per hour and outcome that had runs.
    const parts = busyStats.total.by_hour.reduce((sum, hour) => sum + (hour.runs - hour.failed > 0 ? 1 : 0) + (hour.failed > 0 ? 1 : 0), 0);
    expect(await chart.locator('rect').count()).toBe(parts);
    const latency = page.getByRole('figure').filter({ has: page.getByRole('heading', { name: 'Latency p50 / p95' }) });
    expect(await latency.locator('circle').count()).toBe(busyHours.length * 2);
    expect(await page.getByRole('region', { name: 'Per flow' }).getByRole('row').count()).toBe(busyStats.flows.length + 1);
    await screenshot(page, 'overview-day');
  });

  it('every page fits an 800-pixel-wide window without horizontal scrolling', async () => {
    await page.setViewportSize({ width: 800, height: 800 });
    const runId = ((await (await h.get('/api/llm/acme/runs?limit=1')).json()) as { runs: Array<{ id: string }> }).runs[0].id;
    for (const path of [
      '/orgs/acme',
      '/orgs/acme/flows',
      '/orgs/acme/runs',
      `/orgs/acme/runs/${runId}`,
      '/orgs/acme/knowledge',
      '/orgs/acme/tokens',
      '/orgs/acme/providers',
      '/orgs/acme/flows/support-bot/api',
    ]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForFunction(() => !document.querySelector('[role=status] .spinner'));
      const overflow = await page.evaluate(() => {
        const main = document.querySelector('main')!;
        return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, main: main.scrollWidth - main.clientWidth };
      });
      expect({ path, ...overflow }).toEqual({ path, page: 0, main: 0 });
    }
    await page.goto('/orgs/acme');
    await page.getByRole('img', { name: /^Runs per hour\./ }).waitFor();
    await screenshot(page, 'overview-800px');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
