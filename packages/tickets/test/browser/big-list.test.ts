import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { ListScreen } from './list-page.ts';

function bigListScenario(dialect: 'sqlite' | 'postgres') {
  let h: UiHarness;
  let page: Page;
  let list: ListScreen;

  beforeAll(async () => {
    h = await startUiHarness({ dialect });
    await h.seed({ Backlog: 800, 'To Do': 400, 'In Progress': 200, Review: 100, Done: 500 });
    page = await h.signedInPage('/projects/DEMO/board?view=list&sort=key');
    list = new ListScreen(page);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('holds far fewer rows in the page than its 2,000 tickets, and scrolling reaches the last one', async () => {
    await page
      .getByRole('status')
      .filter({ hasText: /^2,000 tickets$/ })
      .waitFor({ timeout: 20_000 });
    expect(await list.table().getAttribute('aria-rowcount')).toBe('2001');
    const first = await list.keys();
    expect(first[0]).toBe('DEMO-1');
    expect(first.length).toBeGreaterThan(5);
    expect(first.length).toBeLessThan(80);
    const scroller = page.locator('.ticket-list-scroll');
    const frames = await scroller.evaluate(async (element) => {
      const gaps: number[] = [];
      let most = 0;
      let last = performance.now();
      for (let i = 0; i < 50; i++) {
        element.scrollTop += 1500;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        most = Math.max(most, element.querySelectorAll('tbody tr[data-key]').length);
        const now = performance.now();
        gaps.push(now - last);
        last = now;
      }
      element.scrollTop = element.scrollHeight;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      gaps.sort((a, b) => a - b);
      return { p95: gaps[Math.floor(gaps.length * 0.95)]!, most };
    });
    await list.row('DEMO-2000').waitFor();
    const last = await list.keys();
    expect(last.at(-1)).toBe('DEMO-2000');
    expect(last.length).toBeLessThan(80);
    expect(frames.most).toBeLessThan(80);
    expect(await list.row('DEMO-2000').getAttribute('aria-rowindex')).toBe('2001');
    process.stdout.write(
      `2,000-ticket list (${dialect}): p95 frame interval while scrolling ${frames.p95.toFixed(1)} ms, at most ${frames.most} rows in the page\n`,
    );
    await screenshot(page, `list-2000-end-${dialect}`);
  }, 60_000);

  it('opens a link to a ticket far down the list with its row in view', async () => {
    await page.goto('/tickets/DEMO-1500?view=list&sort=key');
    await page.getByRole('complementary', { name: 'Ticket DEMO-1500' }).getByRole('textbox', { name: 'Title' }).waitFor({ timeout: 20_000 });
    await list.row('DEMO-1500').waitFor();
    expect(await list.row('DEMO-1500').getAttribute('aria-current')).toBe('true');
    // Inside the table's scrolled box, not only in the page.
    const inView = await list.row('DEMO-1500').evaluate((row) => {
      const box = row.getBoundingClientRect();
      const scroller = row.closest('.ticket-list-scroll')!.getBoundingClientRect();
      return box.top >= scroller.top && box.bottom <= scroller.bottom;
    });
    expect(inView).toBe(true);
    await page.goto('/projects/DEMO/board?view=list&sort=key');
    await list.row('DEMO-1').waitFor({ timeout: 20_000 });
  }, 60_000);

  it('sorts two thousand rows from a header and moves through them with the keyboard', async () => {
    await list.header('Key').getByRole('button').click();
    await expect.poll(() => list.header('Key').getAttribute('aria-sort')).toBe('descending');
    await expect.poll(async () => (await list.keys())[0]).toBe('DEMO-2000');
    await list.row('DEMO-2000').focus();
    await page.keyboard.press('End');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-key'))).toBe('DEMO-1');
    await page.keyboard.press('Home');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-key'))).toBe('DEMO-2000');
  });
}

describeInBrowser('A List view of 2,000 tickets (SQLite)', () => {
  bigListScenario('sqlite');
});

describeInBrowser('A List view of 2,000 tickets (PostgreSQL)', () => {
  if (!process.env.TEST_DATABASE_URL) {
    it.skip('needs TEST_DATABASE_URL (PostgreSQL)', () => {});
    return;
  }
  describe('postgres', () => bigListScenario('postgres'));
});
