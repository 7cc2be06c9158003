import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { boardCaller } from '../helpers.ts';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { BoardScreen, latencyAfter, whenVisible } from './board-page.ts';

/** Latencies measured in this file, printed at the end (README and the closing note quote them). */
const measured: Record<string, number[]> = {};
const record = (label: string, ms: number) => {
  measured[label] ??= [];
  measured[label].push(Math.round(ms));
};

/**
 * An MCP agent creates, moves and comments; each change is on the open page within a second of the MCP answer,
 * without a reload (the page's own navigation entry and a marker in window stay).
 */
function liveScenario(label: string, options: Parameters<typeof startUiHarness>[0]) {
  let h: UiHarness;
  let page: Page;
  let board: BoardScreen;

  beforeAll(async () => {
    h = await startUiHarness(options);
    page = await h.signedInPage('/');
    board = new BoardScreen(page);
    await board.lane('Backlog').waitFor();
    await board.waitLive();
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  });
  afterAll(async () => {
    await h?.close();
    if (Object.keys(measured).length) process.stdout.write(`live-update latencies (ms) ${JSON.stringify(measured)}\n`);
  });

  it('opens the board of the project after sign-in: its lanes, counts and title', async () => {
    expect(new URL(page.url()).pathname).toBe('/projects/DEMO/board');
    const headings = await page.getByRole('region').getByRole('heading', { level: 2 }).allInnerTexts();
    expect(headings.map((text) => text.replace(/\s+/g, ' '))).toEqual(['Backlog 0', 'To Do 0', 'In Progress 0', 'Review 0', 'Done 0']);
    expect(await page.title()).toBe('Main board · DEMO · Switchboard Tickets');
  });

  it('shows a ticket the agent creates, moves and comments on within one second of each MCP answer', async () => {
    // Created.
    let visible = whenVisible(board.card('DEMO-1', 'To Do'));
    const created = await h.call('create_ticket', { title: 'Ticket from the agent', column_name: 'To Do', priority: 'high', ticket_type: 'bug' });
    const createdMs = await latencyAfter(visible, performance.now());
    expect(created.key).toBe('DEMO-1');
    record(`${label}: create`, createdMs);
    expect(createdMs).toBeLessThan(1000);
    expect(await board.card('DEMO-1').innerText()).toMatch(/DEMO-1[\s\S]*bug[\s\S]*high[\s\S]*Ticket from the agent/);

    // Moved.
    visible = whenVisible(board.card('DEMO-1', 'In Progress'));
    await h.call('move_ticket', { ticket_id: 'DEMO-1', column_name: 'In Progress' });
    const movedMs = await latencyAfter(visible, performance.now());
    record(`${label}: move`, movedMs);
    expect(movedMs).toBeLessThan(1000);
    expect(await board.count('To Do')).toBe('0');
    expect(await board.count('In Progress')).toBe('1');

    // Commented, while the ticket is open in the panel beside the board (the comment itself, not its activity line,
    // which quotes it as plain text).
    await board.card('DEMO-1').click();
    await board
      .panel('DEMO-1')
      .getByRole('heading', { name: /Comments/ })
      .waitFor();
    visible = whenVisible(board.panel('DEMO-1').getByText('Fixed the login redirect', { exact: true }));
    await h.call('add_comment', { ticket_id: 'DEMO-1', content: 'Fixed the **login** redirect' });
    const commentMs = await latencyAfter(visible, performance.now());
    record(`${label}: comment`, commentMs);
    expect(commentMs).toBeLessThan(1000);
    expect(await board.panel('DEMO-1').getByRole('strong').filter({ hasText: 'login' }).count()).toBe(1);
    // The activity names the agent's token.
    await board.panel('DEMO-1').getByText('token:agent').first().waitFor();

    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  it('keeps what the user is typing when the agent changes the open ticket', async () => {
    const panel = board.panel('DEMO-1');
    const comment = panel.getByRole('textbox', { name: 'Comment' });
    await comment.fill('Half-written thought');
    const title = panel.getByRole('textbox', { name: 'Title' });
    const visible = whenVisible(panel.getByText('The agent was here'));
    await h.call('update_ticket', { ticket_id: 'DEMO-1', description: 'The agent was here' });
    await latencyAfter(visible, performance.now());
    expect(await comment.inputValue()).toBe('Half-written thought');
    expect(await comment.evaluate((element) => element === document.activeElement)).toBe(true);
    await title.fill('Typed title');
    await h.call('update_ticket', { ticket_id: 'DEMO-1', priority: 'lowest' });
    await expectValue(() => panel.getByRole('combobox', { name: 'Priority' }).inputValue(), 'lowest');
    expect(await title.inputValue()).toBe('Typed title');
    await title.press('Escape');
    await comment.fill('');
  });

  it('catches up after the stream was cut: changes made while offline appear once the network is back', async () => {
    await page.getByRole('button', { name: 'Close' }).click();
    // The network goes away in the page, and the open stream with it (the service drops the connection;
    // Chromium's offline mode alone keeps a stream that is already open).
    await page.context().setOffline(true);
    h.board.app.server.closeAllConnections();
    await page.getByRole('status').filter({ hasText: 'Reconnecting…' }).waitFor({ timeout: 10_000 });
    await h.call('create_ticket', { title: 'Made while the page was offline', column_name: 'Review' });
    await h.call('move_ticket', { ticket_id: 'DEMO-1', column_name: 'Done' });
    await page.context().setOffline(false);
    await board.card('DEMO-2', 'Review').waitFor({ timeout: 15_000 });
    await board.card('DEMO-1', 'Done').waitFor();
    await board.waitLive();
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  it('shows on an open epic panel every sub-ticket created over REST in quick succession, as its card does', async () => {
    // Sub-tickets created in the epic's own column do not move it: no event names the epic, only each new sub-ticket.
    const epic = await h.call('create_ticket', { title: 'Checkout', ticket_type: 'epic', column_name: 'Backlog' });
    await board.card(epic.key, 'Backlog').click();
    const panel = board.panel(epic.key);
    const subTickets = panel.getByRole('region', { name: 'Sub-tickets' });
    await subTickets.getByText('No sub-tickets.', { exact: false }).waitFor();
    const rest = boardCaller(h.board);
    const created: Array<{ key: string; title: string }> = [];
    for (const title of ['Cart', 'Payment', 'Receipt'])
      created.push(await rest('create_sub_ticket', { parent_ticket_id: epic.key, title, column_name: 'Backlog' }));
    await board.card(epic.key).getByText('0/3').waitFor();
    await subTickets.getByRole('heading', { name: 'Sub-tickets 0/3 done' }).waitFor({ timeout: 2000 });
    const links = await subTickets.getByRole('link').allInnerTexts();
    expect(links.map((text) => text.replace(/\s+/g, ' ')).sort()).toEqual(created.map((sub) => `${sub.key} ${sub.title}`).sort());
    await screenshot(page, `board-live-epic-panel-${label.replace(/\W+/g, '-')}`);
  });
}

async function expectValue(read: () => Promise<string>, expected: string): Promise<void> {
  for (let i = 0; i < 50 && (await read()) !== expected; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await read()).toBe(expected);
}

describeInBrowser('Live board (SQLite, one instance)', () => {
  liveScenario('sqlite', { dialect: 'sqlite' });
});

describeInBrowser('Live board (PostgreSQL, two instances: the page on one, the MCP calls on the other)', () => {
  if (!process.env.TEST_DATABASE_URL) {
    it.skip('needs TEST_DATABASE_URL (PostgreSQL)', () => {});
    return;
  }
  describe('two instances', () => liveScenario('postgres, two instances', { dialect: 'postgres', secondInstance: true }));
});
