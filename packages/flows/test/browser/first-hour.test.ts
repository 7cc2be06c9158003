import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { CanvasPage } from './canvas-page.ts';

describeInBrowser("a newcomer's first hour in the flow builder", () => {
  let h: UiHarness;
  let page: Page;
  let canvas: CanvasPage;

  beforeAll(async () => {
    h = await startUiHarness('sqlite');
    // An organization with no provider connection yet: the newcomer adds one from the canvas.
    const org = await h.stores.orgs.createOrg('newbie', 'Newbie');
    await h.stores.orgs.createToken(org.id, { scope: 'manage', name: 'admin' });
    page = await h.signedInPage('/orgs/acme/flows');
    canvas = new CanvasPage(page);
  });
  afterAll(async () => {
    await h?.close();
  });
  /** The admin's draft of a flow as the service has it ('' for none). */
  const draftText = async (slug: string) => {
    const response = await fetch(`${h.base}/api/llm/acme/flows/${slug}/draft`, {
      headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ') },
    });
    return response.ok ? JSON.stringify((await response.json()).definition) : '';
  };

  it('keeps an edit that was never saved: a reload shows it with "Unsaved changes from …", and Discard brings the saved version back', async () => {
    await h.save({
      name: 'Drafty',
      slug: 'drafty',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'message', type: 'string', required: true }] }, position: { x: 80, y: 160 } },
        { id: 'output', type: 'output', data: { format: 'raw' }, position: { x: 520, y: 160 } },
      ],
      edges: [{ from: 'input', to: 'output' }],
    });
    await canvas.open(h.base, 'acme', 'drafty');
    await canvas.paletteEntry('Template').click();
    await canvas.node('template').waitFor();
    await page.getByRole('region', { name: 'Settings of template' }).getByLabel('Template').fill('Kept across a reload');
    // Within 2 s of the last keystroke the draft on the service holds it.
    const began = Date.now();
    await expect.poll(() => draftText('drafty'), { timeout: 2000, interval: 100 }).toContain('Kept across a reload');
    expect(Date.now() - began).toBeLessThan(2000);

    await page.reload();
    await canvas.ready();
    expect(await canvas.nodeIds()).toEqual(['input', 'output', 'template']);
    expect(await canvas.node('template').innerText()).toMatch(/Kept across a reload$/);
    const draft = page.getByRole('region', { name: 'Draft' });
    expect(await draft.innerText()).toMatch(/^Unsaved changes from .+: your draft, not yet a version\.\s*Discard$/);
    expect(await canvas.saveState().innerText()).toBe('Unsaved changes');
    await screenshot(page, 'canvas-draft-restored');
    // Runs use the saved version: the API still has version 1 without the template.
    expect((await (await h.get('/api/llm/acme/flows/drafty')).json()).definition.nodes).toHaveLength(2);

    await draft.getByRole('button', { name: 'Discard' }).click();
    await canvas.node('template').waitFor({ state: 'detached' });
    await draft.waitFor({ state: 'detached' });
    expect(await canvas.saveState().innerText()).toBe('Version 1');
    expect((await h.get('/api/llm/acme/flows/drafty/draft')).status).toBe(404);
  });

  it('refuses to save an invalid flow with its problems listed, while the draft keeps it', async () => {
    await canvas.open(h.base, 'acme', 'drafty');
    await canvas.paletteEntry('LLM').click();
    await canvas.node('llm').waitFor();
    expect(await canvas.save()).toMatch(/^Not saved: 2 problems/);
    const refused = await canvas.problemTexts();
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatch(/^llm .*"provider" must name a provider connection/);
    expect(refused[1]).toMatch(/^llm .*"model" must be a non-empty string/);
    await expect.poll(() => draftText('drafty')).toContain('"llm"');
    await page.reload();
    await canvas.ready();
    expect(await canvas.nodeIds()).toEqual(['input', 'output', 'llm']);
    await expect.poll(() => canvas.problemTexts()).toHaveLength(2);
    await page.getByRole('region', { name: 'Draft' }).getByRole('button', { name: 'Discard' }).click();
    await canvas.node('llm').waitFor({ state: 'detached' });
  });

  it('opens on the last edit when the builder is left and reopened (Back) while an earlier store is still on its way', async () => {
    await canvas.open(h.base, 'acme', 'drafty');
    // The first store of the draft is held on its way until the builder has been left and opened again, and the
    // closing builder's store goes after it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sent!: () => void;
    const firstStoreSent = new Promise<void>((resolve) => {
      sent = resolve;
    });
    let stores = 0;
    await page.route('**/api/llm/acme/flows/drafty/draft', async (route) => {
      if (route.request().method() === 'PUT' && ++stores === 1) {
        sent();
        await held;
      } else if (route.request().method() === 'PUT') {
        // The closing builder's store is slow too: the builder opened again must wait for it, not only for the first.
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
      await route.continue();
    });
    try {
      await canvas.paletteEntry('Template').click();
      await canvas.node('template').waitFor();
      await firstStoreSent;
      await page.getByRole('region', { name: 'Settings of template' }).getByLabel('Template').fill('Typed while the first store was held');
      await page.getByRole('link', { name: 'Flows', exact: true }).first().click();
      // The Flows page is shown: the builder has closed (until then it stays, and Back finds it as it was).
      await page.getByRole('heading', { name: 'Flows', level: 1 }).waitFor();
      const back = page.goBack();
      setTimeout(release, 300);
      await back;
      await canvas.ready();
      await page.getByRole('region', { name: 'Draft' }).waitFor();
      expect(await canvas.node('template').innerText()).toMatch(/Typed while the first store was held$/);
      expect(stores).toBe(2);
      expect(await draftText('drafty')).toContain('Typed while the first store was held');
    } finally {
      release();
      await page.unroute('**/api/llm/acme/flows/drafty/draft');
    }
    await page.getByRole('region', { name: 'Draft' }).getByRole('button', { name: 'Discard' }).click();
    await canvas.node('template').waitFor({ state: 'detached' });
  });

  it('builds a first LLM flow with the provider added from the canvas, runs it as a chat, and the run shows what the model was sent', async () => {
    await page.goto('/orgs/newbie/flows');
    await page.getByRole('button', { name: 'New flow' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New flow' });
    expect(await dialog.getByRole('radio').evaluateAll((radios) => radios.map((r) => (r.closest('label') as HTMLElement).innerText.split('\n')[0]))).toEqual([
      'Blank',
      'Chat assistant with memory',
      'Support agent over a knowledge base',
      'Router with two specialists',
      'Agent with an HTTP tool',
      'Ticket board agent (MCP)',
    ]);
    await dialog.getByLabel('Name').fill('First bot');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(`${h.base}/orgs/newbie/flows/first-bot`);
    await canvas.ready();

    // The toolbar links to the flow's API page.
    expect(await page.getByRole('region', { name: 'Flow toolbar' }).getByRole('link', { name: 'API', exact: true }).getAttribute('href')).toBe(
      '/orgs/newbie/flows/first-bot/api',
    );

    await canvas.paletteEntry('LLM').click();
    const settings = page.getByRole('region', { name: 'Settings of llm' });
    await settings.waitFor();
    await settings.getByLabel('Provider').selectOption({ label: 'Add provider…' });
    const add = page.getByRole('dialog', { name: 'Add provider' });
    await add.getByLabel('Name').fill('fake');
    await add.getByLabel('Base URL').fill(h.upstream.url);
    await add.getByRole('button', { name: 'Save' }).click();
    await add.waitFor({ state: 'detached' });
    // Still on the canvas, the new connection chosen; its models come from the provider.
    expect(new URL(page.url()).pathname).toBe('/orgs/newbie/flows/first-bot');
    expect(await settings.getByLabel('Provider').inputValue()).toBe('fake');
    const model = settings.getByRole('combobox', { name: 'Model' });
    await expect
      .poll(() => model.evaluate((input) => Array.from((input as HTMLInputElement).list?.options ?? []).map((o) => o.value)))
      .toEqual(['echo', 'slow', 'text-embedding-test']);
    await settings.getByText('3 models of fake; any other name works too.').waitFor();
    await model.fill('echo');
    // A connection added elsewhere (another tab, the CLI) shows once the window regains focus.
    const newbie = await h.stores.orgs.requireOrg('newbie');
    await h.stores.orgs.setProvider(newbie.id, { name: 'elsewhere', kind: 'openai-compatible', baseUrl: h.upstream.url });
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect
      .poll(() => settings.getByLabel('Provider').locator('option').allInnerTexts())
      .toEqual(['Choose a connection', 'elsewhere', 'fake', 'Add provider…']);
    await settings.getByLabel('Prompt', { exact: true }).fill('{{input.message}}');
    await settings.getByLabel('Memory window').fill('10');
    await settings.getByLabel('Connect to').selectOption('output');
    await canvas.node('input').click();
    const input = page.getByRole('region', { name: 'Settings of input' });
    await input.getByLabel('Connect to').selectOption('llm');
    // The starter's direct wire goes: the answer is the LLM's alone.
    await input.getByRole('button', { name: 'Remove connection to output' }).click();
    await canvas.edge('input', 'output').waitFor({ state: 'detached' });
    await expect.poll(() => canvas.problemTexts()).toEqual([]);
    expect(await canvas.save()).toBe('Saved version 2');

    const panel = await canvas.tab('Run');
    const conversation = panel.getByRole('log', { name: 'Conversation' });
    await panel.getByRole('textbox', { name: 'message', exact: true }).fill('Hello there');
    await panel.getByRole('button', { name: 'Run', exact: true }).click();
    await conversation.getByText('Echo: Hello there').waitFor();
    await panel.getByRole('textbox', { name: 'message', exact: true }).fill('Still me');
    await panel.getByRole('textbox', { name: 'message', exact: true }).press('Enter');
    await conversation.getByText('Echo: Still me').waitFor();
    const lines = (await conversation.innerText()).split('\n').map((line) => line.trim());
    expect(lines.filter((line) => line !== '' && line !== 'Run details')).toEqual([
      'You:',
      'Hello there',
      'Flow:',
      'Echo: Hello there',
      'You:',
      'Still me',
      'Flow:',
      'Echo: Still me',
    ]);
    await screenshot(page, 'canvas-run-as-chat');
    // One session: the second run's model call was sent the first exchange (memory).
    const runs = (await (await h.get('/api/llm/acme/runs')).json()).runs as unknown[];
    expect(runs).toBeDefined();
    await panel.getByRole('button', { name: 'New chat' }).click();
    expect(await conversation.innerText()).toMatch(/^Say something/);

    // The run page's timeline shows what the model was sent.
    const last = conversation.getByRole('link', { name: 'Run details' });
    expect(await last.count()).toBe(0);
    await panel.getByRole('textbox', { name: 'message', exact: true }).fill('Third');
    await panel.getByRole('button', { name: 'Run', exact: true }).click();
    await conversation.getByText('Echo: Third').waitFor();
    await conversation.getByRole('link', { name: 'Run details' }).click();
    await page.waitForURL(/\/orgs\/newbie\/runs\/run_/);
    const item = page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').filter({ hasText: /^llm/ });
    await item.getByText('Messages sent (1 model call)').click();
    const messages = item.getByRole('list', { name: 'Messages of call 1 of llm' }).getByRole('listitem');
    expect((await messages.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['USER Third']);
    await screenshot(page, 'run-messages-sent');
  });

  it('creates a flow from a template asking only for what it needs, and it runs', async () => {
    // New flow opened before the templates have arrived: they show up in the open dialog when they do.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/llm/acme/templates', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/orgs/acme/flows');
    await page.getByRole('button', { name: 'New flow' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New flow' });
    await dialog.getByRole('radio', { name: /^Blank/ }).waitFor();
    expect(await dialog.getByRole('radio').count()).toBe(1);
    release();
    await dialog.getByRole('radio', { name: /^Chat assistant with memory/ }).check();
    // Unrouted once the held request has gone on (unrouting first would answer it twice).
    await page.unroute('**/api/llm/acme/templates');
    expect(await dialog.getByLabel('Knowledge base', { exact: true }).count()).toBe(0);
    expect(await dialog.getByLabel(/^URL/).count()).toBe(0);
    await dialog.getByLabel('Provider').selectOption('local');
    await dialog.getByRole('combobox', { name: 'Model' }).fill('echo');
    await screenshot(page, 'new-flow-from-template');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/flows/chat-assistant`);
    await canvas.ready();
    await page.getByText('Created flow "chat-assistant" from the template "Chat assistant with memory".').waitFor();
    expect(await canvas.nodeIds()).toEqual(['input', 'assistant', 'output']);
    const panel = await canvas.tab('Run');
    await panel.getByRole('textbox', { name: 'message', exact: true }).fill('Hi template');
    await panel.getByRole('button', { name: 'Run', exact: true }).click();
    await panel.getByRole('log', { name: 'Conversation' }).getByText('Echo: Hi template').waitFor();

    // A template with a secret asks for its value and sets it.
    await page.goto('/orgs/acme/flows');
    await page.getByRole('button', { name: 'New flow' }).first().click();
    await dialog.getByRole('radio', { name: /^Ticket board agent/ }).check();
    await dialog.getByLabel('Provider').selectOption('local');
    await dialog.getByRole('combobox', { name: 'Model' }).fill('echo');
    await dialog.getByLabel(/^URL/).fill('http://127.0.0.1:8103/mcp');
    await dialog.getByLabel(/^TICKETS_TOKEN/).fill('sbt_example_token');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/flows/ticket-board-agent`);
    const secrets = (await (await h.get('/api/llm/acme/secrets')).json()).secrets as Array<{ name: string }>;
    expect(secrets.map((s) => s.name)).toContain('TICKETS_TOKEN');
  });
});
