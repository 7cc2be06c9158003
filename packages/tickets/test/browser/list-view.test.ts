import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { createLabel, withTicketsStore } from '../../src/index.ts';
import { boardCaller } from '../helpers.ts';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { BoardScreen } from './board-page.ts';
import { ListScreen } from './list-page.ts';

const LONG_TITLE =
  'Move the nightly export of every closed ticket with its comments, attachments and activity to the new storage bucket without losing the retention labels';
const LABELS = ['backend', 'frontend', 'urgent', 'security', 'billing', 'customer-reported'];

function listScenario(dialect: 'sqlite' | 'postgres') {
  let h: UiHarness;
  let page: Page;
  let list: ListScreen;

  beforeAll(async () => {
    h = await startUiHarness({ dialect });
    await withTicketsStore(h.board.env, async (db) => {
      for (const [index, name] of LABELS.entries())
        await createLabel(db, 'DEMO', name, ['#2563eb', '#16a34a', '#dc2626', '#9333ea', '#ca8a04', '#0891b2'][index]!);
    });
    await h.createUser('grace@example.com', { memberOf: ['DEMO'], name: 'Grace Hopper' });
    page = await h.signedInPage('/projects/DEMO/board?view=list');
    list = new ListScreen(page);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('says what to do when the project has no tickets, at 1280 and 390 px', async () => {
    await page.getByRole('heading', { name: 'No tickets yet' }).waitFor();
    expect(await list.viewChoice('List').getAttribute('aria-checked')).toBe('true');
    expect(await list.viewChoice('Board').getAttribute('aria-checked')).toBe('false');
    await new BoardScreen(page).waitLive();
    await screenshot(page, `list-empty-${dialect}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, `list-empty-390-${dialect}`);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('switches from Board to List keeping the filters, and shows each ticket as a row', async () => {
    await h.call('create_ticket', { title: 'Write the release notes', priority: 'low', column_name: 'To Do' });
    await h.call('create_ticket', {
      title: LONG_TITLE,
      priority: 'highest',
      column_name: 'In Progress',
      labels: LABELS,
      assignee: 'grace@example.com',
    });
    await h.call('create_ticket', { title: 'Fix the login page', ticket_type: 'bug', priority: 'high', column_name: 'Review', labels: ['frontend'] });
    await h.call('create_ticket', { title: 'Checkout', ticket_type: 'epic', column_name: 'Backlog' });
    await page.goto('/projects/DEMO/board?priority=high');
    const board = new BoardScreen(page);
    await board.card('DEMO-3', 'Review').waitFor();
    await list.viewChoice('List').click();
    await page.waitForURL((url) => url.searchParams.get('view') === 'list' && url.searchParams.get('priority') === 'high');
    await list.row('DEMO-3').waitFor();
    expect(await list.keys()).toEqual(['DEMO-3']);
    expect(await page.getByRole('combobox', { name: 'Priority' }).inputValue()).toBe('high');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => list.keys()).toEqual(['DEMO-4', 'DEMO-1', 'DEMO-2', 'DEMO-3']);
    // The row of DEMO-2: its cells as a person reads them (two labels shown, the rest counted).
    const cells = await list.row('DEMO-2').getByRole('cell').allInnerTexts();
    expect(cells.slice(0, 6).map((cell) => cell.replace(/\s+/g, ' ').trim())).toEqual([
      'DEMO-2',
      LONG_TITLE,
      '✓ task',
      '▲▲highest priority',
      'In Progress',
      'GH Grace Hopper',
    ]);
    expect(cells[6]!.replace(/\s+/g, ' ').trim()).toBe('backend billing +4 more');
    await screenshot(page, `list-long-${dialect}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, `list-long-390-${dialect}`);
    // Nothing of the page below the top bar is wider than the window: the table scrolls sideways in its own box.
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('main *')]
        .filter((element) => element.getBoundingClientRect().right > 391 && !element.closest('.ticket-list-scroll'))
        .map((element) => `${element.tagName}.${element.className}`),
    );
    expect(wide).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('sorts by priority from a column header, both ways, saying so with aria-sort', async () => {
    const priority = list.header('Priority');
    expect(await priority.getAttribute('aria-sort')).toBe('none');
    await priority.getByRole('button').click();
    await expect.poll(() => priority.getAttribute('aria-sort')).toBe('descending');
    expect(await list.keys()).toEqual(['DEMO-2', 'DEMO-3', 'DEMO-4', 'DEMO-1']);
    await priority.getByRole('button').click();
    await expect.poll(() => priority.getAttribute('aria-sort')).toBe('ascending');
    expect(await list.keys()).toEqual(['DEMO-1', 'DEMO-4', 'DEMO-3', 'DEMO-2']);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('priority');
  });

  it('filters the list with the board’s filters, and a reload keeps the view, the sort and the filters', async () => {
    await page.getByRole('combobox', { name: 'Label' }).selectOption('frontend');
    await expect.poll(() => list.keys()).toEqual(['DEMO-3', 'DEMO-2']);
    await page.getByRole('searchbox', { name: 'Filter' }).fill('login');
    await expect.poll(() => list.keys()).toEqual(['DEMO-3']);
    await page.reload();
    await list.row('DEMO-3').waitFor();
    expect(await list.keys()).toEqual(['DEMO-3']);
    expect(await list.viewChoice('List').getAttribute('aria-checked')).toBe('true');
    expect(await list.header('Priority').getAttribute('aria-sort')).toBe('ascending');
    expect(await page.getByRole('searchbox', { name: 'Filter' }).inputValue()).toBe('login');
    expect(await page.getByRole('status').filter({ hasText: 'of 4' }).innerText()).toBe('1 ticket of 4');
    // Nothing matches: the list says so and offers to clear the filters.
    await page.getByRole('searchbox', { name: 'Filter' }).fill('nothing like this');
    await page.getByRole('heading', { name: 'No tickets match these filters' }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await expect.poll(() => list.keys()).toEqual(['DEMO-1', 'DEMO-4', 'DEMO-3', 'DEMO-2']);
  });

  it('opens a ticket from the list by a click or by Enter on its row, and closes back to the list', async () => {
    await list.row('DEMO-3').click();
    const panel = page.getByRole('complementary', { name: 'Ticket DEMO-3' });
    await panel.getByRole('textbox', { name: 'Title' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/tickets/DEMO-3');
    expect(new URL(page.url()).searchParams.get('view')).toBe('list');
    expect(await list.row('DEMO-3').getAttribute('aria-current')).toBe('true');
    await screenshot(page, `list-panel-${dialect}`);
    await panel.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL((url) => url.pathname === '/projects/DEMO/board' && url.searchParams.get('view') === 'list');
    // The keyboard: focus a row, the arrow keys move, Enter opens.
    await list.row('DEMO-1').focus();
    await page.keyboard.press('ArrowDown');
    // The row moved to takes the focus in the next frame.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-key'))).toBe('DEMO-4');
    await page.keyboard.press('Enter');
    await page.getByRole('complementary', { name: 'Ticket DEMO-4' }).getByRole('textbox', { name: 'Title' }).waitFor();
    await page.getByRole('complementary', { name: 'Ticket DEMO-4' }).getByRole('button', { name: 'Close' }).click();
    await page.waitForURL((url) => url.pathname === '/projects/DEMO/board');
    // A key pressed at once on a row just focused moves from that row (the list has not re-rendered in between).
    await page.evaluate(() => {
      const row = document.querySelector<HTMLElement>('tr[data-key="DEMO-3"]')!;
      row.focus();
      row.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-key'))).toBe('DEMO-2');
  });

  it('shows a ticket created over REST without a reload, in its sorted place', async () => {
    await page.evaluate(() => {
      (window as unknown as { notReloaded?: boolean }).notReloaded = true;
    });
    const created = await boardCaller(h.board)('create_ticket', { title: 'Made by a script', priority: 'lowest', column_name: 'Done' });
    expect(created.key).toBe('DEMO-5');
    await list.row('DEMO-5').waitFor();
    expect(await list.keys()).toEqual(['DEMO-5', 'DEMO-1', 'DEMO-4', 'DEMO-3', 'DEMO-2']);
    await h.call('update_ticket', { ticket_id: 'DEMO-5', priority: 'highest' });
    await expect.poll(() => list.keys()).toEqual(['DEMO-1', 'DEMO-4', 'DEMO-3', 'DEMO-2', 'DEMO-5']);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  it('says so when the board cannot be read', async () => {
    const boardRead = (url: URL) => url.pathname === '/api/projects/DEMO/board';
    await page.route(boardRead, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'service_unavailable', message: 'The database is not answering.' } }),
      }),
    );
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'The board could not be loaded' });
    await alert.waitFor();
    await screenshot(page, `list-error-${dialect}`);
    await page.unroute(boardRead);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await list.row('DEMO-5').waitFor();
  });
}

describeInBrowser('List view (SQLite)', () => {
  listScenario('sqlite');
});

describeInBrowser('List view (PostgreSQL)', () => {
  if (!process.env.TEST_DATABASE_URL) {
    it.skip('needs TEST_DATABASE_URL (PostgreSQL)', () => {});
    return;
  }
  describe('postgres', () => listScenario('postgres'));
});
