import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';
import { buildPdf } from '../helpers/pdf-fixture.ts';

const XSS = '<img src=x onerror=alert(1)>';

interface ApiDocument {
  source: string;
  content_type: string;
  chunks: number;
}

const RETURNS = [
  '# Returns',
  '',
  'You can return any item within 30 days of delivery for a full refund. Refunds go back to the original payment method within five working days.',
  '',
  '## Exchanges',
  '',
  'Exchanges for another size or colour are free of charge: start one from your order page.',
].join('\n');
const SHIPPING = 'We ship to every country in the European Union. Standard shipping takes 5 to 7 days and express shipping takes 2 days.';

describeInBrowser('Knowledge in the browser', () => {
  let h: UiHarness;
  let page: Page;
  const dialogs: string[] = [];

  const documents = async (kb: string) =>
    ((await (await h.get(`/api/llm/acme/knowledge-bases/${kb}`)).json()) as { document_list: ApiDocument[] }).document_list;

  beforeAll(async () => {
    h = await startUiHarness('sqlite');
    page = await h.signedInPage('/orgs/acme/knowledge');
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('starts empty, then creates a knowledge base from the dialog and opens it', async () => {
    await page.getByRole('heading', { name: 'No knowledge bases yet' }).waitFor();
    await screenshot(page, 'knowledge-empty');
    await page.getByRole('button', { name: 'New knowledge base' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New knowledge base' });
    await dialog.getByLabel('Name').fill('handbook');
    await dialog.getByLabel('Description').fill('Returns and shipping');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(`${h.base}/orgs/acme/knowledge?kb=handbook`);
    await page.getByRole('heading', { name: 'handbook', level: 2 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Knowledge bases' }).getByRole('link').allInnerTexts()).toEqual(['handbook\n0 documents · 0 chunks']);
    await page.getByRole('heading', { name: 'No documents yet' }).waitFor();
  });

  it('uploads two files chosen at once, each with its own progress bar, and lists them with their chunk counts', async () => {
    await page.getByLabel('Choose files').setInputFiles([
      { name: 'returns.md', mimeType: 'text/markdown', buffer: Buffer.from(RETURNS) },
      { name: 'shipping.txt', mimeType: 'text/plain', buffer: Buffer.from(SHIPPING) },
    ]);
    const uploads = page.getByRole('list', { name: 'Uploads' });
    for (const name of ['returns.md', 'shipping.txt']) {
      const item = uploads.getByRole('listitem').filter({ hasText: name });
      await item.getByText(/^Added: \d+ chunks?$/).waitFor();
      expect(await item.getByRole('progressbar', { name: `Upload of ${name}` }).getAttribute('aria-valuenow')).toBe('100');
    }
    const stored = await documents('handbook');
    expect(stored.map((d) => [d.source, d.content_type]).sort()).toEqual([
      ['returns.md', 'text/markdown'],
      ['shipping.txt', 'text/plain'],
    ]);
    for (const doc of stored) {
      expect(doc.chunks).toBeGreaterThan(0);
      const plural = doc.chunks === 1 ? 'chunk' : 'chunks';
      expect(await uploads.getByRole('listitem').filter({ hasText: doc.source }).getByText(`Added: ${doc.chunks} ${plural}`).isVisible()).toBe(true);
      const row = page.getByRole('row').filter({ hasText: doc.source });
      await row.waitFor();
      const cells = await row.getByRole('cell').allInnerTexts();
      expect(cells.slice(0, 4)).toEqual([
        doc.source,
        doc.source.endsWith('.md') ? 'Markdown' : 'Text',
        String(doc.source.endsWith('.md') ? RETURNS.length : SHIPPING.length),
        String(doc.chunks),
      ]);
    }
    const total = stored.reduce((sum, d) => sum + d.chunks, 0);
    await page.getByRole('navigation', { name: 'Knowledge bases' }).getByText(`2 documents · ${total} chunks`).waitFor();
  });

  it('takes a PDF dropped on the drop zone, and refuses a file that is not text, Markdown or PDF', async () => {
    const pdf = buildPdf(['Warranty: every device has a two year warranty.', 'Batteries are covered for one year.']).toString('base64');
    await page.getByRole('group', { name: 'Upload documents' }).evaluate((zone, data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'warranty.pdf', { type: 'application/pdf' }));
      transfer.items.add(new File([new Uint8Array([137, 80, 78, 71])], 'photo.png', { type: 'image/png' }));
      zone.dispatchEvent(new DragEvent('dragenter', { bubbles: true, dataTransfer: transfer }));
      zone.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }));
    }, pdf);
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await uploads
      .getByRole('listitem')
      .filter({ hasText: 'warranty.pdf' })
      .getByText(/^Added: \d+ chunks?$/)
      .waitFor();
    expect(await uploads.getByRole('listitem').filter({ hasText: 'photo.png' }).getByText('Failed: Not a text, Markdown or PDF file').isVisible()).toBe(true);
    const pdfDoc = (await documents('handbook')).find((d) => d.source === 'warranty.pdf')!;
    expect(pdfDoc.content_type).toBe('application/pdf');
    const cells = await page.getByRole('row').filter({ hasText: 'warranty.pdf' }).getByRole('cell').allInnerTexts();
    expect([cells[0], cells[1], cells[3]]).toEqual(['warranty.pdf', 'PDF', String(pdfDoc.chunks)]);
    expect((await documents('handbook')).map((d) => d.source)).not.toContain('photo.png');
  });

  it('Try a query shows the top results with their scores and sources, as the API ranks them', async () => {
    await page.getByRole('textbox', { name: 'Query', exact: true }).fill('refund for a return');
    await page.getByRole('combobox', { name: 'Results' }).selectOption('3');
    await page.getByRole('button', { name: 'Search' }).click();
    const results = page.getByRole('list', { name: 'Query results' }).getByRole('listitem');
    await results.first().waitFor();
    const expected = (
      (await (await h.post('/api/llm/acme/knowledge-bases/handbook/query', { query: 'refund for a return', top_k: 3 })).json()) as {
        results: Array<{ source: string; score: number; text: string }>;
      }
    ).results;
    expect(expected.length).toBeGreaterThan(0);
    expect(expected[0].source).toBe('returns.md');
    expect(await results.count()).toBe(expected.length);
    for (const [index, result] of expected.entries()) {
      const text = (await results.nth(index).innerText()).replace(/\s+/g, ' ').trim();
      expect(text.startsWith(`${result.source} score ${result.score.toFixed(3)} `)).toBe(true);
      expect(text).toContain(result.text.replace(/\s+/g, ' ').slice(0, 40));
    }
    await page.getByRole('heading', { name: 'Try a query' }).evaluate((heading) => heading.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'knowledge');
  });

  it('shows a document named with HTML as text', async () => {
    await page
      .getByLabel('Choose files')
      .setInputFiles([{ name: `${XSS}.md`, mimeType: 'text/markdown', buffer: Buffer.from('Harmless content about gift cards.') }]);
    const row = page.getByRole('row').filter({ hasText: `${XSS}.md` });
    await row.waitFor();
    expect(await row.getByRole('cell').first().innerText()).toBe(`${XSS}.md`);
    expect(await page.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('deletes a knowledge base after confirming', async () => {
    await page.getByRole('button', { name: 'Delete knowledge base' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete knowledge base "handbook"?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('heading', { name: 'No knowledge bases yet' }).waitFor();
    expect((await h.get('/api/llm/acme/knowledge-bases/handbook')).status).toBe(404);
  });
});
