import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { BoardScreen, holdOver, laneKeys } from './board-page.ts';

/** The order of the Backlog as list_tickets answers it in board order. */
async function servedOrder(h: UiHarness): Promise<string[]> {
  return (await h.call('list_tickets', { column_name: 'Backlog', order: 'board' })).tickets.map((ticket: { key: string }) => ticket.key);
}

/**
 * Order within a lane: a card dragged to a place between two cards of its lane stays there after a reload, and a
 * second open board shows the new order live; Alt+ArrowUp/Down moves a card one place, announced.
 */
function laneOrderScenario(dialect: 'sqlite' | 'postgres') {
  let h: UiHarness;
  let page: Page;
  let other: Page;
  let board: BoardScreen;
  let otherBoard: BoardScreen;

  beforeAll(async () => {
    h = await startUiHarness({ dialect });
    // Each new ticket goes to the top of its lane: the Backlog reads DEMO-4, DEMO-3, DEMO-2, DEMO-1.
    for (const title of ['Write the changelog', 'Fix the login redirect', 'Plan the release', 'Triage the new bugs']) {
      await h.call('create_ticket', { title });
    }
    page = await h.signedInPage('/');
    other = await h.signedInPage('/');
    board = new BoardScreen(page);
    otherBoard = new BoardScreen(other);
    await board.waitLive();
    await otherBoard.waitLive();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('shows new tickets at the top of their lane', async () => {
    expect(await laneKeys(board, 'Backlog')).toEqual(['DEMO-4', 'DEMO-3', 'DEMO-2', 'DEMO-1']);
  });

  it('drags a card between two cards of its lane, keeps the order after a reload, and another board shows it live', async () => {
    const drop = await holdOver(board, 'DEMO-4', 'DEMO-1', 'above');
    await screenshot(page, `lane-order-mid-drag-${dialect}`);
    await drop();
    await expect.poll(() => laneKeys(board, 'Backlog')).toEqual(['DEMO-3', 'DEMO-2', 'DEMO-4', 'DEMO-1']);
    await expect.poll(() => servedOrder(h)).toEqual(['DEMO-3', 'DEMO-2', 'DEMO-4', 'DEMO-1']);
    // The other page did nothing: the order arrives as a live change.
    await expect.poll(() => laneKeys(otherBoard, 'Backlog')).toEqual(['DEMO-3', 'DEMO-2', 'DEMO-4', 'DEMO-1']);
    await screenshot(page, `lane-order-after-drop-${dialect}`);
    await page.reload();
    await board.card('DEMO-4', 'Backlog').waitFor();
    expect(await laneKeys(board, 'Backlog')).toEqual(['DEMO-3', 'DEMO-2', 'DEMO-4', 'DEMO-1']);
    const activity = (await h.call('get_ticket', { ticket_id: 'DEMO-4' })).activity.at(-1);
    expect([activity.action, activity.detail, activity.actor]).toEqual(['moved', 'moved above DEMO-1 in Backlog', 'user:admin@example.com']);
  });

  it('drags a card from another lane to a precise place', async () => {
    await h.call('create_ticket', { title: 'Review the docs', column_name: 'To Do' });
    await board.card('DEMO-5', 'To Do').waitFor();
    const drop = await holdOver(board, 'DEMO-5', 'DEMO-2', 'below');
    await drop();
    await expect.poll(() => laneKeys(board, 'Backlog')).toEqual(['DEMO-3', 'DEMO-2', 'DEMO-5', 'DEMO-4', 'DEMO-1']);
    await expect.poll(() => servedOrder(h)).toEqual(['DEMO-3', 'DEMO-2', 'DEMO-5', 'DEMO-4', 'DEMO-1']);
    await expect.poll(() => laneKeys(otherBoard, 'Backlog')).toEqual(['DEMO-3', 'DEMO-2', 'DEMO-5', 'DEMO-4', 'DEMO-1']);
    expect(await board.count('To Do')).toBe('0');
  });

  it('moves a focused card one place up or down with Alt+ArrowUp/Down, announced for screen readers', async () => {
    await board.card('DEMO-1', 'Backlog').focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => servedOrder(h)).toEqual(['DEMO-3', 'DEMO-2', 'DEMO-5', 'DEMO-1', 'DEMO-4']);
    await page.getByRole('status').filter({ hasText: 'Moved DEMO-1 above DEMO-4 in Backlog.' }).waitFor({ state: 'attached' });
    expect(await laneKeys(board, 'Backlog')).toEqual(['DEMO-3', 'DEMO-2', 'DEMO-5', 'DEMO-1', 'DEMO-4']);
    // The card keeps the focus, so the next press moves it on.
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => servedOrder(h)).toEqual(['DEMO-3', 'DEMO-2', 'DEMO-5', 'DEMO-4', 'DEMO-1']);
    await page.getByRole('status').filter({ hasText: 'Moved DEMO-1 below DEMO-4 in Backlog.' }).waitFor({ state: 'attached' });
    await expect.poll(() => laneKeys(otherBoard, 'Backlog')).toEqual(['DEMO-3', 'DEMO-2', 'DEMO-5', 'DEMO-4', 'DEMO-1']);
  });

  it('shows the drop line on a phone-sized screen too', async () => {
    const phone = await h.signedInPage('/');
    await phone.setViewportSize({ width: 390, height: 844 });
    const small = new BoardScreen(phone);
    await small.card('DEMO-3', 'Backlog').waitFor();
    const drop = await holdOver(small, 'DEMO-3', 'DEMO-4', 'below');
    await screenshot(phone, `lane-order-mid-drag-390-${dialect}`);
    await drop();
    await expect.poll(() => servedOrder(h)).toEqual(['DEMO-2', 'DEMO-5', 'DEMO-4', 'DEMO-3', 'DEMO-1']);
    await expect.poll(() => laneKeys(small, 'Backlog')).toEqual(['DEMO-2', 'DEMO-5', 'DEMO-4', 'DEMO-3', 'DEMO-1']);
    await screenshot(phone, `lane-order-after-drop-390-${dialect}`);
  });
}

describeInBrowser('Board: order within a lane (SQLite)', () => laneOrderScenario('sqlite'));
describeInBrowser('Board: order within a lane (PostgreSQL)', () => {
  if (!process.env.TEST_DATABASE_URL) {
    it.skip('needs TEST_DATABASE_URL (PostgreSQL)', () => {});
    return;
  }
  describe('postgres', () => laneOrderScenario('postgres'));
});
