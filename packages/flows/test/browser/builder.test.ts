import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { everyNodeType } from '../web/fixtures.ts';
import { CanvasPage } from './canvas-page.ts';
import { approximateHandles } from '../../web/src/canvas/handles.ts';
import { canvasNode } from '../../web/src/canvas/convert.ts';
import type { DefNode } from '../../web/src/canvas/definition.ts';

type Definition = {
  name: string;
  nodes: Array<{ id: string; type: string; data: Record<string, unknown>; position?: { x: number; y: number } }>;
  edges: unknown[];
} & Record<string, unknown>;

describeInBrowser('the canvas builder in the browser', () => {
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

  const getFlow = async (slug: string) =>
    (await (await h.get(`/api/llm/acme/flows/${slug}`)).json()) as { version: number; name: string; definition: Definition };
  /** A flow saved through the API (version 1, an Input wired to a raw Output), opened on the canvas. */
  const openNew = async (slug: string, definition?: object) => {
    await h.save(
      definition ?? {
        name: slug,
        slug,
        nodes: [
          { id: 'input', type: 'input', data: { variables: [{ name: 'message', type: 'string', required: true }] }, position: { x: 80, y: 160 } },
          { id: 'output', type: 'output', data: { format: 'raw' }, position: { x: 520, y: 160 } },
        ],
        edges: [{ from: 'input', to: 'output' }],
      },
    );
    await canvas.open(h.base, 'acme', slug);
  };

  it('builds Input → LLM → Output with the mouse from New flow, sets the LLM in the side panel, saves; a token made on the Tokens page calls it over plain HTTP and the run shows on the Runs page with its timeline', async () => {
    await page.getByRole('button', { name: 'New flow' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New flow' });
    await dialog.getByLabel('Name').fill('Mouse made');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/flows/mouse-made`);
    await canvas.ready();
    expect(await canvas.nodeIds()).toEqual(['input', 'output']);
    await screenshot(page, 'canvas-new-flow');

    // The starter's direct wire goes: the LLM goes in between.
    await canvas.edge('input', 'output').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Delete');
    await canvas.edge('input', 'output').waitFor({ state: 'detached' });

    await canvas.dragFromPalette('LLM', { x: 330, y: 560 });
    await canvas.node('llm').waitFor();
    await expect.poll(() => canvas.node('llm').innerText()).toMatch(/LLM\s+llm\s+no provider · no model$/);
    await canvas.wire(canvas.handle('input', /^Output of input/), canvas.handle('llm', /^Input of llm/));
    await canvas.wire(canvas.handle('llm', /^Output of llm/), canvas.handle('output', /^Input of output/));
    await canvas.edge('input', 'llm').waitFor();
    await canvas.edge('llm', 'output').waitFor();

    // The new node is selected: its settings are open. A missing provider and model are problems already.
    const settings = page.getByRole('region', { name: 'Settings of llm' });
    await settings.waitFor();
    await expect.poll(() => canvas.node('llm').getAttribute('aria-invalid')).toBe('true');
    expect(await canvas.node('llm').getAttribute('title')).toBe(
      'Node "llm": "provider" must name a provider connection\nNode "llm": "model" must be a non-empty string',
    );
    await settings.getByLabel('Provider').selectOption('local');
    await settings.getByLabel('Model').fill('echo');
    const prompt = settings.getByLabel('Prompt', { exact: true });
    await prompt.fill('Say: {{inp');
    const references = page.getByRole('listbox', { name: 'References' });
    await references.getByRole('option', { name: /input\.message/ }).waitFor();
    await prompt.press('Enter');
    expect(await prompt.inputValue()).toBe('Say: {{input.message}}');
    await expect.poll(() => canvas.node('llm').getAttribute('aria-invalid')).toBe(null);
    expect(await canvas.problemTexts()).toEqual([]);
    expect(await canvas.node('llm').innerText()).toMatch(/LLM\s+llm\s+local · echo$/);

    await page.getByLabel('Version note').fill('LLM in between');
    expect(await canvas.save()).toBe('Saved version 2');
    const saved = await getFlow('mouse-made');
    expect(saved.definition.nodes.map((n) => [n.id, n.type, n.data])).toEqual([
      ['input', 'input', { variables: [{ name: 'message', type: 'string', required: true, description: 'The user message' }] }],
      ['output', 'output', { format: 'raw' }],
      ['llm', 'llm', { provider: 'local', model: 'echo', prompt: 'Say: {{input.message}}' }],
    ]);
    expect(saved.definition.edges).toEqual([
      { from: 'input', to: 'llm' },
      { from: 'llm', to: 'output' },
    ]);
    expect(saved.definition.nodes.every((n) => Number.isFinite(n.position?.x) && Number.isFinite(n.position?.y))).toBe(true);

    // A token made on LLM Hub → Tokens calls the flow over plain HTTP, and the run is on the Runs page with its timeline.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'LLM Hub' }).click();
    await page.getByRole('link', { name: 'Tokens' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/tokens`);
    await page.getByRole('button', { name: 'Create token' }).first().click();
    const form = page.getByRole('dialog', { name: 'Create token' });
    await form.getByLabel('Name').fill('mouse-made-caller');
    await form.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Token "mouse-made-caller" created' });
    const token = (await shown.locator('code.secret').innerText()).trim();
    await shown.getByRole('button', { name: 'Done' }).click();
    const run = await fetch(`${h.base}/api/llm/acme/flows/mouse-made/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { message: 'hello' } }),
    });
    expect(run.status).toBe(200);
    expect(await run.text()).toBe('Echo: Say: hello');
    const runId = run.headers.get('x-run-id')!;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
    const row = page.getByRole('row').filter({ hasText: runId });
    await row.getByRole('link').click();
    await page.waitForURL(`${h.base}/orgs/acme/runs/${runId}`);
    const items = page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
    await items.first().waitFor();
    const entries = (await items.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').split(' ').slice(0, 3).join(' '));
    expect(entries).toEqual(['input input succeeded', 'llm llm succeeded', 'output output succeeded']);
  });

  it('imports a definition using every node type, saves it unchanged, and the API answers the same nodes, edges and data', async () => {
    await openNew('imported');
    const definition = everyNodeType('not-this-slug');
    await page.getByRole('button', { name: 'Import JSON' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import JSON' });
    await dialog.getByLabel('Definition JSON').fill(JSON.stringify(definition));
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await canvas.nodeIds()).toEqual(definition.nodes.map((n) => n.id));
    expect(await canvas.node('route').innerText()).toMatch(
      /Switch\s*route\s*2 cases \+ else\s*case 1\s*\{\{input\.tier\}\} equals pro\s*case 2\s*\{\{input\.question\}\} matches \^hi\s*else$/,
    );
    await expect.poll(() => canvas.problemTexts()).toEqual([]);
    expect(await canvas.save()).toBe('Saved version 2');

    const saved = (await getFlow('imported')).definition;
    expect(saved.nodes.map(({ position: _p, ...rest }) => rest)).toEqual(definition.nodes.map(({ position: _p, ...rest }) => rest));
    expect(saved.edges).toEqual(definition.edges);
    expect({ name: saved.name, description: saved.description, owner: saved.owner, slug: saved.slug }).toEqual({
      name: 'Every node',
      description: 'Uses every node type',
      owner: 'tests',
      slug: 'imported',
    });
    for (const [index, node] of definition.nodes.entries()) {
      if (node.position) expect(saved.nodes[index].position).toEqual(node.position);
      else expect(saved.nodes[index].position).toEqual({ x: expect.any(Number), y: expect.any(Number) });
    }

    // The handles a node is given before it is drawn (so a big flow draws only the nodes in view) are
    // where the drawn node's handles are, within 2 px: an edge to a node out of view ends at its handle.
    const drawn = await page.locator('.react-flow__node').evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        const zoom = box.width / (element as HTMLElement).offsetWidth;
        const handles = [...element.querySelectorAll<HTMLElement>('.react-flow__handle')].map((handle) => {
          const at = handle.getBoundingClientRect();
          return { id: handle.dataset.handleid ?? '', x: (at.left - box.left) / zoom, y: (at.top - box.top) / zoom };
        });
        return { id: element.getAttribute('data-id') ?? '', handles: handles.sort((a, b) => a.id.localeCompare(b.id)) };
      }),
    );
    const near = (value: number) => ({ asymmetricMatch: (actual: number) => Math.abs(actual - value) <= 2, toString: () => `${value} ± 2` });
    const approximated = definition.nodes.map((node) => ({
      id: node.id,
      handles: approximateHandles(canvasNode(node as DefNode, { x: 0, y: 0 }))
        .map((handle) => ({ id: handle.id ?? '', x: near(handle.x), y: near(handle.y) }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    }));
    expect(drawn).toEqual(approximated);
  });

  it('marks a dangling reference and a cycle on the node and in Problems, and shows the server refusing what only it knows', async () => {
    await openNew('broken', {
      name: 'Broken',
      slug: 'broken',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'message', type: 'string' }] }, position: { x: 0, y: 0 } },
        { id: 'draft', type: 'template', data: { template: 'Draft: {{input.message}}' }, position: { x: 280, y: 0 } },
        { id: 'polish', type: 'template', data: { template: 'Polished: {{draft.text}}' }, position: { x: 560, y: 0 } },
        { id: 'output', type: 'output', data: { format: 'raw' }, position: { x: 840, y: 0 } },
      ],
      edges: [
        { from: 'input', to: 'draft' },
        { from: 'draft', to: 'polish' },
        { from: 'polish', to: 'output' },
      ],
    });
    await canvas.node('polish').click();
    await page.getByRole('region', { name: 'Settings of polish' }).getByLabel('Template').fill('Polished: {{ghost.text}}');
    const dangling = 'Node "polish": unknown reference {{ghost.text}}: no node "ghost"';
    await expect.poll(() => canvas.node('polish').getAttribute('aria-invalid')).toBe('true');
    expect(await canvas.node('polish').getAttribute('title')).toBe(dangling);
    expect(await canvas.problemTexts()).toEqual([`polish ${dangling}`]);
    expect(await canvas.node('draft').getAttribute('aria-invalid')).toBe(null);

    // Save refuses it too: the same message, on the same node.
    expect(await canvas.save()).toBe('Not saved: 1 problem (see Problems)');
    expect(await canvas.problemTexts()).toEqual([`polish ${dangling}`]);

    await page.getByRole('region', { name: 'Settings of polish' }).getByLabel('Template').fill('Polished: {{draft.text}}');
    await canvas.wire(canvas.handle('polish', /^Output of polish/), canvas.handle('draft', /^Input of draft/));
    const cycle = 'Node "draft": part of a cycle ("draft", "polish", "output")';
    await expect.poll(() => canvas.problemTexts()).toEqual([`draft ${cycle}`]);
    expect(await canvas.node('draft').getAttribute('title')).toBe(cycle);
    await screenshot(page, 'canvas-with-problems');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => canvas.problemTexts()).toEqual([]);

    // An agent node running this very flow: only the server follows flows, so only Save finds it.
    await canvas.paletteEntry('Agent').click();
    const agent = page.getByRole('region', { name: 'Settings of agent' });
    await agent.getByLabel('Flow').selectOption('broken');
    await canvas.wire(canvas.handle('draft', /^Output of draft/), canvas.handle('agent', /^Input of agent/));
    await canvas.wire(canvas.handle('agent', /^Output of agent/), canvas.handle('output', /^Input of output/));
    await canvas.edge('agent', 'output').waitFor();
    await expect.poll(() => canvas.problemTexts()).toEqual([]);
    expect(await canvas.save()).toBe('Not saved: 1 problem (see Problems)');
    const agentCycle = 'Node "agent": agent cycle "broken" → "broken"; a flow cannot call itself';
    expect(await canvas.problemTexts()).toEqual([`agent ${agentCycle} on save`]);
    expect(await canvas.node('agent').getAttribute('aria-invalid')).toBe('true');
    expect(await canvas.node('agent').getAttribute('title')).toBe(agentCycle);
    expect((await getFlow('broken')).version).toBe(1);
  });

  it('undoes and redoes, copies and pastes nodes with new ids, and deletes with the keyboard', async () => {
    await openNew('keys');
    await canvas.paletteEntry('Template').click();
    await canvas.node('template').waitFor();
    await page.keyboard.press('Control+z');
    await canvas.node('template').waitFor({ state: 'detached' });
    await page.keyboard.press('Control+Shift+z');
    await canvas.node('template').waitFor();
    await page.getByRole('region', { name: 'Settings of template' }).getByLabel('Template').fill('Copy me');

    await canvas.node('template').click();
    await page.keyboard.press('Control+c');
    await page.keyboard.press('Control+v');
    await canvas.node('template_2').waitFor();
    await page.keyboard.press('Control+v');
    await canvas.node('template_3').waitFor();
    expect(await canvas.nodeIds()).toEqual(['input', 'output', 'template', 'template_2', 'template_3']);
    expect(await canvas.node('template_3').innerText()).toMatch(/Copy me$/);
    // The pasted copy is the selection: its settings are open.
    await page.getByRole('region', { name: 'Settings of template_3' }).waitFor();

    await page.keyboard.press('Delete');
    await canvas.node('template_3').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Undo' }).click();
    await canvas.node('template_3').waitFor();
    await page.getByRole('button', { name: 'Redo' }).click();
    await canvas.node('template_3').waitFor({ state: 'detached' });
    expect(await canvas.saveState().innerText()).toBe('Unsaved changes');

    // Typing in a field keeps the field's own undo and delete keys.
    await canvas.node('template_2').click();
    const field = page.getByRole('region', { name: 'Settings of template_2' }).getByLabel('Template');
    await field.press('End');
    await field.press('Backspace');
    expect(await field.inputValue()).toBe('Copy m');
    expect(await canvas.nodeIds()).toEqual(['input', 'output', 'template', 'template_2']);

    // Wiring from the keyboard, in the settings panel.
    const settings = page.getByRole('region', { name: 'Settings of template_2' });
    await settings.getByLabel('Connect to').selectOption('output');
    await canvas.edge('template_2', 'output').waitFor();
    await settings.getByRole('button', { name: 'Remove connection to output' }).click();
    await canvas.edge('template_2', 'output').waitFor({ state: 'detached' });

    // Export JSON downloads what the canvas holds, unsaved changes included.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    expect(download.suggestedFilename()).toBe('keys.json');
    // Read as a stream: a client connected to the shared Chromium cannot open its downloads by path.
    const exported = JSON.parse(await text(await download.createReadStream())) as Definition;
    expect(exported.nodes.map((n) => [n.id, n.data])).toEqual([
      ['input', { variables: [{ name: 'message', type: 'string', required: true }] }],
      ['output', { format: 'raw' }],
      ['template', { template: 'Copy me' }],
      ['template_2', { template: 'Copy m' }],
    ]);
    expect(exported.slug).toBe('keys');

    // Automatic layout: pasted copies sat on top of each other; afterwards no two nodes overlap.
    await page.getByRole('button', { name: 'Auto layout' }).click();
    await expect
      .poll(async () => {
        const boxes = await Promise.all((await canvas.nodeIds()).map(async (id) => (await canvas.node(id).boundingBox())!));
        return boxes.some((a, i) => boxes.some((b, j) => i < j && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height));
      })
      .toBe(false);

    // Leaving with unsaved changes loses nothing: they are the user's draft, shown on the way back.
    await page.getByRole('link', { name: 'Flows', exact: true }).first().click();
    await page.waitForURL(`${h.base}/orgs/acme/flows`);
    // Once the Flows page is shown the builder has closed (while its code loads, the builder stays, and a Back
    // finds it as it was, unsaved changes and all, with no draft to restore).
    await page.getByRole('heading', { name: 'Flows', level: 1 }).waitFor();
    await page.goBack();
    await canvas.ready();
    await page.getByRole('region', { name: 'Draft' }).waitFor();
    expect(await canvas.nodeIds()).toEqual(['input', 'output', 'template', 'template_2']);
  });

  it('refuses a save based on an old version with a diff, then reloads the latest or saves on top of it', async () => {
    await openNew('shared');
    // Someone else saves version 2 meanwhile.
    const other = (await getFlow('shared')).definition;
    await h.post('/api/llm/acme/flows', { ...other, name: 'Renamed elsewhere' });

    await canvas.node('output').click();
    await page.getByRole('region', { name: 'Settings of output' }).getByLabel('Format').selectOption('chat_completion');
    expect(await canvas.save()).toBe('Not saved: someone saved a newer version');
    const conflict = page.getByRole('dialog', { name: 'Someone saved this flow meanwhile' });
    await conflict.getByText('Version 2 was saved after the version you are editing').waitFor();
    const diff = conflict.getByLabel('Differences');
    await diff.waitFor();
    const diffText = await diff.innerText();
    expect(diffText).toMatch(/^- {9}"format": "raw"$/m);
    expect(diffText).toMatch(/^\+ {9}"format": "chat_completion"$/m);
    expect(diffText).toMatch(/^- {3}"name": "Renamed elsewhere",$/m);
    expect(diffText).toMatch(/^\+ {3}"name": "shared",$/m);

    await conflict.getByRole('button', { name: 'Reload latest' }).click();
    await conflict.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Renamed elsewhere' }).waitFor();
    expect(await canvas.node('output').innerText()).toMatch(/raw$/);

    await canvas.node('output').click();
    await page.getByRole('region', { name: 'Settings of output' }).getByLabel('Format').selectOption('chat_completion');
    await h.post('/api/llm/acme/flows', { ...(await getFlow('shared')).definition, description: 'Edited elsewhere again' });
    await page.getByLabel('Version note').fill('Chat format');
    expect(await canvas.save()).toBe('Not saved: someone saved a newer version');
    await page.getByRole('dialog', { name: 'Someone saved this flow meanwhile' }).getByRole('button', { name: 'Save anyway' }).click();
    expect(await canvas.saved()).toBe('Saved version 4');
    const latest = await getFlow('shared');
    expect(latest.version).toBe(4);
    expect(latest.definition.nodes[1].data).toEqual({ format: 'chat_completion' });
  });

  it('lists the versions with time, author and note; opens one read-only, compares two and restores one as a new version', async () => {
    const panel = await canvas.tab('Versions');
    const versions = panel.getByRole('list', { name: 'Versions' });
    await versions.getByRole('listitem').nth(3).waitFor();
    const items = (await versions.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(items).toHaveLength(4);
    expect(items[0]).toMatch(/^Version 4 current .+ · user:admin@example\.com Chat format Compare Open$/);
    expect(items[1]).toMatch(/^Version 3 .+ · token:admin Compare Open Restore$/);
    expect(items[3]).toMatch(/^Version 1 .+ · token:admin Compare Open Restore$/);

    await versions.getByRole('button', { name: 'Open version 1' }).click();
    const opened = page.getByRole('dialog', { name: 'Version 1 (read-only)' });
    await opened.locator('.react-flow__node[data-id="output"]').waitFor();
    expect(await opened.locator('.react-flow__node').count()).toBe(2);
    await opened.getByRole('button', { name: 'Close' }).click();

    await versions.getByLabel('Compare version 1').check();
    await versions.getByLabel('Compare version 4').check();
    await panel.getByRole('button', { name: 'Compare', exact: true }).click();
    const compare = page.getByRole('dialog', { name: 'Version 1 → version 4' });
    const diff = await compare.getByLabel('Differences').innerText();
    // "Save anyway" saved this canvas over version 3: its description is not in version 4.
    expect(diff).toMatch(/^- {3}"name": "shared",$/m);
    expect(diff).toMatch(/^\+ {3}"name": "Renamed elsewhere",$/m);
    expect(diff).not.toContain('Edited elsewhere again');
    expect(diff).toMatch(/^- {9}"format": "raw"$/m);
    await compare.getByRole('button', { name: 'Close' }).click();

    await versions.getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByRole('dialog', { name: 'Restore version 1?' }).getByRole('button', { name: 'Restore' }).click();
    await versions.getByText('Version 5').waitFor();
    expect((await versions.getByRole('listitem').first().innerText()).replace(/\s+/g, ' ')).toMatch(
      /^Version 5 current .+ · user:admin@example\.com Restored version 1 /,
    );
    expect(await canvas.node('output').innerText()).toMatch(/raw$/);
    const restored = await getFlow('shared');
    expect(restored.version).toBe(5);
    expect(restored.definition.nodes[1].data).toEqual({ format: 'raw' });
  });
});
