// Signing an MCP client in, as a person does it in Chromium: the authorization URL the SDK made, the shared
// sign-in page, the consent page (client, project, access, Allow / Deny), and the redirect back to the client.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { authorizationUrl, discoverAndRegister, exchange, startCallback, type OAuthSetup } from '@switchboard/core/testing/oauth';
import { restCaller } from '../helpers.ts';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';

describeInBrowser('Signing in an MCP client (OAuth)', () => {
  let h: UiHarness;
  let callback: Awaited<ReturnType<typeof startCallback>>;
  let setup: OAuthSetup;
  let member: { email: string; password: string };
  /** The access token the first case's consent gave. */
  let signedIn = '';

  beforeAll(async () => {
    h = await startUiHarness();
    await h.board.addProject('SHOP');
    await h.board.addProject('HIDDEN');
    member = await h.createUser('mia@example.com', { memberOf: ['DEMO', 'SHOP'], name: 'Mia Member' });
    callback = await startCallback();
    setup = await discoverAndRegister(`${h.base}/api/mcp/v1/mcp`, { client_name: 'Claude Code', redirect_uris: [callback.url] });
  });
  afterAll(async () => {
    await callback?.close();
    await h?.close();
  });

  async function signInOnTheWay(page: Page): Promise<void> {
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('signs the person in on the way, asks for consent naming the client, and sends the code back with state and iss', async () => {
    const { url, codeVerifier, state } = await authorizationUrl(setup, { scope: 'tickets:read tickets:write' });
    const page = await (await h.context()).newPage();
    await page.goto(url.toString());
    await page.waitForURL(/\/login\?next=/);
    await screenshot(page, 'oauth-sign-in');
    await signInOnTheWay(page);
    await page.getByRole('heading', { name: 'Connect Claude Code' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/oauth/authorize');
    expect(await page.locator('main p').first().innerText()).toMatch(
      /^Claude Code wants to use the ticket board as mia@example\.com\. You will be sent back to 127\.0\.0\.1:\d+\.$/,
    );
    const project = page.getByRole('combobox', { name: 'Project' });
    expect(await project.locator('option').allInnerTexts()).toEqual(['Project DEMO (DEMO)', 'Project SHOP (SHOP)']);
    const access = page.getByRole('group', { name: 'Access' });
    expect(await access.getByRole('radio', { name: /Read and write/ }).isChecked()).toBe(true);
    expect(await access.getByRole('radio', { name: /Read only/ }).isChecked()).toBe(false);
    await screenshot(page, 'oauth-consent');

    await project.selectOption('SHOP');
    await access.getByRole('radio', { name: /Read only/ }).check();
    await page.getByRole('button', { name: 'Allow' }).click();
    const received = await callback.received;
    expect(received).toEqual({ code: received.code, state, iss: h.base });
    await page.getByRole('heading', { name: 'You can close this window' }).waitFor();

    const tokens = await exchange(setup, received.code, codeVerifier);
    expect(tokens.scope).toBe('tickets:read');
    const status = await restCaller(h.base, tokens.access_token)('get_project_status');
    expect(status.project.key).toBe('SHOP');
    signedIn = tokens.access_token;
  });

  it('lists the signed-in client under Settings → MCP Connection beside the tokens, and Revoke refuses its token at once', async () => {
    const page = await h.signedInPage('/projects/SHOP/settings/mcp', member);
    const grants = page.getByRole('table', { name: 'MCP clients signed in to project SHOP with OAuth' });
    const row = grants.getByRole('row').filter({ hasText: 'Claude Code' });
    await row.waitFor();
    expect((await row.getByRole('cell').allInnerTexts()).slice(1, 4)).toEqual(['mia@example.com', 'Read only', 'just now']);
    await page.getByRole('heading', { name: 'Signed-in clients' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-mcp-oauth-grants');
    await page.getByRole('button', { name: 'Revoke Claude Code (mia@example.com)' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke Claude Code?' });
    expect(await confirm.innerText()).toContain('Claude Code can no longer act as mia@example.com on project SHOP');
    await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByRole('heading', { name: 'No signed-in clients' }).waitFor();
    const refused = await fetch(`${h.base}/api/mcp/v1/status`, { headers: { authorization: `Bearer ${signedIn}` } });
    expect(refused.status).toBe(401);
  });

  it('answers Deny with access_denied, and shows a page (not a redirect) for a redirect URI the client did not register', async () => {
    const again = await startCallback();
    try {
      const denying = await discoverAndRegister(`${h.base}/api/mcp/v1/mcp`, { client_name: 'VS Code', redirect_uris: [again.url] });
      const { url, state } = await authorizationUrl(denying);
      const page = await (await h.context()).newPage();
      await page.goto(url.toString());
      await signInOnTheWay(page);
      await page.getByRole('heading', { name: 'Connect VS Code' }).waitFor();
      await page.getByRole('button', { name: 'Deny' }).click();
      expect(await again.received).toEqual({ error: 'access_denied', error_description: 'The user denied access', state, iss: h.base });

      const foreign = new URL(url);
      foreign.searchParams.set('redirect_uri', 'http://127.0.0.1:9/elsewhere');
      await page.goto(foreign.toString());
      await page.getByRole('heading', { name: 'Cannot connect' }).waitFor();
      expect(await page.getByRole('alert').innerText()).toBe(`redirect_uri "http://127.0.0.1:9/elsewhere" is not one of the client's registered redirect URIs`);
      await screenshot(page, 'oauth-error');
    } finally {
      await again.close();
    }
  });
});
