import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { simpleFlow } from '../helpers/harness.ts';

describeInBrowser('LLM Hub → Tokens in the browser', () => {
  let h: UiHarness;
  let page: Page;

  beforeAll(async () => {
    h = await startUiHarness('sqlite');
    await h.save(simpleFlow({ name: 'Support bot', slug: 'support-bot', format: 'raw', model: 'reply:Token accepted' }));
    page = await h.signedInPage('/orgs/acme');
  });
  afterAll(async () => {
    await h?.close();
  });

  const runWith = (token: string) =>
    fetch(`${h.base}/api/llm/acme/flows/support-bot/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { question: 'hi' } }),
    });

  it('is reached from LLM Hub, lists the tokens with scope and status, and has Tokens, Providers and Secrets sub-navigation', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'LLM Hub' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/tokens`);
    const hub = page.getByRole('navigation', { name: 'LLM Hub' });
    await hub.getByRole('link', { name: 'Providers' }).waitFor();
    expect(await hub.getByRole('link').allTextContents()).toEqual(['Tokens', 'Providers', 'Secrets']);
    await page.getByRole('heading', { name: 'Tokens', level: 1 }).waitFor();
    const rows = page.getByRole('row');
    await rows.nth(2).waitFor();
    const texts = (await rows.allInnerTexts()).slice(1).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(texts).toHaveLength(2);
    // Newest first; the two were made in the same millisecond at times, so each row is found by its name.
    const row = (name: string) => texts.find((text) => text.startsWith(`${name} `));
    // Not used yet: said as on the Secrets page.
    expect(row('runner')).toMatch(/^runner run sbf_\S+… .+ Never Active Revoke$/);
    expect(row('admin')).toMatch(/^admin manage sbf_\S+… .+ Active Revoke$/);
    expect(await page.title()).toBe('Tokens · Switchboard Flows');
  });

  it('shows a new token once, in full, with Copy; it runs a flow over plain HTTP; after the dialog closes and after a reload the page never holds it', async () => {
    await page.getByRole('button', { name: 'Create token' }).first().click();
    const form = page.getByRole('dialog', { name: 'Create token' });
    await form.getByLabel('Name').fill('website');
    expect(await form.getByLabel('Scope').inputValue()).toBe('run');
    await form.getByRole('button', { name: 'Create token' }).click();

    const shown = page.getByRole('dialog', { name: 'Token "website" created' });
    await shown.waitFor();
    const token = (await shown.locator('code.secret').innerText()).trim();
    expect(token).toMatch(/^sbf_[A-Za-z0-9_-]{20,}$/);
    await shown.getByRole('button', { name: 'Copy' }).waitFor();
    await screenshot(page, 'tokens-new-token-dialog');

    const first = await runWith(token);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('Token accepted');

    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: 'website' });
    await row.waitFor();
    expect((await row.innerText()).replace(/\s+/g, ' ')).toMatch(/^website run sbf_\S+… .+ Active Revoke$/);
    expect(await page.content()).not.toContain(token);
    expect(await page.evaluate(() => document.body.innerText)).not.toContain(token);

    await page.reload();
    await page.getByRole('row').filter({ hasText: 'website' }).waitFor();
    expect(await page.content()).not.toContain(token);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(token);

    // Revoke, confirmed in a dialog whose button is also Revoke: the token is refused on its next request.
    await page.getByRole('button', { name: 'Revoke website' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke token "website"?' });
    await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    const revoked = page.getByRole('row').filter({ hasText: 'website' });
    await revoked.getByText(/^Revoked/).waitFor();
    expect(await revoked.getByRole('button', { name: 'Revoke website' }).count()).toBe(0);
    await screenshot(page, 'tokens');

    const after = await runWith(token);
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    expect(await page.content()).not.toContain(token);
  });

  it('creates a manage token when asked, and Cancel on the revoke dialog keeps a token active', async () => {
    await page.getByRole('button', { name: 'Create token' }).first().click();
    const form = page.getByRole('dialog', { name: 'Create token' });
    await form.getByLabel('Name').fill('deploy-bot');
    await form.getByLabel('Scope').selectOption('manage');
    await form.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Token "deploy-bot" created' });
    const token = (await shown.locator('code.secret').innerText()).trim();
    await page.keyboard.press('Escape');
    await shown.waitFor({ state: 'detached' });
    const listed = await fetch(`${h.base}/api/llm/acme/tokens`, { headers: { authorization: `Bearer ${token}` } });
    expect(listed.status).toBe(200);

    await page.getByRole('button', { name: 'Revoke deploy-bot' }).click();
    await page.getByRole('dialog', { name: 'Revoke token "deploy-bot"?' }).getByRole('button', { name: 'Cancel' }).click();
    expect((await page.getByRole('row').filter({ hasText: 'deploy-bot' }).innerText()).replace(/\s+/g, ' ')).toMatch(/deploy-bot manage .* Active Revoke$/);
    expect((await fetch(`${h.base}/api/llm/acme/tokens`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('refuses an empty name in the form, without a request', async () => {
    await page.getByRole('button', { name: 'Create token' }).first().click();
    const form = page.getByRole('dialog', { name: 'Create token' });
    await form.getByRole('button', { name: 'Create token' }).click();
    expect(await form.getByRole('alert').innerText()).toBe('Give the token a name, for example the application that will use it.');
    await form.getByRole('button', { name: 'Cancel' }).click();
    const tokens = (await (await fetch(`${h.base}/api/llm/acme/tokens`, { headers: { authorization: `Bearer ${h.manageToken}` } })).json()) as {
      tokens: unknown[];
    };
    expect(tokens.tokens).toHaveLength(4);
  });
});
