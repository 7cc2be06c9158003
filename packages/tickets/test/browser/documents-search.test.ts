import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';

describeInBrowser('Documents and Search', () => {
  let h: UiHarness;
  let page: Page;
  const dialogs: string[] = [];

  beforeAll(async () => {
    h = await startUiHarness();
    await h.call('create_document', { title: 'README', doc_type: 'readme', content: '# Shop\n\nThe **checkout** service.' });
    await h.call('create_ticket', { title: 'Checkout button does nothing', ticket_type: 'bug', description: 'Clicking checkout on mobile does nothing.' });
    await h.call('create_ticket', { title: 'Speed up search', description: 'Unrelated.' });
    page = await h.signedInPage('/projects/DEMO/documents');
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lists the pages by type and renders the open one', async () => {
    const nav = page.getByRole('navigation', { name: 'Pages' });
    await nav.getByRole('heading', { name: 'README' }).waitFor();
    await nav.getByRole('link', { name: 'README' }).click();
    await page.waitForURL(/\/projects\/DEMO\/documents\/readme$/);
    await page.getByRole('article', { name: 'README' }).getByRole('heading', { name: 'Shop' }).waitFor();
    expect(await page.title()).toBe('README · DEMO · Switchboard Tickets');
  });

  it('creates, edits and deletes (confirmed) a page; hostile Markdown renders inert', async () => {
    await page.getByRole('button', { name: 'New document' }).click();
    const dialog = page.getByRole('dialog', { name: 'New document' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Deploying');
    await dialog.getByRole('textbox', { name: 'Content' }).fill('Run `npm start`.\n\n<img src=x onerror=alert(1)> [x](javascript:alert(1))');
    await dialog.getByRole('button', { name: 'Create document' }).click();
    await page.waitForURL(/\/documents\/deploying$/);
    const article = page.getByRole('article', { name: 'Deploying' });
    await article.getByRole('code').filter({ hasText: 'npm start' }).waitFor();
    const html = await article.locator('.markdown').innerHTML();
    expect(html).not.toMatch(/onerror|javascript:/i);
    expect(await article.getByRole('link', { name: 'x', exact: true }).count()).toBe(0);
    expect((await h.call('get_document', { doc_id: 'deploying' })).doc_type).toBe('wiki');
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('heading', { name: 'Wiki' }).waitFor();
    await screenshot(page, 'documents');

    await article.getByRole('button', { name: 'Edit' }).click();
    await article.getByRole('textbox', { name: 'Content' }).fill('Run `npm run deploy`.');
    await article.getByRole('combobox', { name: 'Type' }).selectOption('changelog');
    await article.getByRole('button', { name: 'Save' }).click();
    await article.getByRole('code').filter({ hasText: 'npm run deploy' }).waitFor();
    expect((await h.call('get_document', { doc_id: 'deploying' })).doc_type).toBe('changelog');

    await article.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete "Deploying"?' }).getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/projects\/DEMO\/documents$/);
    await expect.poll(async () => (await h.call('list_documents')).documents.length).toBe(1);
    expect(dialogs).toEqual([]);
  });

  it('shows a page an agent writes without a reload', async () => {
    await h.call('create_document', { title: 'Agent notes', content: 'From the agent' });
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Agent notes' }).waitFor({ timeout: 3000 });
  });

  it('searches tickets and documents, ranked, with the matches highlighted as text', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill('checkout');
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await page.waitForURL(/q=checkout/);
    const results = page.getByRole('list', { name: 'Results' }).getByRole('listitem');
    await results.first().waitFor();
    // In the service's order (best first), each with its snippet's matches marked.
    const ranked = (await h.call('search', { query: 'checkout' })).results.map((r: { key?: string; title: string }) =>
      r.key ? `${r.key} ${r.title}` : r.title,
    );
    expect(ranked).toHaveLength(2);
    const links = await page.getByRole('list', { name: 'Results' }).getByRole('link').allInnerTexts();
    expect(links.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual(ranked);
    const marks = await page.getByRole('list', { name: 'Results' }).locator('mark').allInnerTexts();
    expect(marks.length).toBeGreaterThan(0);
    for (const mark of marks) expect(mark).toMatch(/^checkout$/i);
    expect(await page.locator('.snippet').evaluateAll((nodes) => nodes.map((n) => n.innerHTML).join(''))).not.toContain('**');
    await screenshot(page, 'search');
    await page.getByRole('combobox', { name: 'Scope' }).selectOption('documents');
    await expect.poll(() => results.count()).toBe(1);
    await results.first().getByRole('link', { name: 'README' }).click();
    await page.waitForURL(/\/documents\/readme$/);
    await page.goBack();
    await page.waitForURL(/scope=documents/);
    await page.getByRole('searchbox', { name: 'Search' }).fill('zzzz');
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await page.getByRole('heading', { name: 'Nothing found' }).waitFor();
  });
});
