import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';

interface ApiProvider {
  name: string;
  kind: string;
  base_url: string | null;
  has_api_key: boolean;
}

describeInBrowser('LLM Hub → Providers in the browser', () => {
  let h: UiHarness;
  let page: Page;
  const providers = async () => ((await (await h.get('/api/llm/acme/providers')).json()) as { providers: ApiProvider[] }).providers;

  beforeAll(async () => {
    h = await startUiHarness('sqlite');
    page = await h.signedInPage('/orgs/acme/providers');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lists the connections with kind, base URL and whether a key is set, never the key', async () => {
    const row = page.getByRole('row').filter({ hasText: 'local' });
    await row.waitFor();
    expect((await row.getByRole('cell').allInnerTexts()).slice(0, 4)).toEqual(['local', 'openai-compatible', h.upstream.url, 'Set']);
    expect(await page.content()).not.toContain('sk-upstream-secret-123456');
    expect(await page.title()).toBe('Providers · Switchboard Flows');
    expect(await page.getByRole('navigation', { name: 'LLM Hub' }).getByRole('link', { name: 'Providers' }).getAttribute('aria-current')).toBe('page');
  });

  it("Test lists the provider's models", async () => {
    await page.getByRole('button', { name: 'Test local' }).click();
    const dialog = page.getByRole('dialog', { name: 'Test of "local"' });
    const models = dialog.getByRole('list', { name: 'Models' });
    await models.waitFor();
    expect(await models.getByRole('listitem').allInnerTexts()).toEqual(['echo', 'slow', 'text-embedding-test']);
    expect(await dialog.getByText('3 models available:').isVisible()).toBe(true);
    await screenshot(page, 'providers-test');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("adds a connection, and Test shows the provider's error without the key", async () => {
    await page.getByRole('button', { name: 'Add provider' }).click();
    const form = page.getByRole('dialog', { name: 'Add provider' });
    await form.getByLabel('Name').fill('broken');
    expect(await form.getByLabel('Kind').inputValue()).toBe('openai-compatible');
    await form.getByLabel('Base URL').fill(h.upstream.url);
    await form.getByLabel('API key').fill('sk-wrong-key-4242');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: 'broken' });
    await row.waitFor();
    expect((await row.getByRole('cell').allInnerTexts()).slice(0, 4)).toEqual(['broken', 'openai-compatible', h.upstream.url, 'Set']);
    expect((await providers()).find((p) => p.name === 'broken')).toEqual({
      name: 'broken',
      kind: 'openai-compatible',
      base_url: h.upstream.url,
      has_api_key: true,
      updated_at: expect.any(String),
    });

    await page.getByRole('button', { name: 'Test broken' }).click();
    const dialog = page.getByRole('dialog', { name: 'Test of "broken"' });
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    const text = await alert.innerText();
    expect(text).toMatch(/^The test failed: Provider error \(HTTP 401\): Incorrect API key provided/);
    expect(text).not.toContain('sk-wrong-key-4242');
    expect(await dialog.getByRole('list', { name: 'Models' }).count()).toBe(0);
    await screenshot(page, 'providers-test-error');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows each Kind whole in the dialog, what it covers under it, and a provider that cannot be reached as such', async () => {
    await page.getByRole('button', { name: 'Add provider' }).click();
    const form = page.getByRole('dialog', { name: 'Add provider' });
    const kind = form.getByLabel('Kind');
    // Every option's text fits the select (its padding and arrow included), so none is cut off.
    const overflows = await kind.evaluate((element) => {
      const select = element as HTMLSelectElement;
      const style = getComputedStyle(select);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      return [...select.options].filter((option) => context.measureText(option.text).width > room).map((option) => option.text);
    });
    expect(overflows).toEqual([]);
    expect(await kind.locator('option').allInnerTexts()).toEqual(['OpenAI-compatible', 'OpenAI', 'Anthropic']);
    await form.getByText('Ollama, vLLM, llama.cpp server, LM Studio, OpenRouter… (a base URL is needed)').waitFor();
    await screenshot(page, 'providers-add-dialog');
    await form.getByLabel('Name').fill('down');
    await form.getByLabel('Base URL').fill('http://127.0.0.1:1/v1');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Test down' }).click();
    const dialog = page.getByRole('dialog', { name: 'Test of "down"' });
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe('The test failed: Provider could not be reached at http://127.0.0.1:1/v1/models (connection refused)');
    await screenshot(page, 'providers-test-unreachable');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Delete down' }).click();
    await page.getByRole('dialog', { name: 'Delete provider "down"?' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('row').filter({ hasText: 'down' }).waitFor({ state: 'detached' });
  });

  it('edits a connection: an empty key field keeps the stored key, and Remove the stored key removes it', async () => {
    const stored = async () => (await h.stores.orgs.loadProviders((await h.stores.orgs.findOrg('acme'))!.id)).find((p) => p.name === 'broken')!.apiKey;
    const keyBefore = await stored();
    expect(keyBefore).not.toBeNull();
    await page.getByRole('button', { name: 'Edit broken' }).click();
    let form = page.getByRole('dialog', { name: 'Edit provider "broken"' });
    expect(await form.getByLabel('Name').count()).toBe(0);
    expect(await form.getByLabel('Base URL').inputValue()).toBe(h.upstream.url);
    expect(await form.getByLabel('API key').inputValue()).toBe('');
    expect(await form.getByText('A key is stored (never shown). Enter a new one to replace it.').isVisible()).toBe(true);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    expect((await providers()).find((p) => p.name === 'broken')!.has_api_key).toBe(true);
    expect(await stored()).toBe(keyBefore);

    await page.getByRole('button', { name: 'Edit broken' }).click();
    form = page.getByRole('dialog', { name: 'Edit provider "broken"' });
    await form.getByLabel('Remove the stored key').check();
    expect(await form.getByLabel('API key').isDisabled()).toBe(true);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: 'broken' }).getByText('Not set').waitFor();
    expect((await providers()).find((p) => p.name === 'broken')!.has_api_key).toBe(false);
  });

  it('says what is missing before saving a connection without a base URL', async () => {
    await page.getByRole('button', { name: 'Add provider' }).click();
    const form = page.getByRole('dialog', { name: 'Add provider' });
    await form.getByLabel('Name').fill('nowhere');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await form.getByRole('alert').innerText()).toBe('An OpenAI-compatible connection needs a base URL.');
    await form.getByLabel('Base URL').fill('not a url');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('alert').getByText('base_url must be an http(s) URL').waitFor();
    await form.getByRole('button', { name: 'Cancel' }).click();
    expect((await providers()).map((p) => p.name)).toEqual(['broken', 'local']);
  });

  it('deletes a connection after confirming', async () => {
    await page.getByRole('button', { name: 'Delete broken' }).click();
    await page.getByRole('dialog', { name: 'Delete provider "broken"?' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('row').filter({ hasText: 'broken' }).waitFor({ state: 'detached' });
    expect((await providers()).map((p) => p.name)).toEqual(['local']);
    await screenshot(page, 'providers');
  });
});
