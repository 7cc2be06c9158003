// People, Account and invitation links in the browser (web.md, "Administration"): the kit's pages, the same
// in every UI; driven here in the SMS console.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { describeInBrowser, screenshot, signIn } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from './ui-harness.ts';

/** Screenshots at 1280×800 and 390×844 (`-phone`), the page left at 1280. */
async function bothWidths(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, `${name}-phone`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} fits a phone`).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Opens the signed-in person's menu (the button with their email). */
async function openUserMenu(page: Page, email: string) {
  await page.getByRole('button', { name: email, exact: true }).click();
  return page.getByRole('navigation', { name: 'Your account' });
}

for (const dialect of dialectsUnderTest()) {
  describeInBrowser(`People, Account and invitation links on ${dialect}`, () => {
    let h: UiHarness;
    let admin: Page;
    let link = '';

    beforeAll(async () => {
      h = await startUiHarness({ dialect });
      admin = await h.signedInPage('/login');
      await admin.waitForURL(`${h.base}/orgs/acme/inbox`);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('an admin opens People from their menu and invites a person: the link is shown once, the person listed as Invited', async () => {
      const menu = await openUserMenu(admin, h.email);
      await menu.getByRole('link', { name: 'People' }).click();
      await admin.waitForURL(`${h.base}/people`);
      await admin.getByRole('heading', { name: 'People', level: 1 }).waitFor();
      await admin.getByRole('button', { name: 'Invite person' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Invite person' });
      await dialog.getByRole('button', { name: 'Invite' }).click();
      await dialog.getByText('Give their email.').waitFor();
      await dialog.getByRole('textbox', { name: 'Email' }).fill('ADMIN@example.com');
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Someone');
      await dialog.getByRole('button', { name: 'Invite' }).click();
      await dialog.getByText('A user with the email admin@example.com already exists').waitFor();
      await dialog.getByRole('textbox', { name: 'Email' }).fill('Noor.Haddad@Example.com');
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Noor Haddad');
      await dialog.getByRole('button', { name: 'Invite' }).click();
      const shown = admin.getByRole('dialog', { name: 'Invitation link for Noor Haddad' });
      await shown.getByRole('button', { name: 'Copy link' }).waitFor();
      link = (await shown.locator('code').innerText()).trim();
      expect(link).toMatch(new RegExp(`^${h.base}/invite/sbi_[A-Za-z0-9_-]{43}$`));
      await bothWidths(admin, 'people-invitation-link');
      await shown.getByRole('button', { name: 'Done' }).click();
      const row = admin.getByRole('row').filter({ hasText: 'noor.haddad@example.com' });
      expect(await row.getByRole('cell').allInnerTexts()).toEqual([
        'Noor Haddad',
        'noor.haddad@example.com',
        'Member',
        'Invited',
        'just now',
        expect.any(String),
      ]);
      // A long name and email keep the page within a phone's width (the table scrolls inside its card).
      await h.service.context.web.users.create({
        email: 'wilhelmina.oyelaran-castellanos@engineering.example.org',
        name: 'Wilhelmina Oyelaran-Castellanos de la Fuente',
        password: 'a long enough password',
      });
      await admin.reload();
      await admin.getByRole('row').filter({ hasText: 'Wilhelmina' }).waitFor();
      await bothWidths(admin, 'people');
    });

    it('the invited person opens the link in a fresh browser, sets a password and lands signed in', async () => {
      const page = await (await h.context()).newPage();
      await page.goto(link);
      await page.getByRole('heading', { name: 'Set your password' }).waitFor();
      expect(await page.getByText('noor.haddad@example.com').isVisible()).toBe(true);
      await bothWidths(page, 'invitation');
      await page.getByLabel('Password', { exact: true }).fill('short');
      await page.getByLabel('Confirm password').fill('short');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('The password must be at least 12 characters.').waitFor();
      await page.getByLabel('Password', { exact: true }).fill('noors long password');
      await page.getByLabel('Confirm password').fill('noors long password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      await page.getByRole('heading', { name: 'No organization yet' }).waitFor();

      // The link works once: opened again, it says so and offers the sign-in.
      const again = await (await h.context()).newPage();
      await again.goto(link);
      await again.getByRole('heading', { name: 'This link does not work' }).waitFor();
      await bothWidths(again, 'invitation-invalid');
      await again.getByRole('link', { name: 'Go to sign in' }).click();
      await again.getByRole('button', { name: 'Sign in' }).waitFor();

      // The admin disables them; their page's next request sends them to the sign-in form.
      await admin.reload();
      const row = admin.getByRole('row').filter({ hasText: 'noor.haddad@example.com' });
      expect(await row.getByRole('cell').nth(3).innerText()).toBe('Active');
      await admin.getByRole('button', { name: 'Disable Noor Haddad' }).click();
      const confirm = admin.getByRole('dialog', { name: 'Disable Noor Haddad?' });
      await confirm.getByRole('button', { name: 'Disable' }).click();
      await row.getByText('Disabled').waitFor();
      await page.goto('/account');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    });

    it('a member has no People in their menu, and /people is not found', async () => {
      const member = await h.createUser('mo@example.com', { memberOf: ['acme'] });
      const page = await h.signedInPage('/login', member);
      await page.waitForURL(`${h.base}/orgs/acme/inbox`);
      const menu = await openUserMenu(page, 'mo@example.com');
      await menu.getByRole('link', { name: 'Account' }).waitFor();
      expect(await menu.getByRole('link', { name: 'People' }).count()).toBe(0);
      await page.goto('/people');
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      expect(await page.getByRole('heading', { name: 'People' }).count()).toBe(0);
    });

    it('Account: a person changes their name and password (a wrong current password is said), then signs in with the new one', async () => {
      const member = await h.createUser('kai@example.com', { memberOf: ['acme'] });
      const page = await h.signedInPage('/login', member);
      await page.waitForURL(`${h.base}/orgs/acme/inbox`);
      await (await openUserMenu(page, 'kai@example.com')).getByRole('link', { name: 'Account' }).click();
      await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
      await page.getByRole('textbox', { name: 'Name' }).fill('Kai Nakamura');
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByText('Name saved').waitFor();
      expect(await page.getByRole('button', { name: 'kai@example.com' }).getAttribute('title')).toBe('Kai Nakamura (kai@example.com)');
      await page.getByLabel('Current password').fill('not my password');
      await page.getByLabel('New password', { exact: true }).fill('kais new password');
      await page.getByLabel('Confirm new password').fill('kais new password');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('That is not your current password.').waitFor();
      await bothWidths(page, 'account-wrong-password');
      await page.getByLabel('Current password').fill(member.password);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password changed. You stay signed in here; your other sessions have ended.').waitFor();
      await bothWidths(page, 'account');
      const fresh = await (await h.context()).newPage();
      await fresh.goto('/login');
      await signIn(fresh, 'kai@example.com', 'kais new password');
    });
  });
}
