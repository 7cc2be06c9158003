import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { createLabel, withTicketsStore } from '../../src/index.ts';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { BoardScreen } from './board-page.ts';

/** The texts of the page's live status regions that name `key` (what a screen reader announced of its drag), sorted. */
async function announcements(page: Page, key: string): Promise<string[]> {
  return (await page.getByRole('status').filter({ hasText: key }).allTextContents()).sort();
}

describeInBrowser('Board: drag and drop, New ticket, filters', () => {
  let h: UiHarness;
  let page: Page;
  let board: BoardScreen;

  beforeAll(async () => {
    h = await startUiHarness();
    await withTicketsStore(h.board.env, async (db) => {
      await createLabel(db, 'DEMO', 'backend', '#2563eb');
      await createLabel(db, 'DEMO', 'urgent', '#dc2626');
    });
    const login = await (await h.context()).newPage();
    await login.goto('/login');
    await login.getByRole('button', { name: 'Sign in' }).waitFor();
    await screenshot(login, 'sign-in');
    await login.close();
    page = await h.signedInPage('/');
    board = new BoardScreen(page);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('shows an empty project what to do: New ticket, or connect an agent under Settings → MCP Connection', async () => {
    await page.getByRole('heading', { name: 'No tickets yet' }).waitFor();
    await page.getByRole('heading', { name: 'Connect an AI agent' }).waitFor();
    expect(await page.getByRole('link', { name: 'Settings → MCP Connection' }).getAttribute('href')).toBe('/projects/DEMO/settings/mcp');
    await board.waitLive();
    await screenshot(page, 'board-empty');
  });

  it('opens New ticket with c and creates the ticket in the chosen column', async () => {
    await page.getByRole('main').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('c');
    const dialog = page.getByRole('dialog', { name: 'New ticket' });
    await dialog.waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Title' }).evaluate((element) => element === document.activeElement)).toBe(true);
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Write the release notes');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('For **1.2**');
    await dialog.getByRole('combobox', { name: 'Type' }).selectOption('story');
    await dialog.getByRole('combobox', { name: 'Priority' }).selectOption('high');
    await dialog.getByRole('combobox', { name: 'Column' }).selectOption('To Do');
    await dialog.getByRole('button', { name: 'Create ticket' }).click();
    await dialog.waitFor({ state: 'detached' });
    await board.card('DEMO-1', 'To Do').waitFor();
    const ticket = await h.call('get_ticket', { ticket_id: 'DEMO-1' });
    expect(ticket).toMatchObject({ title: 'Write the release notes', description: 'For **1.2**', ticket_type: 'story', priority: 'high', column: 'To Do' });
    expect(ticket.activity[0].actor).toBe('user:admin@example.com');
    // It opened in the panel; Escape closes it back to the board.
    await board.panel('DEMO-1').getByRole('textbox', { name: 'Title' }).waitFor();
    await page.getByRole('main').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('Escape');
    await page.waitForURL(/\/projects\/DEMO\/board$/);
    // Typing c in a field does not open the dialog.
    await page.getByRole('searchbox', { name: 'Filter' }).fill('c');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Filter' }).fill('');
  });

  it('moves a card dragged with the mouse to another lane, which a reload shows', async () => {
    await board.drag('DEMO-1', 'Review');
    await board.card('DEMO-1', 'Review').waitFor();
    expect(await board.count('To Do')).toBe('0');
    await expect.poll(async () => (await h.call('get_ticket', { ticket_id: 'DEMO-1' })).column).toBe('Review');
    await page.reload();
    await board.card('DEMO-1', 'Review').waitFor();
  });

  it('moves a sub-ticket dragged to Done: the epic follows and its card shows done/total', async () => {
    const epic = await h.call('create_ticket', { title: 'Checkout', ticket_type: 'epic', column_name: 'Backlog' });
    await h.call('create_sub_ticket', { parent_ticket_id: epic.key, title: 'Payment form', column_name: 'In Progress' });
    await h.call('create_sub_ticket', { parent_ticket_id: epic.key, title: 'Address form', column_name: 'Done' });
    await board.card('DEMO-3', 'In Progress').waitFor();
    await board.card('DEMO-2', 'In Progress').waitFor();
    await board.card('DEMO-2').getByText('1/2').waitFor();
    await board.drag('DEMO-3', 'Done');
    await board.card('DEMO-2', 'Done').getByText('2/2').waitFor();
    expect(await board.card('DEMO-2').getByRole('progressbar').getAttribute('aria-valuenow')).toBe('2');
    // The card's name says the progress once, in words (it read '… 2/2 2' with the figures and the bar's value).
    expect(
      await page.getByRole('main').getByRole('button', { name: 'DEMO-2 epic medium priority Checkout 2 of 2 sub-tickets done', exact: true }).count(),
    ).toBe(1);
    expect((await h.call('get_ticket', { ticket_id: 'DEMO-3' })).column).toBe('Done');
    expect((await h.call('get_ticket', { ticket_id: 'DEMO-2' })).column).toBe('Done');
  });

  it('snaps a refused move back and says why (an epic with sub-tickets advances by itself), to screen readers too', async () => {
    await board.drag('DEMO-2', 'Backlog');
    const alert = page.getByRole('alert').filter({ hasText: 'DEMO-2 could not move to Backlog' });
    await alert.waitFor();
    const refusal =
      'DEMO-2 could not move to Backlog: DEMO-2 is an epic with 2 sub-ticket(s); epics advance automatically as their sub-tickets move. Move its sub-tickets instead.';
    expect(await alert.getByText('could not move to').innerText()).toBe(refusal);
    // What a screen reader hears of the drop: the move asked for, then the refusal (the alert), never that it was dropped there.
    expect(await announcements(page, 'DEMO-2')).toEqual(['Moving DEMO-2 to Backlog…']);
    await board.card('DEMO-2', 'Done').waitFor();
    expect(await board.card('DEMO-2', 'Backlog').count()).toBe(0);
    expect((await h.call('get_ticket', { ticket_id: 'DEMO-2' })).column).toBe('Done');
    await screenshot(page, 'board-refused-move');
    await alert.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('moves a card with the keyboard: Space, arrow keys across lanes, Space', async () => {
    await board.card('DEMO-1', 'Review').focus();
    await page.keyboard.press('Space');
    await page.getByText('DEMO-1 is over Review').waitFor({ state: 'attached' });
    // A person reads the announcement before the next key; the sensor measures the lanes meanwhile.
    await page.waitForTimeout(250);
    await page.keyboard.press('ArrowLeft');
    // The screen reader announcement says where the card is before it is dropped.
    await page.getByText('DEMO-1 is over In Progress').waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await board.card('DEMO-1', 'In Progress').waitFor();
    await expect.poll(async () => (await h.call('get_ticket', { ticket_id: 'DEMO-1' })).column).toBe('In Progress');
    // Announced once the service took the move.
    await expect.poll(() => announcements(page, 'DEMO-1')).toEqual(['DEMO-1 moved to In Progress.', 'Moving DEMO-1 to In Progress…']);
  });

  it('filters by type, priority, label, assignee and text, kept in the URL; / focuses the text', async () => {
    await h.call('create_ticket', {
      title: 'Crash on login',
      ticket_type: 'bug',
      priority: 'highest',
      column_name: 'To Do',
      assignee: h.email,
      labels: ['backend', 'urgent'],
    });
    await board.card('DEMO-5', 'To Do').waitFor();
    await board.card('DEMO-5').getByText('urgent').waitFor();
    // A card's name says its priority in words, without the glyphs drawn beside it.
    await page.getByRole('button', { name: 'DEMO-5 bug highest priority Crash on login backend urgent Assigned to Ada Admin', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'DEMO-1 story high priority Write the release notes', exact: true }).count()).toBe(1);
    expect(await page.getByRole('main').getByRole('button', { name: /[▲▼]/ }).count()).toBe(0);
    await page.getByRole('combobox', { name: 'Label' }).selectOption('urgent');
    await expect
      .poll(() =>
        page
          .getByRole('main')
          .getByRole('button', { name: /^DEMO-\d+ / })
          .count(),
      )
      .toBe(1);
    await page.getByRole('combobox', { name: 'Label' }).selectOption('');
    await page.getByRole('combobox', { name: 'Type' }).selectOption('bug');
    await page.waitForURL(/type=bug/);
    await expect
      .poll(() =>
        page
          .getByRole('main')
          .getByRole('button', { name: /^DEMO-\d+ / })
          .count(),
      )
      .toBe(1);
    expect(await board.count('To Do')).toBe('1 of 1');
    await page.getByRole('combobox', { name: 'Type' }).selectOption('');
    await page.getByRole('combobox', { name: 'Assignee' }).selectOption(h.email);
    await expect
      .poll(() =>
        page
          .getByRole('main')
          .getByRole('button', { name: /^DEMO-\d+ / })
          .count(),
      )
      .toBe(1);
    await page.getByRole('combobox', { name: 'Assignee' }).selectOption('');
    await page.getByRole('combobox', { name: 'Priority' }).selectOption('high');
    await expect
      .poll(() =>
        page
          .getByRole('main')
          .getByRole('button', { name: /^DEMO-\d+ / })
          .count(),
      )
      .toBe(1);
    await page.getByRole('combobox', { name: 'Priority' }).selectOption('');
    await page.locator('body').click({ position: { x: 640, y: 790 } });
    await page.keyboard.press('/');
    const filter = page.getByRole('searchbox', { name: 'Filter' });
    expect(await filter.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.type('payment');
    await page.waitForURL(/q=payment/);
    await expect
      .poll(() =>
        page
          .getByRole('main')
          .getByRole('button', { name: /^DEMO-\d+ / })
          .count(),
      )
      .toBe(1);
    await page.reload();
    expect(await page.getByRole('searchbox', { name: 'Filter' }).inputValue()).toBe('payment');
    await expect
      .poll(() =>
        page
          .getByRole('main')
          .getByRole('button', { name: /^DEMO-\d+ / })
          .count(),
      )
      .toBe(1);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(/\/board$/);
    await screenshot(page, 'board');
  });

  it('opens the board last shown in this browser, and reads it with the page itself (one read, asked for in the HTML)', async () => {
    const created = await page.evaluate(async () => {
      const response = await fetch('/api/projects/DEMO/boards', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ops & on-call', columns: ['Waiting', 'Handled'] }),
      });
      return response.status;
    });
    expect(created).toBe(201);
    await page.goto('/projects/DEMO/board');
    await page.getByRole('combobox', { name: 'Board' }).selectOption('Ops & on-call');
    await board.lane('Waiting').waitFor();
    const remembered = (await page.context().cookies()).find((cookie) => cookie.name === 'sb_board_DEMO');
    expect(remembered?.value).toBe('Ops%20%26%20on-call');

    const html = await (await page.request.get('/projects/DEMO/board')).text();
    expect(html).toContain('<link rel="preload" as="fetch" crossorigin href="/api/projects/DEMO/board?board=Ops%20%26%20on-call&amp;cards=50">');
    const reads: string[] = [];
    const onRequest = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/projects/DEMO/board') reads.push(url.pathname + url.search);
    };
    page.on('request', onRequest);
    await page.goto('/projects/DEMO/board');
    await board.lane('Waiting').waitFor();
    await board.lane('Handled').waitFor();
    page.off('request', onRequest);
    // A board whose lanes hold fewer than 50 cards each is read once.
    expect(reads).toEqual(['/api/projects/DEMO/board?board=Ops%20%26%20on-call&cards=50']);
    expect(await page.getByRole('combobox', { name: 'Board' }).inputValue()).toBe('Ops & on-call');
  });
});
