import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { simpleFlow } from '../helpers/harness.ts';
import { CanvasPage } from './canvas-page.ts';

const LLM_COLOUR = '79,70,229';
const TEMPLATE_COLOUR = '100,116,139';

describeInBrowser('the canvas shows what it holds now', () => {
  let h: UiHarness;
  let page: Page;
  let canvas: CanvasPage;

  beforeAll(async () => {
    h = await startUiHarness('sqlite');
    page = await h.signedInPage('/orgs/acme/flows');
    canvas = new CanvasPage(page);
  });
  afterAll(async () => {
    await h?.close();
  });

  /** An Input wired to a raw Output, side by side. */
  const twoNodes = (slug: string) => ({
    name: slug,
    slug,
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] }, position: { x: 80, y: 160 } },
      { id: 'output', type: 'output', data: { format: 'raw' }, position: { x: 520, y: 160 } },
    ],
    edges: [{ from: 'input', to: 'output' }],
  });

  /** The ids of the nodes not wholly inside the canvas pane. */
  const outOfView = async (): Promise<string[]> => {
    const pane = (await page.getByRole('region', { name: 'Canvas' }).boundingBox())!;
    const out: string[] = [];
    for (const id of await canvas.nodeIds()) {
      const box = (await canvas.node(id).boundingBox())!;
      if (box.x < pane.x - 1 || box.y < pane.y - 1 || box.x + box.width > pane.x + pane.width + 1 || box.y + box.height > pane.y + pane.height + 1)
        out.push(id);
    }
    return out;
  };

  /** The colours the minimap has drawn, as "r,g,b". */
  const minimapColours = () =>
    page.getByRole('img', { name: 'Minimap' }).evaluate((element) => {
      const minimap = element as HTMLCanvasElement;
      const { data } = minimap.getContext('2d')!.getImageData(0, 0, minimap.width, minimap.height);
      const seen = new Set<string>();
      for (let i = 0; i < data.length; i += 4) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
      return [...seen];
    });

  it('takes nodes just added or imported into Fit view and the minimap', async () => {
    await h.save(twoNodes('fitting'));
    await canvas.open(h.base, 'acme', 'fitting');
    expect(await minimapColours()).not.toContain(TEMPLATE_COLOUR);
    // A node added from the palette is on the minimap at once (the view did not move).
    await canvas.paletteEntry('Template').click();
    await canvas.node('template').waitFor();
    await expect.poll(minimapColours).toContain(TEMPLATE_COLOUR);

    // Import JSON of a 5-node flow, three of its nodes far out of the view the canvas had: all of it is shown.
    const imported = {
      name: 'Spread out',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] }, position: { x: 0, y: 0 } },
        { id: 'draft', type: 'llm', data: { provider: 'local', model: 'echo', prompt: '{{input.question}}' }, position: { x: 1400, y: 0 } },
        { id: 'polish', type: 'template', data: { template: 'Polished: {{draft.text}}' }, position: { x: 1800, y: 700 } },
        { id: 'sign', type: 'template', data: { template: '{{polish.text}} (signed)' }, position: { x: 2200, y: 1300 } },
        { id: 'output', type: 'output', data: { format: 'raw' }, position: { x: 2600, y: 1300 } },
      ],
      edges: [
        { from: 'input', to: 'draft' },
        { from: 'draft', to: 'polish' },
        { from: 'polish', to: 'sign' },
        { from: 'sign', to: 'output' },
      ],
    };
    await page.getByRole('button', { name: 'Import JSON' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import JSON' });
    await dialog.getByLabel('Definition JSON').fill(JSON.stringify(imported));
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await canvas.nodeIds()).toEqual(['input', 'draft', 'polish', 'sign', 'output']);
    await expect.poll(outOfView).toEqual([]);
    // The minimap draws the imported nodes (the LLM node's indigo) and no longer the template added before.
    await expect.poll(minimapColours).toContain(LLM_COLOUR);

    // Zoomed in, nodes leave the view; Fit view brings every one back, the two kept from before the import included.
    const controls = page.getByRole('region', { name: 'Canvas' });
    for (let i = 0; i < 4; i++) await controls.getByRole('button', { name: 'Zoom In' }).click();
    await expect.poll(async () => (await outOfView()).length).toBeGreaterThan(0);
    await controls.getByRole('button', { name: 'Fit view' }).click();
    await expect.poll(outOfView).toEqual([]);
    // So does a node just added, wherever it went.
    await canvas.paletteEntry('Template').click();
    await canvas.node('template').waitFor();
    await controls.getByRole('button', { name: 'Fit view' }).click();
    await expect.poll(outOfView).toEqual([]);
    await screenshot(page, 'canvas-fit-view-after-import');
  });

  it("clears the last run's node colours when the flow changes", async () => {
    await h.save(simpleFlow({ slug: 'flaky', model: 'fail', format: 'raw' }));
    await canvas.open(h.base, 'acme', 'flaky');
    const panel = await canvas.tab('Run');
    await panel.getByRole('textbox', { name: 'question', exact: true }).fill('hello');
    await panel.getByRole('button', { name: 'Run', exact: true }).click();
    await panel
      .getByRole('status')
      .getByText(/^Failed: /)
      .waitFor();
    const statuses = () => Promise.all(['input', 'answer', 'output'].map((id) => canvas.node(id).getAttribute('data-status')));
    expect(await statuses()).toEqual(['finished', 'failed', 'skipped']);

    // The flow is fixed: the colours of the run of the old flow go.
    await canvas.node('answer').click();
    await page.getByRole('region', { name: 'Settings of answer' }).getByLabel('Model').fill('echo');
    await expect.poll(statuses).toEqual([null, null, null]);
    expect(await canvas.save()).toBe('Saved version 2');
    expect(await statuses()).toEqual([null, null, null]);
    await screenshot(page, 'canvas-fixed-after-failed-run');

    // The next run (of version 2: its form is new) colours the nodes again.
    await canvas.tab('Run');
    await panel.getByRole('textbox', { name: 'question', exact: true }).fill('hello');
    await panel.getByRole('button', { name: 'Run', exact: true }).click();
    await panel
      .getByRole('status')
      .getByText(/^Finished in \d+ ms$/)
      .waitFor();
    expect(await statuses()).toEqual(['finished', 'finished', 'finished']);
  });

  it("numbers a switch's cases from 1 in Problems and in the save's refusal, as on the node", async () => {
    await h.save({
      name: 'Router',
      slug: 'router',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'tier', type: 'string', required: true }] }, position: { x: 0, y: 0 } },
        {
          id: 'route',
          type: 'switch',
          data: { cases: [{ if: { left: '{{input.tier}}', op: 'equals', right: 'pro' }, then: 'pro' }], else: 'free' },
          position: { x: 280, y: 0 },
        },
        { id: 'pro', type: 'template', data: { template: 'Pro' }, position: { x: 560, y: -80 } },
        { id: 'free', type: 'template', data: { template: 'Free' }, position: { x: 560, y: 80 } },
        { id: 'output', type: 'output', data: { format: 'raw' }, position: { x: 840, y: 0 } },
      ],
      edges: [
        { from: 'input', to: 'route' },
        { from: 'route', to: 'pro' },
        { from: 'route', to: 'free' },
        { from: 'pro', to: 'output' },
        { from: 'free', to: 'output' },
      ],
    });
    await canvas.open(h.base, 'acme', 'router');
    await canvas.node('route').click();
    await page.getByRole('region', { name: 'Settings of route' }).getByRole('button', { name: 'Add case' }).click();
    await expect.poll(() => canvas.node('route').innerText()).toMatch(/case 1\s*\{\{input\.tier\}\} equals pro\s*case 2\s*equals\s*else$/);
    const problem = 'Node "route": case 2: "then" must name a node this switch has an edge to';
    await expect.poll(() => canvas.problemTexts()).toEqual([`route ${problem}`]);
    expect(await canvas.node('route').getAttribute('title')).toBe(problem);
    // The server says the same: no second item "on save".
    expect(await canvas.save()).toBe('Not saved: 1 problem (see Problems)');
    expect(await canvas.problemTexts()).toEqual([`route ${problem}`]);
    await screenshot(page, 'canvas-switch-case-problem');
  });

  it('says "Created flow" once, not again when the canvas is reloaded', async () => {
    await page.goto(`${h.base}/orgs/acme/flows`);
    await page.getByRole('button', { name: 'New flow' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New flow' });
    await dialog.getByLabel('Name').fill('Announced');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/flows/announced`);
    const toast = page.getByText('Created flow "announced": its canvas starts with an Input and an Output node.');
    await toast.waitFor();
    await page.reload();
    await canvas.ready();
    // The builder has had its turn to announce (the page's checks have run): nothing.
    await expect.poll(() => canvas.problemTexts()).toEqual([]);
    await page.waitForTimeout(500);
    expect(await toast.count()).toBe(0);
    // Back and forward do not bring it back either.
    await page.goBack();
    await page.waitForURL(`${h.base}/orgs/acme/flows`);
    await page.goForward();
    await canvas.ready();
    await page.waitForTimeout(500);
    expect(await toast.count()).toBe(0);
  });

  it('counts one edge as "1 edge" and names the output formats in words', async () => {
    await canvas.open(h.base, 'acme', 'announced');
    await page.getByRole('region', { name: 'Flow settings' }).getByText('2 nodes · 1 edge', { exact: true }).waitFor();
    await canvas.node('output').click();
    const settings = page.getByRole('region', { name: 'Settings of output' });
    const format = settings.getByLabel('Format');
    expect(await format.locator('option').allInnerTexts()).toEqual(['Plain text', 'Chat completion (OpenAI)', 'JSON template']);
    expect(await format.inputValue()).toBe('raw');
    await settings.getByText('The reply alone, as text (raw)').waitFor();
    await format.selectOption({ label: 'Chat completion (OpenAI)' });
    await settings.getByText("OpenAI's ChatCompletion object (chat_completion)").waitFor();
    await screenshot(page, 'canvas-output-format');
  });

  it('offers the way back to the flows when a flow is not found', async () => {
    await page.goto(`${h.base}/orgs/acme/flows/no-such-flow`);
    await page.getByRole('heading', { name: 'Flow not found', level: 1 }).waitFor();
    await page.getByText('There is no flow no-such-flow in this organization.').waitFor();
    await screenshot(page, 'canvas-flow-not-found');
    await page.getByRole('link', { name: 'See all flows' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/flows`);
    await page.getByRole('heading', { name: 'Flows', level: 1 }).waitFor();
  });
});
