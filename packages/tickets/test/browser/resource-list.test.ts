import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';

// The kit's resource list shows 50 rows a page; the Members tab of a project with 60 members besides the admin pages.
describeInBrowser('A resource list a page at a time (Settings → Members)', () => {
  let h: UiHarness;
  let page: Page;
  const emails = Array.from({ length: 60 }, (_, index) => `member-${String(index + 1).padStart(2, '0')}@example.com`);
  const pager = () => page.getByRole('navigation', { name: 'Pages of members' });
  /** The email cell of each row shown. */
  const shownEmails = async () => (await page.getByRole('row').allInnerTexts()).slice(1).map((text) => text.split('\t')[1]!.trim());

  beforeAll(async () => {
    h = await startUiHarness();
    for (const [index, email] of emails.entries()) await h.createUser(email, { memberOf: ['DEMO'], name: `Member ${index + 1}` });
    page = await h.signedInPage('/projects/DEMO/settings/members');
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('shows the first 50 of 61 rows, says which, and only Next → goes anywhere', async () => {
    await pager().waitFor();
    expect(await pager().innerText()).toBe('← Previous\nPage 1 of 2 (1–50 of 61)\nNext →');
    expect(await page.getByRole('row').count()).toBe(51);
    expect(await pager().getByRole('button', { name: '← Previous' }).isDisabled()).toBe(true);
    expect(await pager().getByRole('button', { name: 'Next →' }).isEnabled()).toBe(true);
  });

  it('Next → shows the other 11 rows, every member once across the two pages; ← Previous goes back', async () => {
    const first = await shownEmails();
    await pager().getByRole('button', { name: 'Next →' }).click();
    await pager().getByText('Page 2 of 2 (51–61 of 61)').waitFor();
    const second = await shownEmails();
    expect(first).toHaveLength(50);
    expect(second).toHaveLength(11);
    expect([...first, ...second].sort()).toEqual(['admin@example.com', ...emails].sort());
    expect(await pager().getByRole('button', { name: 'Next →' }).isDisabled()).toBe(true);
    await screenshot(page, 'resource-list-page-2');
    await pager().getByRole('button', { name: '← Previous' }).click();
    await pager().getByText('Page 1 of 2 (1–50 of 61)').waitFor();
    expect(await shownEmails()).toEqual(first);
  });

  it('removing rows until the second page is empty shows the last page left, and the pager goes once one page holds them all', async () => {
    await pager().getByRole('button', { name: 'Next →' }).click();
    await pager().getByText('Page 2 of 2 (51–61 of 61)').waitFor();
    for (let left = 11; left > 0; left--) {
      // The last member on the second page, removed as a person does: Remove, then Remove in the dialog.
      const email = (await shownEmails()).filter((shown) => shown !== 'admin@example.com').at(-1)!;
      await page.getByRole('button', { name: `Remove ${email}` }).click();
      await page
        .getByRole('dialog', { name: `Remove ${email}?` })
        .getByRole('button', { name: 'Remove', exact: true })
        .click();
      await page.getByRole('cell', { name: email, exact: true }).waitFor({ state: 'detached' });
      if (left > 1)
        await pager()
          .getByText(`Page 2 of 2 (51–${49 + left} of ${49 + left})`)
          .waitFor();
    }
    await pager().waitFor({ state: 'detached' });
    expect(await page.getByRole('row').count()).toBe(51);
  });
});
