import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { connectMcp } from '../helpers.ts';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';

describeInBrowser('Settings', () => {
  let h: UiHarness;
  let page: Page;

  beforeAll(async () => {
    h = await startUiHarness();
    await h.call('create_ticket', { title: 'Something to do', column_name: 'To Do' });
    page = await h.signedInPage('/projects/DEMO/settings');
  });
  afterAll(async () => {
    await h?.close();
  });

  const tab = (name: string) => page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name, exact: true });

  it('has a sub-page per section, Boards and columns first', async () => {
    await page.waitForURL(/\/projects\/DEMO\/settings\/boards$/);
    await tab('MCP Connection').waitFor();
    const links = await page.getByRole('navigation', { name: 'Settings' }).getByRole('link').allInnerTexts();
    expect(links).toEqual(['Boards and columns', 'Labels', 'Members', 'Auto-Summary', 'MCP Connection']);
    await page.getByRole('region', { name: 'Board Main' }).waitFor();
    expect(await page.title()).toBe('Boards and columns · Settings · DEMO · Switchboard Tickets');
  });

  it('renames a column, which get_project_status over MCP then reports', async () => {
    const board = page.getByRole('region', { name: 'Board Main' });
    await board.getByRole('button', { name: 'Rename Review' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename column Review' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Code review');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await board.getByRole('cell', { name: 'Code review', exact: true }).waitFor();
    const status = await h.call('get_project_status');
    expect(status.boards[0].columns.map((column: { name: string }) => column.name)).toEqual(['Backlog', 'To Do', 'In Progress', 'Code review', 'Done']);
  });

  it('adds a column, moves it left, makes it the done column, and deletes an empty one', async () => {
    const board = page.getByRole('region', { name: 'Board Main' });
    await board.getByRole('textbox', { name: 'New column on Main' }).fill('Shipped');
    await board.getByRole('button', { name: 'Add column' }).click();
    await board.getByRole('cell', { name: 'Shipped', exact: true }).waitFor();
    await board.getByRole('button', { name: 'Move Shipped left' }).click();
    await expect
      .poll(async () => (await h.call('list_columns')).columns.map((c: { name: string }) => c.name).join(','))
      .toBe('Backlog,To Do,In Progress,Code review,Shipped,Done');
    await board.getByRole('radio', { name: 'Shipped is the done column' }).check();
    await expect.poll(async () => (await h.call('list_columns')).columns.find((c: { is_done_column: boolean }) => c.is_done_column).name).toBe('Shipped');
    await board.getByRole('radio', { name: 'Done is the done column' }).check();
    await expect.poll(async () => (await h.call('list_columns')).columns.find((c: { is_done_column: boolean }) => c.is_done_column).name).toBe('Done');
    expect(await board.getByRole('button', { name: 'Delete To Do' }).isDisabled()).toBe(true);
    await board.getByRole('button', { name: 'Delete Shipped' }).click();
    await page.getByRole('dialog', { name: 'Delete column Shipped?' }).getByRole('button', { name: 'Delete' }).click();
    await board.getByRole('cell', { name: 'Shipped', exact: true }).waitFor({ state: 'detached' });
    await page.reload();
    await board.getByRole('cell', { name: 'Code review', exact: true }).waitFor();
    await screenshot(page, 'settings-boards');
  });

  it('keeps the chosen done column shown while an older read of the settings answers late', async () => {
    const board = page.getByRole('region', { name: 'Board Main' });
    const doneColumn = async () => (await h.call('list_columns')).columns.find((c: { is_done_column: boolean }) => c.is_done_column).name;
    // Reads of the settings are answered by the service and then held back; so is the change of done column.
    const heldReads: Array<() => Promise<void>> = [];
    await page.route('**/api/projects/DEMO/settings', async (route) => {
      const response = await route.fetch();
      heldReads.push(() => route.fulfill({ response }).catch(() => {}));
    });
    let releaseChange = () => {};
    const changeHeld = new Promise<void>((held) => {
      void page.route('**/api/projects/DEMO/columns/*', (route) => {
        releaseChange = () => void route.continue();
        held();
      });
    });
    // A new column: the settings are read again (Done still the done column), and that read waits.
    await board.getByRole('textbox', { name: 'New column on Main' }).fill('Later');
    await board.getByRole('button', { name: 'Add column' }).click();
    await expect.poll(() => heldReads.length).toBeGreaterThan(0);
    await board.getByRole('radio', { name: 'Code review is the done column' }).check();
    await changeHeld;
    // The older read answers while the change is on its way: the new column shows, and so does the choice.
    await page.unroute('**/api/projects/DEMO/settings');
    for (const release of heldReads.splice(0)) await release();
    await board.getByRole('cell', { name: 'Later', exact: true }).waitFor();
    expect(await board.getByRole('radio', { name: 'Code review is the done column' }).isChecked()).toBe(true);
    expect(await board.getByRole('radio', { name: 'Done is the done column' }).isChecked()).toBe(false);
    releaseChange();
    await page.unroute('**/api/projects/DEMO/columns/*');
    await expect.poll(doneColumn).toBe('Code review');
    // The read after the change confirms it.
    await board
      .getByRole('row', { name: /^Code review/ })
      .getByText('Done column', { exact: true })
      .waitFor();
    // Back as it was: Done the done column, the new column gone.
    await board.getByRole('radio', { name: 'Done is the done column' }).check();
    await expect.poll(doneColumn).toBe('Done');
    await board.getByRole('button', { name: 'Delete Later' }).click();
    await page.getByRole('dialog', { name: 'Delete column Later?' }).getByRole('button', { name: 'Delete' }).click();
    await board.getByRole('cell', { name: 'Later', exact: true }).waitFor({ state: 'detached' });
  });

  it('adds a board, which the board page then offers', async () => {
    await page.getByRole('button', { name: 'Add board' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add board' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Ops');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('region', { name: 'Board Ops' }).waitFor();
  });

  it('creates a label, edits its colour and deletes it', async () => {
    await tab('Labels').click();
    await page.getByRole('button', { name: 'New label' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New label' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('backend');
    await dialog.getByRole('button', { name: 'Colour #16a34a' }).click();
    await dialog.getByRole('button', { name: 'Create label' }).click();
    await page.getByRole('cell', { name: '#16a34a' }).waitFor();
    await page.getByRole('button', { name: 'Edit backend' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit label backend' });
    await edit.getByRole('button', { name: 'Colour #dc2626' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: '#dc2626' }).waitFor();
    expect((await h.call('list_labels')).labels).toEqual([expect.objectContaining({ name: 'backend', color: '#dc2626' })]);
    await page.getByRole('button', { name: 'New label' }).first().click();
    await page.getByRole('dialog', { name: 'New label' }).getByRole('textbox', { name: 'Name' }).fill('frontend');
    await page.getByRole('dialog', { name: 'New label' }).getByRole('button', { name: 'Create label' }).click();
    await page.reload();
    await page.getByRole('button', { name: 'Edit frontend' }).waitFor();
    await screenshot(page, 'settings-labels');
    await page.getByRole('button', { name: 'Delete frontend' }).click();
    await page.getByRole('dialog', { name: 'Delete label frontend?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Edit frontend' }).waitFor({ state: 'detached' });
  });

  it('adds a member by email and removes them (admin)', async () => {
    await h.createUser('bea@example.com', { name: 'Bea Builder' });
    await tab('Members').click();
    await page.getByRole('combobox', { name: 'Email' }).fill('bea@example.com');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('cell', { name: 'bea@example.com', exact: true }).waitFor();
    expect((await h.call('list_members')).members.map((m: { email: string }) => m.email)).toContain('bea@example.com');
    await page.reload();
    await page.getByRole('cell', { name: 'bea@example.com', exact: true }).waitFor();
    await screenshot(page, 'settings-members');
    await page.getByRole('button', { name: 'Remove bea@example.com' }).click();
    await page.getByRole('dialog', { name: 'Remove bea@example.com?' }).getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('cell', { name: 'bea@example.com', exact: true }).waitFor({ state: 'detached' });
  });

  it('turns Auto-Summary off and on', async () => {
    await tab('Auto-Summary').click();
    const toggle = page.getByRole('switch', { name: /Auto-Summary/ });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await expect.poll(async () => (await h.call('get_project_status')).project.settings.auto_summary).toBe(false);
    await toggle.check();
    await expect.poll(async () => (await h.call('get_project_status')).project.settings.auto_summary).toBe(true);
    await page.reload();
    expect(await toggle.isChecked()).toBe(true);
    await screenshot(page, 'settings-auto-summary');
  });

  it('creates a token shown once with snippets; an MCP client connects with the snippet URL and header; Revoke refuses it', async () => {
    await tab('MCP Connection').click();
    await page.getByRole('button', { name: 'Create token' }).click();
    const form = page.getByRole('dialog', { name: 'Create token' });
    await form.getByRole('textbox', { name: 'Name' }).fill('cursor-laptop');
    await form.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Token "cursor-laptop" created' });
    await shown.waitFor();
    const token = (await shown.locator('code.secret').innerText()).trim();
    expect(token).toMatch(/^sbt_/);
    const claude = await shown.getByRole('figure').filter({ hasText: 'claude mcp add' }).locator('code').innerText();
    const match = /^claude mcp add --transport http switchboard-tickets (\S+) --header "Authorization: Bearer (sbt_\S+)"$/.exec(claude.trim());
    expect(match?.[2]).toBe(token);
    for (const name of ['Copy Claude Code', 'Copy Cursor', 'Copy VS Code', 'Copy token']) await shown.getByRole('button', { name }).waitFor();
    const cursor = JSON.parse(await shown.getByRole('figure').filter({ hasText: 'mcpServers' }).locator('code').innerText());
    expect(cursor.mcpServers['switchboard-tickets']).toEqual({ url: match![1], headers: { Authorization: `Bearer ${token}` } });
    const vscode = JSON.parse(await shown.getByRole('figure').filter({ hasText: '"servers"' }).locator('code').innerText());
    expect(vscode.servers['switchboard-tickets']).toMatchObject({ type: 'http', url: match![1] });
    await screenshot(page, 'settings-mcp-token-dialog');

    // The snippet's URL and header work for an MCP client.
    const mcpUrl = new URL(match![1]!);
    expect(mcpUrl.pathname).toBe('/api/mcp/v1/mcp');
    const client = await connectMcp(mcpUrl.origin, token);
    const status = (await client.callTool({ name: 'get_project_status', arguments: {} })) as unknown as { structuredContent: { project: { key: string } } };
    expect(status.structuredContent.project.key).toBe('DEMO');
    await client.close();

    await shown.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: 'cursor-laptop' });
    await row.waitFor();
    expect(await page.content()).not.toContain(token);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(token);
    await screenshot(page, 'settings-mcp');
    await page.getByRole('button', { name: 'Revoke cursor-laptop' }).click();
    await page.getByRole('dialog', { name: 'Revoke token "cursor-laptop"?' }).getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const refused = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_project_status', arguments: {} } }),
    });
    expect(refused.status).toBe(401);
  });

  it('creates a read-only token (Access: Read only): the list says so, and an MCP client with it has only the read tools', async () => {
    await tab('MCP Connection').click();
    await page.getByRole('button', { name: 'Create token' }).click();
    const form = page.getByRole('dialog', { name: 'Create token' });
    await form.getByRole('textbox', { name: 'Name' }).fill('dashboard');
    const access = form.getByRole('combobox', { name: 'Access' });
    expect(await access.inputValue()).toBe('write');
    await access.selectOption({ label: 'Read only' });
    await screenshot(page, 'settings-mcp-create-read-only');
    await form.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Read-only token "dashboard" created' });
    await shown.waitFor();
    const token = (await shown.locator('code.secret').innerText()).trim();
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: 'dashboard' });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).innerText()).toBe('Read only');
    expect(await page.getByRole('row').filter({ hasText: 'agent' }).first().getByRole('cell').nth(1).innerText()).toBe('Read and write');
    await screenshot(page, 'settings-mcp-read-only');

    const client = await connectMcp(new URL(page.url()).origin, token);
    try {
      const { tools } = await client.listTools();
      expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
      expect(tools.map((tool) => tool.name)).not.toContain('create_ticket');
    } finally {
      await client.close();
    }
  });
});
