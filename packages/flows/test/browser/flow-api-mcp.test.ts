import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { simpleFlow } from '../helpers/harness.ts';

// The MCP section of a flow's API page (design/mcp.md, "Flows as MCP tools"): the switch, the tool name and
// description, the endpoint URL and the lines for Claude Code, Cursor and VS Code, each with Copy.
describeInBrowser("the MCP section of a flow's API page", () => {
  let h: UiHarness;
  let page: Page;

  beforeAll(async () => {
    h = await startUiHarness('sqlite');
    await h.save({ ...simpleFlow({ name: 'Support bot', slug: 'support-bot' }), description: 'Answers product questions' });
    const context = await h.context();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.base });
    page = await context.newPage();
    await page.goto('/orgs/acme/flows/support-bot/api');
    await page.getByLabel('Email').fill(h.email);
    await page.getByLabel('Password').fill(h.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API of Support bot', level: 1 }).waitFor();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('switches the flow on as a tool, renames it, and offers the URL and the client lines with Copy', async () => {
    const mcp = page.getByRole('region', { name: 'MCP' });
    const toggle = mcp.getByRole('switch', { name: 'Offer this flow as an MCP tool' });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    expect(await mcp.getByLabel('Tool name').inputValue()).toBe('support_bot');
    await toggle.click();
    await mcp.getByText('listed as support_bot').waitFor();
    expect(await (await h.get('/api/llm/acme/flows/support-bot/mcp')).json()).toMatchObject({ enabled: true, tool_name: 'support_bot' });

    await mcp.getByLabel('Tool name').fill('ask_support');
    await mcp.getByLabel('Tool description').fill('Answers questions about the product');
    await mcp.getByRole('button', { name: 'Save tool settings' }).click();
    await mcp.getByText('listed as ask_support').waitFor();
    const url = `${h.base}/api/llm/acme/mcp`;
    expect(await (await h.get('/api/llm/acme/flows/support-bot/mcp')).json()).toEqual({
      enabled: true,
      tool_name: 'ask_support',
      description: 'Answers questions about the product',
      mcp_url: url,
    });

    await mcp.getByRole('button', { name: 'Copy MCP URL' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    const titles = await mcp.getByRole('figure').locator('figcaption span').allInnerTexts();
    expect(titles).toEqual(['Claude Code', 'Cursor (.cursor/mcp.json)', 'VS Code']);
    await mcp.getByRole('button', { name: 'Copy Claude Code' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `claude mcp add --transport http switchboard-acme ${url} --header "Authorization: Bearer $SWITCHBOARD_TOKEN"`,
    );
    const cursor = JSON.parse(await mcp.getByRole('figure').filter({ hasText: 'Cursor' }).locator('code').innerText());
    expect(cursor.mcpServers['switchboard-acme'].url).toBe(url);
    expect(await mcp.getByRole('figure').filter({ hasText: 'VS Code' }).locator('code').innerText()).toContain(`"url":"${url}"`);
    await mcp.scrollIntoViewIfNeeded();
    await screenshot(page, 'flow-api-mcp');

    // Off again: the flow leaves the endpoint's tools.
    await toggle.click();
    await mcp.getByText('not listed: switch it on to offer it').waitFor();
    expect(await (await h.get('/api/llm/acme/flows/support-bot/mcp')).json()).toMatchObject({ enabled: false, tool_name: 'ask_support' });
  });

  it('says why a tool name is refused, and keeps the switch as it was', async () => {
    await h.save({ ...simpleFlow({ name: 'Other bot', slug: 'other-bot' }) });
    await h.put('/api/llm/acme/flows/other-bot/mcp', { enabled: true, tool_name: 'taken_name' });
    const mcp = page.getByRole('region', { name: 'MCP' });
    await mcp.getByLabel('Tool name').fill('taken_name');
    await mcp.getByRole('switch', { name: 'Offer this flow as an MCP tool' }).click();
    await mcp.getByRole('alert').filter({ hasText: 'The tool name "taken_name" is already used by flow "other-bot"' }).waitFor();
    expect(await mcp.getByRole('switch', { name: 'Offer this flow as an MCP tool' }).isChecked()).toBe(false);
  });
});
