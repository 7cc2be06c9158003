import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { BoardScreen } from './board-page.ts';

describeInBrowser('A board of 10,000 tickets', () => {
  let h: UiHarness;
  let page: Page;
  let board: BoardScreen;

  beforeAll(async () => {
    h = await startUiHarness();
    await h.seed({ Backlog: 4000, 'To Do': 2000, 'In Progress': 1000, Review: 1000, Done: 2000 });
    page = await h.signedInPage('/');
    board = new BoardScreen(page);
    // The first visit shows the board and remembers it (its cookie) before the test reloads: remembered during the
    // reload, the page's preload (no board) and its own read (the board) would be two reads.
    await board.lane('Backlog').getByRole('button').first().waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => document.cookie.split('; ').some((entry) => entry.startsWith('sb_board_DEMO=')));
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('opens with every lane counted and far fewer cards in the page than tickets (lanes virtualized)', async () => {
    // Each lane's first cards are read first, then the whole board.
    const reads: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      // The board's name is in the query once the page remembered it (its cookie), whichever visit set it first.
      url.searchParams.delete('board');
      if (url.pathname === '/api/projects/DEMO/board') reads.push(url.search);
    });
    await page.reload();
    await board.lane('Backlog').getByRole('button').first().waitFor({ timeout: 20_000 });
    await expect.poll(() => reads).toEqual(['?cards=50', '']);
    // Remembering the board shown (a first visit shows the first board) does not read it again.
    await page.waitForTimeout(500);
    expect(reads).toEqual(['?cards=50', '']);
    expect(await board.count('Backlog')).toBe('4,000');
    expect(await board.count('Done')).toBe('2,000');
    const cards = await page.locator('.ticket-card').count();
    expect(cards).toBeGreaterThan(20);
    expect(cards).toBeLessThan(300);
    await screenshot(page, 'board-10k');
  });

  it('scrolls a lane to its end and shows the last cards', async () => {
    const scroller = board.lane('Backlog').getByRole('list');
    const frames = await scroller.evaluate(async (element) => {
      const gaps: number[] = [];
      let last = performance.now();
      for (let i = 0; i < 120; i++) {
        element.scrollTop += 300;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const now = performance.now();
        gaps.push(now - last);
        last = now;
      }
      element.scrollTop = element.scrollHeight;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      gaps.sort((a, b) => a - b);
      return { p95: gaps[Math.floor(gaps.length * 0.95)]! };
    });
    // The lane's last card is its least recently updated ticket: the whole board is there.
    const whole = (await page.evaluate(async () => (await fetch('/api/projects/DEMO/board')).json())) as {
      columns: Array<{ name: string; cards: Array<{ key: string }> }>;
    };
    const last = whole.columns.find((lane) => lane.name === 'Backlog')!.cards.at(-1)!.key;
    await board.card(last, 'Backlog').waitFor();
    const rendered = await board.lane('Backlog').getByRole('button').count();
    expect(rendered).toBeLessThan(100);
    const keys = await board.lane('Backlog').getByRole('button').allInnerTexts();
    expect(keys.length).toBeGreaterThan(0);
    process.stdout.write(`10k board: p95 frame interval while scrolling ${frames.p95.toFixed(1)} ms\n`);
    expect(frames.p95).toBeLessThan(200);
  });

  it('filters ten thousand cards by text', async () => {
    await page.getByRole('searchbox', { name: 'Filter' }).fill('Ticket 00042');
    await expect
      .poll(() =>
        page
          .getByRole('main')
          .getByRole('button', { name: /^DEMO-\d+ / })
          .count(),
      )
      .toBe(1);
  });

  it('keeps a change that arrives while the whole board is on its way (the older whole board does not undo it)', async () => {
    // The whole board is read now, but reaches the page only after an agent moved a ticket.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let answered!: () => void;
    const read = new Promise<void>((resolve) => (answered = resolve));
    const wholeBoard = (url: URL) => url.pathname === '/api/projects/DEMO/board' && !url.searchParams.has('cards') && !url.searchParams.has('keys');
    await page.route(wholeBoard, async (route) => {
      const response = await route.fetch();
      answered();
      await held;
      await route.fulfill({ response });
    });
    await page.goto('/projects/DEMO/board');
    const moved = (await board.lane('Backlog').getByRole('button').first().innerText()).split(/\s/)[0]!;
    await read;
    await h.call('move_ticket', { ticket_id: moved, column_name: 'Review' });
    await board.card(moved, 'Review').waitFor();
    release();
    // The whole board (read before the move) lands, and the moved ticket is read again.
    await expect.poll(() => board.lane('Backlog').locator('.lane-more').count()).toBe(0);
    await page.waitForTimeout(300);
    await board.card(moved, 'Review').waitFor();
    expect(await board.card(moved, 'Backlog').count()).toBe(0);
    expect(await board.count('Review')).toBe('1,001');
    await page.unroute(wholeBoard);
  });

  it('says so when the rest of the board cannot be read after its first cards, and Retry reads it', async () => {
    const wholeBoard = (url: URL) => url.pathname === '/api/projects/DEMO/board' && !url.searchParams.has('cards') && !url.searchParams.has('keys');
    await page.route(wholeBoard, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'service_unavailable', message: 'The database is not answering.' } }),
      }),
    );
    await page.goto('/projects/DEMO/board');
    const alert = page.getByRole('alert').filter({ hasText: 'Not every card could be loaded' });
    await alert.waitFor();
    expect((await alert.innerText()).replace(/\s+/g, ' ').trim()).toBe('Not every card could be loaded: The database is not answering. Retry');
    await board
      .lane('Backlog')
      .getByText(/^3,9\d\d more not shown$/)
      .waitFor();
    await screenshot(page, 'board-10k-partial-error');
    await page.unroute(wholeBoard);
    await alert.getByRole('button', { name: 'Retry' }).click();
    await alert.waitFor({ state: 'detached' });
    await expect.poll(() => board.lane('Backlog').locator('.lane-more').count()).toBe(0);
  });
});
