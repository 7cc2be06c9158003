// The kit's People and Account pages as every UI shows them: reached from the user menu (the button with the email).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Opens one entry (**Account**, **People**) of the signed-in person's menu. */
export async function openFromUserMenu(page: Page, email: string, entry: 'Account' | 'People'): Promise<void> {
  await page.getByRole('button', { name: email, exact: true }).click();
  await page.getByRole('navigation', { name: 'Your account' }).getByRole('link', { name: entry }).click();
}

/** An admin opens People (they are listed as Admin) and then Account (their name in its form), in the UI's frame. */
export async function expectPeopleAndAccount(page: Page, admin: { email: string; name: string }): Promise<void> {
  await openFromUserMenu(page, admin.email, 'People');
  await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
  expect(await page.getByRole('row').filter({ hasText: admin.email }).getByRole('cell').nth(2).textContent()).toBe('Admin');
  await openFromUserMenu(page, admin.email, 'Account');
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  expect(await page.getByRole('textbox', { name: 'Name' }).inputValue()).toBe(admin.name);
  expect(new URL(page.url()).pathname).toBe('/account');
}
