import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { bigFlow } from '../web/fixtures.ts';
import { CanvasPage } from './canvas-page.ts';

const XSS = '<img src=x onerror=alert(1)>';

describeInBrowser('the canvas builder: Run panel, untrusted text, a big flow', () => {
  let h: UiHarness;
  let page: Page;
  let canvas: CanvasPage;
  const dialogs: string[] = [];

  beforeAll(async () => {
    h = await startUiHarness('sqlite');
    await h.save({
      name: 'Helper',
      slug: 'helper',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
        { id: 'lookup', type: 'template', data: { template: 'Looked up: {{input.question}}' } },
        { id: 'output', type: 'output', data: { format: 'raw' } },
      ],
      edges: [
        { from: 'input', to: 'lookup' },
        { from: 'lookup', to: 'output' },
      ],
    });
    await h.save({
      name: 'Runner',
      slug: 'runner',
      nodes: [
        {
          id: 'input',
          type: 'input',
          data: {
            variables: [
              { name: 'message', type: 'string', required: true, description: 'What to ask' },
              { name: 'count', type: 'integer', minimum: 1 },
              { name: 'tone', type: 'enum', values: ['plain', 'fancy'], default: 'plain' },
              { name: 'loud', type: 'boolean' },
              { name: 'extra', type: 'object' },
            ],
          },
        },
        { id: 'route', type: 'switch', data: { cases: [{ if: { left: '{{input.loud}}', op: 'equals', right: 'true' }, then: 'shout' }], else: 'answer' } },
        { id: 'answer', type: 'llm', data: { provider: 'local', model: 'gated:Answer streamed in pieces', prompt: '{{input.message}}' } },
        { id: 'shout', type: 'template', data: { template: 'LOUD {{input.message}}' } },
        { id: 'helper', type: 'agent', data: { flow: 'helper', input: { question: '{{input.message}}' } } },
        { id: 'output', type: 'output', data: { format: 'raw' } },
      ],
      edges: [
        { from: 'input', to: 'route' },
        { from: 'route', to: 'answer' },
        { from: 'route', to: 'shout' },
        { from: 'helper', to: 'answer' },
        { from: 'answer', to: 'output' },
        { from: 'shout', to: 'output' },
      ],
    });
    page = await h.signedInPage('/orgs/acme/flows');
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    canvas = new CanvasPage(page);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('runs the saved version from a form made from the Input node, streaming the answer, node states and tool calls as they arrive', async () => {
    await canvas.open(h.base, 'acme', 'runner');
    const panel = await canvas.tab('Run');
    const message = panel.getByRole('textbox', { name: 'message', exact: true });
    expect(await message.getAttribute('required')).toBe('');
    const count = panel.getByRole('spinbutton', { name: 'count', exact: true });
    await count.pressSequentially('abc');
    expect(await count.inputValue()).toBe('');
    await count.fill('3');
    expect(await panel.getByRole('combobox', { name: 'tone', exact: true }).inputValue()).toBe('"plain"');
    await panel.getByRole('combobox', { name: 'tone', exact: true }).selectOption({ label: 'fancy' });
    expect(await panel.getByRole('checkbox', { name: 'loud', exact: true }).isChecked()).toBe(false);
    await panel.getByRole('textbox', { name: 'extra (object, JSON)', exact: true }).fill('{"a": 1}');
    await panel.getByLabel('Session ID').fill('sess-1');

    // Required and typed: the server's own input check runs before anything is sent.
    await panel.getByRole('button', { name: 'Run', exact: true }).click();
    await panel.getByText('Missing required variable "message"').waitFor();
    expect(h.upstream.calls).toHaveLength(0);
    await message.fill('hello');
    await panel.getByRole('button', { name: 'Run', exact: true }).click();

    // The agent tool is called first; its result is on the page while the answer still streams.
    const tools = panel.getByRole('list', { name: 'Tool calls' });
    await tools.getByText('Looked up: hello').waitFor();
    expect((await tools.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'helper from answer Arguments {} Result Looked up: hello',
    ]);
    const answer = panel.getByRole('log', { name: 'Answer' });
    await answer.getByText('Answer streamed in').waitFor();
    // The upstream still holds its last token: what the page shows arrived as it was streamed.
    expect(h.upstream.gateHeld).toBe(1);
    expect((await answer.innerText()).trim()).toBe('Answer streamed in');
    expect(await canvas.node('answer').getAttribute('data-status')).toBe('running');
    expect(await canvas.node('route').getAttribute('data-status')).toBe('finished');
    expect(await canvas.node('helper').getAttribute('data-status')).toBe('finished');
    expect(await canvas.node('output').getAttribute('data-status')).toBe(null);

    h.upstream.openGate();
    await panel
      .getByRole('status')
      .getByText(/^Finished in \d+ ms$/)
      .waitFor();
    expect((await answer.innerText()).trim()).toBe('Answer streamed in pieces');
    expect(await panel.getByLabel('Output').innerText()).toBe('Answer streamed in pieces');
    const statuses = await Promise.all(['input', 'route', 'answer', 'shout', 'helper', 'output'].map((id) => canvas.node(id).getAttribute('data-status')));
    expect(statuses).toEqual(['finished', 'finished', 'finished', 'skipped', 'finished', 'finished']);
    const link = panel.getByRole('link', { name: /^Open run / });
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/orgs\/acme\/runs\/[\w-]+$/);
    const steps = (await panel.getByRole('list', { name: 'Steps' }).getByRole('listitem').allInnerTexts()).map((t) => t.split(/\s/)[0]);
    expect(steps).toEqual(['input', 'helper', 'route', 'answer', 'output']);
    await screenshot(page, 'canvas-run-panel');

    const run = (await (await h.get(`/api/llm/acme/runs/${href.split('/').pop()}`)).json()) as {
      input: unknown;
      metadata: unknown;
      output: unknown;
      version: number;
    };
    expect(run).toMatchObject({
      input: { message: 'hello', count: 3, tone: 'fancy', loud: false, extra: { a: 1 } },
      metadata: { session_id: 'sess-1' },
      output: 'Answer streamed in pieces',
      version: 1,
    });
  });

  it('offers to save first when the canvas has unsaved changes, since a run runs the saved version', async () => {
    await canvas.node('shout').click();
    await page.getByRole('region', { name: 'Settings of shout' }).getByLabel('Template').fill('LOUDER {{input.message}}');
    const panel = await canvas.tab('Run');
    await panel.getByText('The canvas has unsaved changes; a run uses the saved version 1.').waitFor();
    await panel.getByRole('checkbox', { name: 'loud', exact: true }).check();
    await panel.getByRole('button', { name: 'Save and run' }).click();
    await panel
      .getByRole('status')
      .getByText(/^Finished in \d+ ms$/)
      .waitFor();
    expect(await panel.getByLabel('Output').innerText()).toBe('LOUDER hello');
    expect(await canvas.saveState().innerText()).toBe('Saved version 2');
    expect(await canvas.node('answer').getAttribute('data-status')).toBe('skipped');
  });

  it('shows a flow name, node text and run output holding markup as text', async () => {
    await h.save({
      name: XSS,
      slug: 'xss',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'message', type: 'string', required: true, description: XSS }] }, position: { x: 0, y: 0 } },
        { id: 'note', type: 'template', data: { template: `Note ${XSS}` }, position: { x: 280, y: 0 } },
        { id: 'reply', type: 'llm', data: { provider: 'local', model: `reply:${XSS}`, prompt: '{{note.text}}' }, position: { x: 560, y: 0 } },
        { id: 'output', type: 'output', data: { format: 'raw' }, position: { x: 840, y: 0 } },
      ],
      edges: [
        { from: 'input', to: 'note' },
        { from: 'note', to: 'reply' },
        { from: 'reply', to: 'output' },
      ],
    });
    await canvas.open(h.base, 'acme', 'xss');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(XSS);
    expect(await canvas.node('note').innerText()).toMatch(/Note <img src=x onerror=alert\(1\)>$/);
    const panel = await canvas.tab('Run');
    await panel.getByRole('textbox', { name: 'message', exact: true }).fill(XSS);
    await panel.getByRole('button', { name: 'Run', exact: true }).click();
    await panel
      .getByRole('status')
      .getByText(/^Finished in \d+ ms$/)
      .waitFor();
    expect((await panel.getByRole('log', { name: 'Answer' }).innerText()).trim()).toBe(XSS);
    expect(await panel.getByLabel('Output').innerText()).toBe(XSS);
    await canvas.node('note').click();
    expect(await page.getByRole('region', { name: 'Settings of note' }).getByLabel('Template').inputValue()).toBe(`Note ${XSS}`);
    expect(await page.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('opens a 200-node flow laid out left to right, drawing only the nodes in view from the first frame', async () => {
    await h.save(bigFlow(200, 'big'));
    // The most nodes the page ever held while it opened the flow.
    await page.addInitScript(`(() => {
      window.__mostNodes = 0;
      new MutationObserver(() => {
        window.__mostNodes = Math.max(window.__mostNodes, document.querySelectorAll('.react-flow__node').length);
      }).observe(document, { childList: true, subtree: true });
    })()`);
    // The page's HTML names the flow's read and the canvas's chunk, so they load with the entry script; the page takes that answer.
    const html = await (await page.request.get(`${h.base}/orgs/acme/flows/big`)).text();
    expect(html).toContain('<link rel="preload" as="fetch" crossorigin href="/api/llm/acme/flows/big">');
    expect(html).toContain('<link rel="preload" as="fetch" crossorigin href="/api/llm/acme/flows/big/draft">');
    expect(html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/builder-page-[\w-]+\.js">/);
    const reads: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (new URL(request.url()).pathname.startsWith('/api/llm/acme/flows/big')) reads.push(request.url());
    };
    page.on('request', onRequest);
    await canvas.open(h.base, 'acme', 'big');
    page.off('request', onRequest);
    // The flow and the user's draft (none here: a 404), each read once.
    expect(reads.sort()).toEqual([`${h.base}/api/llm/acme/flows/big`, `${h.base}/api/llm/acme/flows/big/draft`]);
    // Only the nodes in view are drawn, and never all of them first (to be measured, then culled).
    await expect.poll(() => canvas.nodes().count()).toBeGreaterThan(10);
    const inView = await canvas.nodes().count();
    expect(inView).toBeLessThan(200);
    expect(await page.evaluate('window.__mostNodes')).toBeLessThanOrEqual(inView + 10);
    await expect.poll(() => canvas.problemTexts()).toEqual([]);
    expect(await page.getByRole('region', { name: 'Flow settings' }).getByText('200 nodes · 208 edges').count()).toBe(1);
    await screenshot(page, 'canvas-big-flow');

    // The minimap draws every node in its kind's colour (LLM nodes indigo, templates slate), and pans and zooms the canvas.
    const minimap = page.getByRole('img', { name: 'Minimap' });
    const colours = await minimap.evaluate((element) => {
      const canvasElement = element as HTMLCanvasElement;
      const { data } = canvasElement.getContext('2d')!.getImageData(0, 0, canvasElement.width, canvasElement.height);
      const seen = new Set<string>();
      for (let i = 0; i < data.length; i += 4) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
      return [...seen];
    });
    expect(colours).toEqual(expect.arrayContaining(['79,70,229', '100,116,139']));
    const viewport = () => page.locator('.react-flow__viewport').evaluate((element) => (element as HTMLElement).style.transform);
    const before = await viewport();
    const box = (await minimap.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const panned = await viewport();
    expect(panned).not.toBe(before);
    expect(panned.match(/scale\(([\d.]+)\)/)?.[1]).toBe(before.match(/scale\(([\d.]+)\)/)?.[1]);
    await page.mouse.wheel(0, -200);
    await expect.poll(() => viewport().then((after) => after.match(/scale\(([\d.]+)\)/)?.[1])).not.toBe(panned.match(/scale\(([\d.]+)\)/)?.[1]);
    expect(dialogs).toEqual([]);
  });
});
