import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { describeInBrowser, screenshot, signIn } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness, type UiHarnessOptions } from '../helpers/ui-harness.ts';
import { BoardScreen } from './board-page.ts';

const DESCRIPTION = [
  '## Release plan',
  '',
  'Ship the **checkout** to everyone; see the [runbook](https://example.com/runbook).',
  '',
  '- [ ] Write docs',
  '- [x] Ship',
  '  - [ ] Tell the team',
  '1. [ ] Numbered step',
  '',
  '| Step | Owner |',
  '|---|---|',
  '| Deploy | Ada |',
  '',
  '```',
  '- [ ] not a task (code)',
  '```',
].join('\n');

/** The same screen at 390×844 (a phone), `show` scrolled into view first. */
async function phone(page: Page, name: string, show?: Locator): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await show?.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await screenshot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

function taskListScenario(label: string, options: UiHarnessOptions) {
  let h: UiHarness;
  let page: Page;
  let board: BoardScreen;

  beforeAll(async () => {
    h = await startUiHarness(options);
    await h.call('create_ticket', { title: 'Release checkout', description: DESCRIPTION, column_name: 'To Do' });
    await h.call('add_comment', { ticket_id: 'DEMO-1', content: 'Done so far:\n\n- [x] Staging deploy\n- [ ] Load test' });
    await h.call('create_document', { title: 'Launch checklist', content: '# Launch\n\n- [ ] Announce\n- [ ] Monitor **errors**' });
    await h.board.app.summaryWorker.drain();
    page = await h.signedInPage('/tickets/DEMO-1');
    board = new BoardScreen(page);
  });
  afterAll(async () => {
    await h?.close();
  });

  const description = () => board.panel('DEMO-1').getByRole('region', { name: 'Description' });

  it(`${label}: a click saves that line; after a reload the box is checked; comments' boxes are read-only`, async () => {
    const box = description().getByRole('checkbox', { name: 'Write docs' });
    expect(await box.isChecked()).toBe(false);
    expect(await description().getByRole('checkbox').count()).toBe(4);
    await box.click();
    await expect
      .poll(async () => (await h.call('get_ticket', { ticket_id: 'DEMO-1' })).description)
      .toBe(DESCRIPTION.replace('- [ ] Write docs', '- [x] Write docs'));
    const comments = board.panel('DEMO-1').getByRole('region', { name: 'Comments' });
    expect(await comments.getByRole('checkbox', { name: 'Staging deploy' }).isDisabled()).toBe(true);
    expect(await comments.getByRole('checkbox', { name: 'Load test' }).isChecked()).toBe(false);
    await screenshot(page, `task-list-description-${label}`);
    await phone(page, `task-list-description-${label}`, description());
    await comments.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(page, `task-list-comment-${label}`);
    await phone(page, `task-list-comment-${label}`, comments);
    await phone(page, `task-list-summary-${label}`, board.panel('DEMO-1').getByRole('region', { name: 'AI summary' }));

    await page.reload();
    await description().getByRole('checkbox', { name: 'Write docs' }).waitFor();
    expect(await description().getByRole('checkbox', { name: 'Write docs' }).isChecked()).toBe(true);
    expect(await description().getByRole('checkbox', { name: 'Ship' }).isChecked()).toBe(true);
  });

  it(`${label}: Space on a focused box saves it and the focus stays on it`, async () => {
    const box = description().getByRole('checkbox', { name: 'Tell the team' });
    await box.focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await h.call('get_ticket', { ticket_id: 'DEMO-1' })).description).toContain('  - [x] Tell the team');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Tell the team');
    expect(await description().getByRole('checkbox', { name: 'Tell the team' }).isChecked()).toBe(true);
  });

  it(`${label}: the AI summary reads as plain text`, async () => {
    const summary = (await h.call('get_ticket', { ticket_id: 'DEMO-1' })).ai_summary;
    expect(summary).toBe(
      'Release checkout. Ship the checkout to everyone; see the runbook. Write docs. Ship. Tell the team. Numbered step. Latest: Done so far: Staging deploy. Load test.',
    );
    await board.panel('DEMO-1').getByRole('region', { name: 'AI summary' }).getByText(summary).waitFor();
  });

  it(`${label}: a box whose line was changed over REST meanwhile shows the refusal and the fresh text`, async () => {
    // This page hears no live changes, so it still shows the old text when the box is clicked.
    const stale = await (await h.context()).newPage();
    await stale.route('**/api/projects/*/events**', (route) => route.abort());
    await stale.goto('/tickets/DEMO-1');
    await signIn(stale, h.email, h.password);
    const panel = new BoardScreen(stale).panel('DEMO-1').getByRole('region', { name: 'Description' });
    await panel.getByRole('checkbox', { name: 'Numbered step' }).waitFor();
    const current = (await h.call('get_ticket', { ticket_id: 'DEMO-1' })).description as string;
    const edited = current.replace('1. [ ] Numbered step', '1. [ ] Numbered step, reworded');
    await h.call('update_ticket', { ticket_id: 'DEMO-1', description: edited });
    await panel.getByRole('checkbox', { name: 'Numbered step' }).click();
    await panel
      .getByRole('alert')
      .filter({
        hasText:
          'This item changed since you opened it: "1. [ ] Numbered step" is no longer in the description (line 8 now reads "1. [ ] Numbered step, reworded").',
      })
      .waitFor();
    await panel.getByRole('checkbox', { name: 'Numbered step, reworded' }).waitFor();
    expect(await panel.getByRole('checkbox', { name: 'Numbered step, reworded' }).isChecked()).toBe(false);
    expect((await h.call('get_ticket', { ticket_id: 'DEMO-1' })).description).toBe(edited);
    await screenshot(stale, `task-list-refused-${label}`);
    await phone(stale, `task-list-refused-${label}`);
    await stale.close();
  });

  it(`${label}: a document's box saves its line; search shows plain-text snippets`, async () => {
    await page.goto('/projects/DEMO/documents/launch-checklist');
    const article = page.getByRole('article', { name: 'Launch checklist' });
    await article.getByRole('checkbox', { name: 'Monitor errors' }).click();
    await expect
      .poll(async () => (await h.call('get_document', { doc_id: 'launch-checklist' })).content)
      .toBe('# Launch\n\n- [ ] Announce\n- [x] Monitor **errors**');
    await screenshot(page, `task-list-document-${label}`);

    await page.goto('/projects/DEMO/search?q=ship');
    const results = page.getByRole('list', { name: 'Results' });
    await results.getByRole('listitem').first().waitFor();
    const snippet = await results.locator('.snippet').first().innerText();
    expect(snippet).toBe(
      'Release plan. Ship the checkout to everyone; see the runbook. Write docs. Ship. Tell the team. Numbered step, reworded. Step · Owner. Deploy · Ada.',
    );
    await screenshot(page, `task-list-search-${label}`);
    await phone(page, `task-list-search-${label}`);
  });
}

describeInBrowser('Task lists and plain text (SQLite)', () => {
  taskListScenario('sqlite', { dialect: 'sqlite' });
});

describeInBrowser('Task lists and plain text (PostgreSQL)', () => {
  if (!process.env.TEST_DATABASE_URL) {
    it.skip('needs TEST_DATABASE_URL (PostgreSQL)', () => {});
    return;
  }
  describe('postgres', () => taskListScenario('postgres', { dialect: 'postgres' }));
});
