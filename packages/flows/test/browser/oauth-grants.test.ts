// LLM Hub → Tokens lists the MCP clients people signed in with (OAuth grants) beside the tokens, and revokes them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { authorizationUrl, discoverAndRegister, signInClient } from '@switchboard/core/testing/oauth';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { GREETER_FLOW } from '../helpers/greeter-flow.ts';

describeInBrowser('OAuth grants under LLM Hub → Tokens', () => {
  let h: UiHarness;
  let page: Page;
  let accessToken = '';

  beforeAll(async () => {
    h = await startUiHarness('sqlite');
    await h.save(GREETER_FLOW);
    const signIn = await fetch(`${h.base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: h.email, password: h.password }),
    });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
    const { tokens } = await signInClient(`${h.base}/api/llm/acme/mcp`, cookie, { scopeKey: 'acme', access: 'run', client: { client_name: 'Claude Code' } });
    accessToken = tokens.access_token;
    page = await h.signedInPage('/orgs/acme/tokens');
  });
  afterAll(async () => {
    await h?.close();
  });

  const run = () =>
    fetch(`${h.base}/api/llm/acme/flows/greeter/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { who: 'Ada' } }),
    });

  it("shows the consent page for the organization's MCP endpoint with Run flows", async () => {
    const setup = await discoverAndRegister(`${h.base}/api/llm/acme/mcp`, { client_name: 'VS Code' });
    const { url } = await authorizationUrl(setup);
    const consent = await (await h.context()).newPage();
    await consent.goto(url.toString());
    await consent.getByLabel('Email').fill(h.email);
    await consent.getByLabel('Password').fill(h.password);
    await consent.getByRole('button', { name: 'Sign in' }).click();
    await consent.getByRole('heading', { name: 'Connect VS Code' }).waitFor();
    expect(await consent.getByRole('combobox', { name: 'Organization' }).locator('option').allInnerTexts()).toEqual(['Acme (acme)']);
    expect(await consent.getByRole('radio', { name: /Run flows/ }).isChecked()).toBe(true);
    await screenshot(consent, 'flows-oauth-consent');
  });

  it('lists the signed-in client beside the tokens, and Revoke refuses its token at once', async () => {
    expect((await run()).status).toBe(200);
    await page.reload();
    const grants = page.getByRole('table', { name: 'MCP clients signed in to organization acme with OAuth' });
    const row = grants.getByRole('row').filter({ hasText: 'Claude Code' });
    await row.waitFor();
    expect((await row.getByRole('cell').allInnerTexts()).slice(1, 4)).toEqual(['admin@example.com', 'Run flows', 'just now']);
    await page.getByRole('heading', { name: 'Signed-in clients' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'llm-hub-tokens-oauth-grants');
    await page.getByRole('button', { name: 'Revoke Claude Code (admin@example.com)' }).click();
    await page.getByRole('dialog', { name: 'Revoke Claude Code?' }).getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByRole('heading', { name: 'No signed-in clients' }).waitFor();
    expect((await run()).status).toBe(401);
  });
});
