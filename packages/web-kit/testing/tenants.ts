// The tenant switcher's New organization / New project and the kit's Members list, as a person uses them:
// one page object for the three UIs' browser tests.
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './browser.ts';

/** The switcher named `switcher` (**Organization**, **Project**) and the Members list of the page. */
export function tenantControls(page: Page, switcher: string) {
  const select = page.getByRole('combobox', { name: switcher });
  return {
    select,
    /** The switcher's entries as shown. */
    entries: (): Promise<string[]> => select.locator('option').allInnerTexts(),
    /** Chooses the create entry (`New organization`) and answers its dialog. */
    async openCreate(entry: string): Promise<Locator> {
      await select.selectOption({ label: `${entry}…` });
      const dialog = page.getByRole('dialog', { name: entry });
      await dialog.waitFor();
      return dialog;
    },
    /** Adds a member by typing their email in the **Email** combobox; waits for their row. */
    async addMember(email: string): Promise<void> {
      await page.getByRole('combobox', { name: 'Email' }).fill(email);
      await page.getByRole('button', { name: 'Add member' }).click();
      await page.getByRole('cell', { name: email, exact: true }).waitFor();
    },
    /** Removes a member, confirming in the dialog; waits for their row to go. */
    async removeMember(email: string): Promise<void> {
      await page.getByRole('button', { name: `Remove ${email}` }).click();
      await page
        .getByRole('dialog', { name: `Remove ${email}?` })
        .getByRole('button', { name: 'Remove' })
        .click();
      await page.getByRole('cell', { name: email, exact: true }).waitFor({ state: 'detached' });
    },
  };
}

/** Screenshots of the page as it is at 1280×800 (`name`) and on a phone, 390×844 (`name-390`); the viewport is put back. */
export async function screenshotsAtBothWidths(page: Page, name: string): Promise<void> {
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, `${name}-390`);
  await page.setViewportSize(before);
}
