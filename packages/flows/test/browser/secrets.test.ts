import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { decryptCredential } from '@switchboard/core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { loadConfig } from '../../src/index.ts';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { CanvasPage } from './canvas-page.ts';

const FIRST_VALUE = 'ghp_first-Value-0123456789';
const SECOND_VALUE = 'ghp_second-Value-9876543210';

describeInBrowser('LLM Hub → Secrets in the browser', () => {
  let h: UiHarness;
  let page: Page;
  const listed = async () => ((await (await h.get('/api/llm/acme/secrets')).json()) as { secrets: Array<{ name: string }> }).secrets;
  /** The stored values, decrypted, by name. */
  const stored = async () => {
    const rows = await h.stores.database.db.selectFrom('secrets').select(['name', 'value']).execute();
    return Object.fromEntries(rows.map((row) => [row.name, decryptCredential(loadConfig(h.db.env).secret, row.value)]));
  };
  /** Fails when the page holds a value anywhere (text, attributes, inputs). */
  const expectNoValue = async () => {
    const html = await page.content();
    for (const value of [FIRST_VALUE, SECOND_VALUE]) expect(html).not.toContain(value);
    for (const input of await page.locator('input').all()) expect([FIRST_VALUE, SECOND_VALUE]).not.toContain(await input.inputValue());
  };

  beforeAll(async () => {
    h = await startUiHarness('sqlite');
    page = await h.signedInPage('/orgs/acme/tokens');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is a page of the LLM Hub, next to Tokens and Providers, with an empty state', async () => {
    const hub = page.getByRole('navigation', { name: 'LLM Hub' });
    await hub.getByRole('link', { name: 'Secrets' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/secrets`);
    await page.getByRole('heading', { name: 'Secrets', level: 1 }).waitFor();
    expect(await hub.getByRole('link').allTextContents()).toEqual(['Tokens', 'Providers', 'Secrets']);
    expect(await hub.getByRole('link', { name: 'Secrets' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'LLM Hub' }).getAttribute('class')).toContain('active');
    await page.getByText('No secrets yet').waitFor();
    expect(await page.title()).toBe('Secrets · Switchboard Flows');
  });

  it('sets a secret: listed by name with its reference, the value never in the page, stored encrypted', async () => {
    await page.getByRole('button', { name: 'Set secret' }).first().click();
    const form = page.getByRole('dialog', { name: 'Set secret' });
    await form.getByLabel('Name').fill('GITHUB_TOKEN');
    expect(await form.getByText('Letters, digits and "_". Flows write {{secrets.GITHUB_TOKEN}}.').isVisible()).toBe(true);
    expect(await form.getByLabel('Value').getAttribute('type')).toBe('password');
    await form.getByLabel('Value').fill(FIRST_VALUE);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: 'GITHUB_TOKEN' });
    await row.waitFor();
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells.slice(0, 2)).toEqual(['GITHUB_TOKEN', '{{secrets.GITHUB_TOKEN}}']);
    // Not used yet: said as on the Tokens page.
    expect(cells[3]).toBe('Never');
    expect((await listed()).map((s) => s.name)).toEqual(['GITHUB_TOKEN']);
    expect(await stored()).toEqual({ GITHUB_TOKEN: FIRST_VALUE });
    await expectNoValue();
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'GITHUB_TOKEN' }).waitFor();
    await expectNoValue();
    await screenshot(page, 'secrets');
  });

  it('says what is wrong before saving: a bad name, a name that exists, no value', async () => {
    await page.getByRole('button', { name: 'Set secret' }).first().click();
    const form = page.getByRole('dialog', { name: 'Set secret' });
    await form.getByLabel('Name').fill('9-lives');
    await form.getByLabel('Value').fill('x');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await form.getByRole('alert').innerText()).toBe('Give the secret a name of letters, digits and "_", not starting with a digit (e.g. GITHUB_TOKEN).');
    await form.getByLabel('Name').fill('GITHUB_TOKEN');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await form.getByRole('alert').innerText()).toBe('A secret named "GITHUB_TOKEN" exists: use its Replace button to change its value.');
    await form.getByLabel('Name').fill('SPARE');
    await form.getByLabel('Value').fill('');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await form.getByRole('alert').innerText()).toBe('Enter the value.');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
    expect((await listed()).map((s) => s.name)).toEqual(['GITHUB_TOKEN']);
  });

  it('replaces a value: the field starts empty, the new value is stored, neither is ever in the page', async () => {
    await page.getByRole('button', { name: 'Replace GITHUB_TOKEN' }).click();
    const form = page.getByRole('dialog', { name: 'Replace secret "GITHUB_TOKEN"' });
    expect(await form.getByLabel('Name').count()).toBe(0);
    expect(await form.getByLabel('Value').inputValue()).toBe('');
    await form.getByLabel('Value').fill(SECOND_VALUE);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByText('Secret "GITHUB_TOKEN" saved').waitFor();
    expect(await stored()).toEqual({ GITHUB_TOKEN: SECOND_VALUE });
    await expectNoValue();
  });

  it('deletes a secret after confirming', async () => {
    await page.getByRole('button', { name: 'Delete GITHUB_TOKEN' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete secret "GITHUB_TOKEN"?' });
    expect(await confirm.innerText()).toContain('{{secrets.GITHUB_TOKEN}}');
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('row').filter({ hasText: 'GITHUB_TOKEN' }).waitFor({ state: 'detached' });
    await page.getByText('No secrets yet').waitFor();
    expect(await listed()).toEqual([]);
    expect(await stored()).toEqual({});
  });

  it("offers the secrets by name after {{ in an HTTP tool's URL and headers and an MCP tool's headers, not in its URL", async () => {
    expect((await h.put('/api/llm/acme/secrets/SHOP_KEY', { value: FIRST_VALUE })).status).toBe(200);
    await h.save({
      name: 'Shop',
      slug: 'shop',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string' }] }, position: { x: 0, y: 0 } },
        {
          id: 'api',
          type: 'tool',
          data: { kind: 'http', name: 'lookup', request: { method: 'GET', url: 'https://shop.example/orders', headers: { 'X-Key': '' } } },
          position: { x: 280, y: 200 },
        },
        { id: 'board', type: 'tool', data: { kind: 'mcp', url: 'https://mcp.example/mcp', headers: { Authorization: '' } }, position: { x: 280, y: 350 } },
        { id: 'answer', type: 'llm', data: { provider: 'local', model: 'echo', prompt: '{{input.question}}' }, position: { x: 560, y: 0 } },
        { id: 'output', type: 'output', data: { format: 'raw' }, position: { x: 840, y: 0 } },
      ],
      edges: [
        { from: 'input', to: 'answer' },
        { from: 'api', to: 'answer' },
        { from: 'board', to: 'answer' },
        { from: 'answer', to: 'output' },
      ],
    });
    const canvas = await new CanvasPage(page).open(h.base, 'acme', 'shop');
    const references = page.getByRole('listbox', { name: 'References' });
    await canvas.node('api').click();
    const api = page.getByRole('region', { name: 'Settings of api' });
    const url = api.getByLabel('URL', { exact: true });
    await url.fill('https://shop.example/orders?key={{sec');
    await references.getByRole('option', { name: /secrets\.SHOP_KEY/ }).waitFor();
    await url.press('Enter');
    expect(await url.inputValue()).toBe('https://shop.example/orders?key={{secrets.SHOP_KEY}}');
    const header = api.getByLabel('Headers: value of X-Key');
    await header.fill('{{secrets.');
    await references.getByRole('option', { name: /secrets\.SHOP_KEY/ }).waitFor();
    await header.press('Enter');
    expect(await header.inputValue()).toBe('{{secrets.SHOP_KEY}}');
    await api.getByLabel('Method').selectOption('POST');
    const body = api.getByLabel('Body (JSON)');
    await body.fill('{"token": "{{secrets.SH');
    await references.getByRole('option', { name: /secrets\.SHOP_KEY/ }).waitFor();
    await body.press('Enter');
    expect(await body.inputValue()).toBe('{"token": "{{secrets.SHOP_KEY}}');
    await body.press('End');
    await body.pressSequentially('"}');
    expect(await body.inputValue()).toBe('{"token": "{{secrets.SHOP_KEY}}"}');

    await canvas.node('board').click();
    const board = page.getByRole('region', { name: 'Settings of board' });
    const mcpUrl = board.getByLabel('URL', { exact: true });
    await mcpUrl.fill('https://mcp.example/{{sec');
    await board.getByLabel('Timeout (ms)').waitFor();
    expect(await references.count()).toBe(0);
    await mcpUrl.fill('https://mcp.example/mcp');
    const auth = board.getByLabel('Headers: value of Authorization');
    await auth.fill('Bearer {{secrets.SH');
    await references.getByRole('option', { name: /secrets\.SHOP_KEY/ }).waitFor();
    await auth.press('Enter');
    expect(await auth.inputValue()).toBe('Bearer {{secrets.SHOP_KEY}}');
    expect(await canvas.save()).toMatch(/^Saved version 2/);
    const saved = (await (await h.get('/api/llm/acme/flows/shop')).json()) as { definition: { nodes: Array<{ id: string; data: Record<string, unknown> }> } };
    expect(saved.definition.nodes.find((n) => n.id === 'api')!.data.request).toEqual({
      method: 'POST',
      url: 'https://shop.example/orders?key={{secrets.SHOP_KEY}}',
      headers: { 'X-Key': '{{secrets.SHOP_KEY}}' },
      body: { token: '{{secrets.SHOP_KEY}}' },
    });
    expect(saved.definition.nodes.find((n) => n.id === 'board')!.data.headers).toEqual({ Authorization: 'Bearer {{secrets.SHOP_KEY}}' });
    await expectNoValue();
  });
});
