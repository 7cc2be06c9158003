import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { BoardScreen } from './board-page.ts';

const XSS_IMG = '<img src=x onerror=alert(1)>';
const XSS_LINK = '[click me](javascript:alert(1))';

describeInBrowser('Ticket panel at /tickets/KEY-N', () => {
  let h: UiHarness;
  let page: Page;
  let board: BoardScreen;
  const dialogs: string[] = [];

  beforeAll(async () => {
    h = await startUiHarness();
    await h.call('create_ticket', { title: 'Checkout', ticket_type: 'epic', column_name: 'To Do', description: 'The **checkout** epic' });
    await h.call('create_ticket', { title: `Title with ${XSS_IMG}`, column_name: 'Backlog' });
    // A deep link opens on load, straight after sign-in.
    page = await h.signedInPage('/tickets/demo-1');
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    board = new BoardScreen(page);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('opens a deep link over the board, with the ticket fields', async () => {
    const panel = board.panel('DEMO-1');
    await panel.getByRole('textbox', { name: 'Title' }).waitFor();
    expect(await panel.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('Checkout');
    expect(await panel.getByRole('combobox', { name: 'Type' }).inputValue()).toBe('epic');
    expect(await panel.getByRole('combobox', { name: 'Column' }).inputValue()).toBe('To Do');
    expect(await panel.getByRole('strong').filter({ hasText: 'checkout' }).count()).toBe(1);
    await board.card('DEMO-1', 'To Do').waitFor();
    expect(await page.title()).toBe('DEMO-1 · DEMO · Switchboard Tickets');
  });

  it('edits the title and the description (Markdown with a preview), with hostile HTML and links rendered inert', async () => {
    const panel = board.panel('DEMO-1');
    const title = panel.getByRole('textbox', { name: 'Title' });
    await title.fill('Checkout, rebuilt');
    await title.press('Enter');
    await board.card('DEMO-1').getByText('Checkout, rebuilt').waitFor();

    await panel.getByRole('button', { name: 'Edit description' }).click();
    const editor = panel.getByRole('textbox', { name: 'Description' });
    await editor.fill(`## Plan\n\n- **Pay** with a card\n- ${XSS_LINK}\n\n${XSS_IMG}\n\n<a href="javascript:alert(2)" onclick="alert(3)">raw link</a>`);
    await panel.getByRole('tab', { name: 'Preview' }).first().click();
    await panel.getByRole('heading', { name: 'Plan' }).waitFor();
    await panel.getByRole('tab', { name: 'Write' }).first().click();
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByRole('button', { name: 'Edit description' }).waitFor();
    await panel.getByRole('heading', { name: 'Plan', level: 2 }).waitFor();
    expect((await h.call('get_ticket', { ticket_id: 'DEMO-1' })).title).toBe('Checkout, rebuilt');

    // Nothing executable survived: no event handler attribute, no javascript: URL, no script.
    const rendered = await panel.locator('.markdown').evaluateAll((nodes) => nodes.map((node) => node.innerHTML).join('\n'));
    expect(rendered).toContain('<strong>Pay</strong>');
    expect(rendered).not.toMatch(/onerror|onclick|javascript:|<script/i);
    // The links lost their address: they are plain text now.
    await panel.getByText('click me').waitFor();
    expect(await panel.getByRole('link', { name: 'click me' }).count()).toBe(0);
    expect(await panel.getByRole('link', { name: 'raw link' }).count()).toBe(0);
    await page.waitForTimeout(200);
    expect(dialogs).toEqual([]);
  });

  it('adds a comment (Markdown) and shows it with the activity, oldest first, with actors', async () => {
    const panel = board.panel('DEMO-1');
    await panel.getByRole('textbox', { name: 'Comment' }).fill(`Looked at it: \`checkout.ts\` ${XSS_IMG}`);
    await panel.getByRole('button', { name: 'Add comment' }).click();
    await panel.getByRole('code').filter({ hasText: 'checkout.ts' }).waitFor();
    expect(await panel.getByRole('textbox', { name: 'Comment' }).inputValue()).toBe('');
    const comment = (await h.call('get_ticket', { ticket_id: 'DEMO-1' })).comments[0];
    expect(comment.author).toBe('user:admin@example.com');
    const activity = await panel.getByRole('list', { name: 'Activity entries' }).getByRole('listitem').allInnerTexts();
    expect(activity[0]).toMatch(/^token:agent created/);
    expect(activity.slice(1).every((entry) => entry.startsWith('user:admin@example.com'))).toBe(true);
    expect(activity.at(-1)).toMatch(/commented/);
    expect(dialogs).toEqual([]);
  });

  it('adds sub-tickets; the epic card shows the progress, which a sub-ticket moved to Done advances', async () => {
    const panel = board.panel('DEMO-1');
    await panel.getByRole('button', { name: 'Add sub-ticket' }).click();
    await panel.getByRole('textbox', { name: 'Sub-ticket title' }).fill('Card payment');
    await panel.getByRole('textbox', { name: 'Sub-ticket title' }).press('Enter');
    await panel.getByRole('link', { name: /DEMO-3 Card payment/ }).waitFor();
    await panel.getByRole('textbox', { name: 'Sub-ticket title' }).fill('Invoice email');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await panel.getByRole('link', { name: /DEMO-4 Invoice email/ }).waitFor();
    await board.card('DEMO-1').getByText('0/2').waitFor();
    await screenshot(page, 'ticket-panel');

    // Open the sub-ticket from the list and move it with the Column field: the epic advances.
    await panel.getByRole('link', { name: /DEMO-3 Card payment/ }).click();
    const sub = board.panel('DEMO-3');
    await sub.getByRole('link', { name: /DEMO-1 Checkout, rebuilt/ }).waitFor();
    await sub.getByRole('combobox', { name: 'Column' }).selectOption('Done');
    await board.card('DEMO-1').getByText('1/2').waitFor();
    expect(await board.card('DEMO-1').getByRole('progressbar').getAttribute('aria-valuenow')).toBe('1');
    expect(new URL(page.url()).pathname).toBe('/tickets/DEMO-3');
    await page.goBack();
    await board.panel('DEMO-1').waitFor();
  });

  it('changes type, priority, assignee and labels in place', async () => {
    const panel = board.panel('DEMO-1');
    await panel.getByRole('combobox', { name: 'Priority' }).selectOption('highest');
    await panel.getByRole('combobox', { name: 'Assignee' }).selectOption(h.email);
    await board
      .card('DEMO-1')
      .getByRole('img', { name: /Assigned to Ada Admin/ })
      .waitFor();
    const ticket = await h.call('get_ticket', { ticket_id: 'DEMO-1' });
    expect(ticket.priority).toBe('highest');
    expect(ticket.assignee.email).toBe(h.email);
  });

  it('shows a title with HTML as text, on the card and in the panel', async () => {
    await board.card('DEMO-2').click();
    const panel = board.panel('DEMO-2');
    expect(await panel.getByRole('textbox', { name: 'Title' }).inputValue()).toBe(`Title with ${XSS_IMG}`);
    expect(await board.card('DEMO-2').innerText()).toContain(XSS_IMG);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('says so for a ticket that does not exist', async () => {
    await page.goto('/tickets/DEMO-99');
    await page.getByRole('heading', { name: 'Ticket not found' }).waitFor();
  });
});
