import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { simpleFlow } from '../helpers/harness.ts';
import { ToolUpstream } from '../helpers/tool-upstream.ts';
import { CanvasPage } from './canvas-page.ts';

describeInBrowser('keeping flows and knowledge, at every width', () => {
  let h: UiHarness;
  let page: Page;
  let canvas: CanvasPage;
  let embedder: ToolUpstream;

  beforeAll(async () => {
    h = await startUiHarness('sqlite');
    embedder = await new ToolUpstream().start();
    const org = await h.stores.orgs.requireOrg('acme');
    await h.stores.orgs.setProvider(org.id, { name: 'embedder', kind: 'openai-compatible', baseUrl: embedder.url });
    await h.save(simpleFlow({ name: 'Support bot', slug: 'support-bot', format: 'raw' }));
    await h.save({ ...simpleFlow({ name: 'Billing helper', slug: 'billing', format: 'raw' }), description: 'Answers invoice questions' });
    await h.save(simpleFlow({ name: 'Archive', slug: 'archive', format: 'raw' }));
    page = await h.signedInPage('/orgs/acme/flows');
    canvas = new CanvasPage(page);
  });
  afterAll(async () => {
    await h?.close();
    await embedder?.close();
  });

  const names = () => page.getByRole('table').getByRole('row').locator('td:first-child a').allInnerTexts();

  it('searches and sorts the flows, duplicates one, deletes one (its runs stay readable), and imports a definition as a new flow', async () => {
    await page.getByRole('table').waitFor();
    expect(await names()).toEqual(['Archive', 'Billing helper', 'Support bot']);
    await page.getByRole('searchbox', { name: 'Search flows' }).fill('invoice');
    expect(await names()).toEqual(['Billing helper']);
    await page.getByRole('searchbox', { name: 'Search flows' }).fill('nothing like it');
    await page.getByText('No flows match “nothing like it”').waitFor();
    await page.getByRole('searchbox', { name: 'Search flows' }).fill('');
    await page.getByRole('button', { name: 'Name' }).click();
    expect(await page.getByRole('columnheader', { name: /^Name/ }).getAttribute('aria-sort')).toBe('ascending');
    await page.getByRole('button', { name: 'Name' }).click();
    expect(await names()).toEqual(['Support bot', 'Billing helper', 'Archive']);
    await screenshot(page, 'flows-search-sort');

    await page.getByRole('button', { name: 'Duplicate Support bot' }).click();
    const copy = page.getByRole('dialog', { name: 'Duplicate "Support bot"' });
    expect(await copy.getByLabel('Name').inputValue()).toBe('Support bot (copy)');
    await copy.getByLabel('Name').fill('Support bot two');
    await copy.getByRole('button', { name: 'Duplicate' }).click();
    await page.getByRole('link', { name: 'Support bot two', exact: true }).waitFor();
    expect((await (await h.get('/api/llm/acme/flows/support-bot-two')).json()).version).toBe(1);

    const run = await h.post('/api/llm/acme/flows/archive/run', { input: { question: 'old' } }, h.runToken);
    const runId = run.headers.get('x-run-id')!;
    await page.getByRole('button', { name: 'Delete Archive' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete flow "Archive"?' });
    await confirm.getByText(/Its runs stay readable under Runs/).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('link', { name: 'Archive', exact: true }).waitFor({ state: 'detached' });
    await page.goto(`/orgs/acme/runs/${runId}`);
    await page.getByRole('region', { name: 'Summary' }).getByText('deleted').waitFor();
    expect(await page.getByRole('region', { name: 'Summary' }).innerText()).toContain('Archive archive deleted');

    await page.goto('/orgs/acme/flows');
    await page.getByRole('button', { name: 'Import flow' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import flow' });
    await dialog.getByLabel('Definition JSON').fill(JSON.stringify({ ...simpleFlow({ name: 'Imported bot', slug: 'support-bot', format: 'raw' }) }));
    await dialog.getByRole('button', { name: 'Import' }).click();
    // A new flow (its own slug), never a new version of the flow the file names.
    await page.waitForURL(`${h.base}/orgs/acme/flows/imported-bot`);
    await canvas.ready();
    expect((await (await h.get('/api/llm/acme/flows/support-bot')).json()).version).toBe(1);
  });

  it('keeps a knowledge base: embedding chosen at creation, uploads that replace or change nothing, chunks, deletion, a new model with progress', async () => {
    await page.goto('/orgs/acme/knowledge');
    await page.getByRole('button', { name: 'New knowledge base' }).first().click();
    const create = page.getByRole('dialog', { name: 'New knowledge base' });
    await create.getByLabel('Name').fill('handbook');
    await create.getByLabel('Embedding provider').selectOption('embedder');
    await create.getByLabel('Embedding model').fill('embed-a');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByText(/embeddings of embedder \/ embed-a/).waitFor();

    const upload = async (name: string, text: string) =>
      page.getByLabel('Choose files').setInputFiles({ name, mimeType: 'text/markdown', buffer: Buffer.from(text) });
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await upload('refunds.md', '# Refunds\n\nRefunds take 14 days.');
    await uploads.getByText('Added: 1 chunk').waitFor();
    await upload('refunds.md', '# Refunds\n\nRefunds take 14 days.');
    await uploads.getByText('Unchanged: the same content is already there').waitFor();
    await upload('refunds.md', '# Refunds\n\nRefunds now take 30 days.');
    await uploads.getByText('Replaced the document of that name: 1 chunk').waitFor();
    await upload('shipping.md', '# Shipping\n\nParcels leave on weekdays.');
    await expect.poll(() => uploads.getByRole('listitem').count()).toBe(4);
    const documents = page.getByRole('region', { name: 'Documents' });
    await expect.poll(() => documents.getByRole('row').count()).toBe(3);
    expect(embedder.embeddingCalls.filter((c) => c.model === 'embed-a')).toHaveLength(3);

    await documents.getByRole('button', { name: 'Chunks of refunds.md' }).click();
    const chunks = page.getByRole('dialog', { name: 'Chunks of refunds.md' });
    expect(await chunks.getByRole('list', { name: 'Chunks of refunds.md' }).innerText()).toContain('Refunds now take 30 days.');
    await chunks.getByText('Embedded').waitFor();
    await screenshot(page, 'knowledge-chunks');
    await page.keyboard.press('Escape');
    await chunks.waitFor({ state: 'detached' });

    await documents.getByRole('button', { name: 'Delete shipping.md' }).click();
    await page.getByRole('dialog', { name: 'Delete "shipping.md"?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => documents.getByRole('row').count()).toBe(2);

    await page.getByRole('button', { name: 'Change embedding' }).click();
    const change = page.getByRole('dialog', { name: 'Embedding of "handbook"' });
    await change.getByLabel('Embedding model').fill('embed-b');
    await change.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/embeddings of embedder \/ embed-b/).waitFor();
    await expect
      .poll(() => embedder.embeddingCalls.filter((c) => c.model === 'embed-b').flatMap((c) => c.input))
      .toEqual(['# Refunds\n\nRefunds now take 30 days.']);
    await screenshot(page, 'knowledge-embedding-changed');
  });

  it('reaches every toolbar action at 800 px, with the palette and the panel as drawers', async () => {
    await page.setViewportSize({ width: 800, height: 800 });
    await canvas.open(h.base, 'acme', 'support-bot');
    const toolbar = page.getByRole('region', { name: 'Flow toolbar' });
    for (const name of ['Palette', 'Panel', 'Undo', 'Redo', 'Auto layout', 'Import JSON', 'Export JSON', 'Save']) {
      const box = (await toolbar.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= 800, `${name} is within the window`).toBe(true);
    }
    expect(await toolbar.getByRole('link', { name: 'API', exact: true }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    await screenshot(page, 'canvas-800');
    await toolbar.getByRole('button', { name: 'Palette' }).click();
    await canvas.paletteEntry('Template').click();
    await canvas.node('template').waitFor();
    // Adding a node opens its settings in the panel drawer.
    await page.getByRole('region', { name: 'Settings of template' }).waitFor();
    await screenshot(page, 'canvas-800-panel');
    await toolbar.getByRole('button', { name: 'Panel' }).click();
    await page.getByRole('region', { name: 'Settings of template' }).waitFor({ state: 'hidden' });

    await page.goto('/orgs/acme/flows');
    await page.getByRole('table').waitFor();
    await screenshot(page, 'flows-800');
  });

  it('reads the canvas on a phone (390 px): nodes stay put, Run works, tables scroll inside their card', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await canvas.open(h.base, 'acme', 'billing');
    // A drag on a node pans the view (to read it) instead of moving the node: nothing changes in the flow.
    const offset = async () => {
      const [a, b] = [(await canvas.node('input').boundingBox())!, (await canvas.node('answer').boundingBox())!];
      return [Math.round(b.x - a.x), Math.round(b.y - a.y)];
    };
    const before = await offset();
    const box = (await canvas.node('answer').boundingBox())!;
    await page.mouse.move(box.x + 40, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + 120, box.y + 90, { steps: 5 });
    await page.mouse.up();
    expect(await offset()).toEqual(before);
    expect(await canvas.saveState().innerText()).toBe('Version 1');
    const panel = page.getByRole('tabpanel', { name: 'Run' });
    await panel.getByRole('textbox', { name: 'question', exact: true }).fill('From my phone');
    await panel.getByRole('button', { name: 'Run', exact: true }).click();
    await panel
      .getByRole('status')
      .getByText(/^Finished in \d+ ms$/)
      .waitFor();
    expect((await panel.getByRole('log', { name: 'Answer' }).innerText()).trim()).toBe('Echo: From my phone');
    await screenshot(page, 'canvas-390');

    for (const path of ['/orgs/acme/flows', '/orgs/acme/runs']) {
      await page.goto(path);
      const wrap = page.locator('.table-wrap').first();
      await wrap.waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} fits 390 px`).toBeLessThanOrEqual(390);
      expect(
        await wrap.evaluate((e) => e.scrollWidth > e.clientWidth && getComputedStyle(e).overflowX !== 'visible'),
        `${path}'s table scrolls in its card`,
      ).toBe(true);
      await screenshot(page, `${path.split('/').pop()}-390`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
