import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MembershipStore, UserStore, openPlatformDatabase, type Database, type PlatformTables } from '@switchboard/core';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { screenshotsAtBothWidths, tenantControls } from '@switchboard/web-kit/testing/tenants';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';

for (const dialect of dialectsUnderTest()) {
  describeInBrowser(`New organization and Members in the flows dashboard on ${dialect}`, () => {
    let h: UiHarness;
    let platform: Database<PlatformTables>;
    let page: Page;

    beforeAll(async () => {
      h = await startUiHarness(dialect);
      platform = await openPlatformDatabase(h.db.env);
      page = await h.signedInPage('/orgs/acme/flows');
    });
    afterAll(async () => {
      await platform?.close();
      await h?.close();
    });

    it('creates an organization from the Organization switcher (refusing a bad code) and opens it', async () => {
      const controls = tenantControls(page, 'Organization');
      await page.getByRole('heading', { name: 'Flows', level: 1 }).waitFor();
      expect(await controls.entries()).toEqual(['Acme (acme)', 'New organization…']);
      const dialog = await controls.openCreate('New organization');
      await screenshotsAtBothWidths(page, 'flows-new-organization');
      await dialog.getByRole('textbox', { name: 'Code' }).fill('North Office');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await dialog.getByText('org_code must be 2 to 40 characters of a-z, 0-9 and -').waitFor();
      await screenshot(page, 'flows-new-organization-refused');
      await dialog.getByRole('textbox', { name: 'Code' }).fill('north-office');
      await dialog.getByRole('textbox', { name: 'Name' }).fill('North office');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(`${h.base}/orgs/north-office/flows`);
      await dialog.waitFor({ state: 'detached' });
      // The switcher lists the new organization once the session is read again, which may land after the URL changed.
      await expect.poll(() => controls.entries(), { timeout: 5000 }).toEqual(['Acme (acme)', 'North office (north-office)', 'New organization…']);
      await expect.poll(() => controls.select.inputValue(), { timeout: 5000 }).toBe('north-office');
    });

    it('adds a member by email on the Members page, who then sees the organization, and removes them after confirming', async () => {
      const controls = tenantControls(page, 'Organization');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
      await page.waitForURL(`${h.base}/orgs/north-office/members`);
      await page.getByRole('cell', { name: h.email, exact: true }).waitFor();
      expect(await page.getByRole('row').count()).toBe(2);
      await screenshotsAtBothWidths(page, 'flows-members-empty');
      const mia = await h.createUser('mia@example.com');
      await page.reload();
      // The Email combobox offers the deployment's users who are not members yet (GET /api/admin/users).
      const offered = page.locator('datalist option');
      await offered.first().waitFor({ state: 'attached' });
      expect(await offered.evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))).toEqual(['mia@example.com']);
      await controls.addMember('mia@example.com');
      const asMia = await h.signedInPage('/', mia);
      await asMia.waitForURL(`${h.base}/orgs/north-office`);
      expect(await tenantControls(asMia, 'Organization').entries()).toEqual(['North office (north-office)']);
      await controls.removeMember('mia@example.com');
      await asMia.goto('/orgs/north-office/flows');
      await asMia.getByRole('heading', { name: 'Organization not found' }).waitFor();
    });

    // Its users are made one by one (a password hash each): room for a loaded machine.
    it('lists many members with long names on a phone without pushing Remove out of sight', async () => {
      const users = new UserStore(platform.db);
      const memberships = new MembershipStore(platform.db);
      for (let i = 1; i <= 24; i++) {
        const long = i % 3 === 0;
        const { user } = await users.create({
          email: long ? `maximiliana.rodriguez-featherstonehaugh.${i}@subsidiary.very-long-company-name.example.com` : `person${i}@example.com`,
          password: 'member password 1',
          name: long ? `Maximiliana Alexandrina Rodriguez-Featherstonehaugh the ${i}th` : `Person ${i}`,
        });
        await memberships.add('flows', 'north-office', user.id);
      }
      await page.reload();
      await page.getByRole('cell', { name: 'person1@example.com', exact: true }).waitFor();
      await screenshotsAtBothWidths(page, 'flows-members-many');
      await page.setViewportSize({ width: 390, height: 844 });
      // The members table fits the phone's width: long names and emails wrap instead of pushing Remove out of sight.
      const table = (await page.getByRole('table').boundingBox())!;
      expect(table.x + table.width).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 800 });
    }, 120_000);

    it('offers a member no New organization entry and no Members page', async () => {
      const otto = await h.createUser('otto@example.com');
      await new MembershipStore(platform.db).add('flows', 'acme', otto.id);
      const asOtto = await h.signedInPage('/orgs/acme/flows', otto);
      await asOtto.getByRole('heading', { name: 'Flows', level: 1 }).waitFor();
      expect(await tenantControls(asOtto, 'Organization').entries()).toEqual(['Acme (acme)']);
      expect(await asOtto.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts()).not.toContain('Members');
      await screenshot(asOtto, 'flows-switcher-member');
    });
  });
}
