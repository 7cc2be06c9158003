import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { simpleFlow } from '../helpers/harness.ts';
import { ToolUpstream } from '../helpers/tool-upstream.ts';
import { toolFlow } from '../helpers/agent-harness.ts';

const XSS = '<img src=x onerror=alert(1)>';

interface ApiRun {
  id: string;
  flow: string;
  status: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  trace: Array<{ node: string; type: string; status: string; ms: number; tool_calls?: unknown[] }>;
}

describeInBrowser('Runs and a run with its trace timeline, in the browser', () => {
  let h: UiHarness;
  let tools: ToolUpstream;
  let page: Page;
  const dialogs: string[] = [];
  let oldestRun: string;
  let supportRun: string;
  let orderRun: string;
  let xssRun: string;

  /** Calls a flow over plain HTTP with the run token; answers the run id. */
  const run = async (slug: string, question: string): Promise<string> => {
    const response = await h.post(`/api/llm/acme/flows/${slug}/run`, { input: { question }, metadata: { session_id: 'visitor-7' } }, h.runToken);
    await response.text();
    return response.headers.get('x-run-id')!;
  };
  const apiRun = async (id: string) => (await (await h.get(`/api/llm/acme/runs/${id}`)).json()) as ApiRun;

  beforeAll(async () => {
    h = await startUiHarness('sqlite');
    tools = await new ToolUpstream().start();
    const org = await h.stores.orgs.findOrg('acme');
    await h.stores.orgs.setProvider(org!.id, { name: 'tools', kind: 'openai-compatible', baseUrl: tools.url });
    tools.plans.set('order', [[{ name: 'lookup_order', args: { order_id: '42' } }]]);
    await h.save(simpleFlow({ name: 'Support bot', slug: 'support-bot' }));
    await h.save(simpleFlow({ name: 'Failing bot', slug: 'failing', model: 'fail' }));
    await h.save(simpleFlow({ name: XSS, slug: 'xss-bot', format: 'raw', model: `reply:${XSS}` }));
    // A tool at a loopback address is refused when the run calls it: the model gets the error as the tool's result.
    await h.save(
      toolFlow('order-bot', 'plan:order', [
        {
          id: 'lookup',
          data: {
            kind: 'http',
            name: 'lookup_order',
            description: 'Look up an order',
            parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
            request: { method: 'GET', url: 'http://127.0.0.1:9/orders/{{args.order_id}}' },
          },
        },
      ]),
    );
    // 33 runs: 28 of support-bot, 3 failed, one with a tool call, one whose output is HTML.
    oldestRun = await run('support-bot', 'Question 0');
    for (let i = 1; i < 27; i++) await run('support-bot', `Question ${i}`);
    for (let i = 0; i < 3; i++) await run('failing', `Doomed ${i}`);
    supportRun = await run('support-bot', 'Where is my parcel?');
    orderRun = await run('order-bot', 'Where is order 42?');
    xssRun = await run('xss-bot', 'Say HTML');
    page = await h.signedInPage('/orgs/acme');
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });
  afterAll(async () => {
    await h?.close();
    await tools?.close();
  });

  it('lists a run made over HTTP, and its page shows input, output, usage and a Timeline with one item per trace entry', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/runs`);
    const recorded = await apiRun(supportRun);
    expect(recorded.usage).toEqual({ prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 });
    const row = page.getByRole('row').filter({ hasText: supportRun });
    await row.waitFor();
    // The flow's name replaces its slug once the flows are listed.
    await expect
      .poll(async () => (await row.innerText()).replace(/\s+/g, ' ').trim())
      .toMatch(new RegExp(`^\\S.* ${supportRun} Support bot support-bot 1 succeeded \\d+ ms 12 \\$0\\+ API$`));
    expect(await page.getByRole('row').count()).toBe(26);
    await screenshot(page, 'runs');

    await row.getByRole('link').click();
    await page.waitForURL(`${h.base}/orgs/acme/runs/${supportRun}`);
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.waitFor();
    const items = timeline.getByRole('listitem');
    expect(await items.count()).toBe(recorded.trace.length);
    expect(recorded.trace.map((t) => t.node)).toEqual(['input', 'answer', 'output']);
    for (const [index, entry] of recorded.trace.entries()) {
      const text = (await items.nth(index).innerText()).replace(/\s+/g, ' ');
      expect(text).toMatch(new RegExp(`^${entry.node} ${entry.type} ${entry.status} [\\d.]+ ms`));
    }
    expect(await page.getByRole('region', { name: 'Output' }).getByText('Echo: Where is my parcel?', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('region', { name: 'Input' }).innerText()).toContain('"question": "Where is my parcel?"');
    expect(await page.getByRole('region', { name: 'Metadata' }).innerText()).toContain('"session_id": "visitor-7"');
    const summary = (await page.getByRole('region', { name: 'Summary' }).innerText()).replace(/\s+/g, ' ');
    expect(summary).toContain(`Run ${supportRun} Copy Usage 12 tokens (7 prompt, 5 completion)`);
    expect(summary).toMatch(/^Flow support-bot v1 · its runs Started .+ Finished .+ Latency \d+ ms /);
    expect(await page.title()).toBe(`Run ${supportRun} · Switchboard Flows`);
  });

  it('draws each entry as a bar on the time axis and marks tool calls, which expand to their arguments and error', async () => {
    await page.goto(`/orgs/acme/runs/${orderRun}`);
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.waitFor();
    const recorded = await apiRun(orderRun);
    const items = timeline.getByRole('listitem').filter({ has: page.locator('.timeline-row') });
    expect(await items.count()).toBe(recorded.trace.length);
    expect(await timeline.locator('.timeline-bar').count()).toBe(recorded.trace.length);
    const answer = items.filter({ has: page.locator('.timeline-node', { hasText: /^answer$/ }) });
    expect(await answer.locator('.timeline-tools').innerText()).toBe('1 tool call');
    // The LLM node's bar is wider than the Input node's: width is duration on the run's axis.
    const widthOf = async (node: string) =>
      (await items
        .filter({ has: page.locator('.timeline-node', { hasText: new RegExp(`^${node}$`) }) })
        .locator('.timeline-bar')
        .boundingBox())!.width;
    expect(await widthOf('answer')).toBeGreaterThan(await widthOf('input'));

    await answer.getByText('1 tool call, 1 failed: lookup_order').click();
    const calls = page.getByRole('list', { name: 'Tool calls of answer' }).getByRole('listitem');
    expect(await calls.count()).toBe(1);
    const call = (await calls.first().innerText()).replace(/\s+/g, ' ');
    expect(call).toMatch(/^lookup_order node lookup failed Arguments order_id "42" Error Refused to connect to 127\.0\.0\.1/);
    await page.getByRole('heading', { name: 'Trace' }).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'run-timeline');
  });

  it('filters by status and flow through the URL query, pages with the cursor, and back/forward restore each view', async () => {
    await page.goto('/orgs/acme/runs');
    await page.getByRole('row').nth(25).waitFor();
    const runIds = async () => (await page.locator('tbody .run-id').allInnerTexts()).map((t) => t.trim());
    const firstPage = await runIds();
    expect(firstPage).toHaveLength(25);
    expect(firstPage[0]).toBe(xssRun);

    await page.getByRole('button', { name: 'Next →' }).click();
    await page.waitForURL(/[?&]before=/);
    await page.waitForFunction((first) => !document.body.innerText.includes(first), firstPage[0]);
    const secondPage = await runIds();
    expect(secondPage).toHaveLength(8);
    expect(secondPage.at(-1)).toBe(oldestRun);
    expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);
    expect(await page.getByRole('button', { name: 'Next →' }).isDisabled()).toBe(true);
    expect(await page.getByText('Page 2').isVisible()).toBe(true);

    await page.getByRole('button', { name: '← Previous' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/runs`);
    await page.getByRole('row').filter({ hasText: xssRun }).waitFor();
    expect(await runIds()).toEqual(firstPage);

    await page.getByRole('combobox', { name: 'Status' }).selectOption('failed');
    await page.waitForURL(`${h.base}/orgs/acme/runs?status=failed`);
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 3);
    expect(await page.locator('tbody').getByText('failed', { exact: true }).count()).toBe(3);

    await page.getByRole('combobox', { name: 'Flow' }).selectOption('support-bot');
    await page.waitForURL(`${h.base}/orgs/acme/runs?flow=support-bot&status=failed`);
    await page.getByRole('heading', { name: 'No runs match these filters' }).waitFor();

    await page.goBack();
    await page.waitForURL(`${h.base}/orgs/acme/runs?status=failed`);
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 3);
    expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('failed');
    expect(await page.getByRole('combobox', { name: 'Flow' }).inputValue()).toBe('');
    await page.goForward();
    await page.getByRole('heading', { name: 'No runs match these filters' }).waitFor();

    // A shared link opens the same list.
    await page.goto('/orgs/acme/runs?flow=order-bot');
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    expect(await runIds()).toEqual([orderRun]);
    expect(await page.getByRole('combobox', { name: 'Flow' }).inputValue()).toBe('order-bot');
  });

  it('shows a failed run with its error, and a clear not-found state for an unknown run', async () => {
    const failed = ((await (await h.get('/api/llm/acme/runs?status=failed&limit=1')).json()) as { runs: ApiRun[] }).runs[0];
    await page.goto(`/orgs/acme/runs/${failed.id}`);
    const error = page.getByRole('region', { name: 'Error' });
    await error.waitFor();
    expect(await error.innerText()).toMatch(/^Error\s+Provider error \(HTTP 500\): .+ \(upstream_error\)$/);
    await screenshot(page, 'run-failed');

    await page.goto('/orgs/acme/runs/run_does_not_exist');
    await page.getByRole('heading', { name: 'Run not found', level: 1 }).waitFor();
    expect(await page.getByText('There is no run run_does_not_exist in this organization.', { exact: false }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'See all runs' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/runs`);
  });

  it('renders a flow name and a run output holding HTML as text: no img element, no dialog', async () => {
    await page.goto('/orgs/acme/runs?flow=xss-bot');
    const row = page.getByRole('row').filter({ hasText: xssRun });
    await row.waitFor();
    expect(await row.getByText(XSS, { exact: true }).isVisible()).toBe(true);
    await row.getByRole('link').click();
    const output = page.getByRole('region', { name: 'Output' });
    await output.waitFor();
    expect(await output.locator('pre').innerText()).toBe(XSS);
    expect(await page.locator('img').count()).toBe(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Flows' }).click();
    await page.getByText(XSS, { exact: true }).waitFor();
    expect(await page.locator('img').count()).toBe(0);
    await page.goto('/orgs/acme');
    await page.getByRole('heading', { name: 'Per flow' }).waitFor();
    expect(await page.getByRole('button', { name: XSS }).isVisible()).toBe(true);
    expect(await page.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });
});
