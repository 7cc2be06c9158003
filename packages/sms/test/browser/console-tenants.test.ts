import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { screenshotsAtBothWidths, tenantControls } from '@switchboard/web-kit/testing/tenants';
import { startUiHarness, type UiHarness } from './ui-harness.ts';

for (const dialect of dialectsUnderTest()) {
  describeInBrowser(`New organization and Members in the SMS console on ${dialect}`, () => {
    let h: UiHarness;
    let page: Page;

    beforeAll(async () => {
      h = await startUiHarness({ dialect });
      page = await h.signedInPage('/orgs/acme/keys');
    });
    afterAll(async () => {
      await h?.close();
    });

    it('creates an organization from the Organization switcher and opens it, with no key until the Keys page makes one', async () => {
      const controls = tenantControls(page, 'Organization');
      await page.getByRole('heading', { name: 'Keys', level: 1 }).waitFor();
      expect(await controls.entries()).toEqual(['Acme (acme)', 'New organization…']);
      const dialog = await controls.openCreate('New organization');
      await dialog.getByRole('textbox', { name: 'Organization id' }).fill('acme');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await dialog.getByText('organization acme already exists').waitFor();
      await screenshotsAtBothWidths(page, 'sms-new-organization-refused');
      await dialog.getByRole('textbox', { name: 'Organization id' }).fill('north');
      await dialog.getByRole('textbox', { name: 'Name' }).fill('North office');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(`${h.base}/orgs/north/keys`);
      await page.getByRole('heading', { name: 'No keys' }).waitFor();
      expect(await controls.select.inputValue()).toBe('north');
    });

    it('adds a member by email on the Members page, who then sees the organization, and removes them after confirming', async () => {
      const controls = tenantControls(page, 'Organization');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
      await page.waitForURL(`${h.base}/orgs/north/members`);
      await page.getByText('No members yet: only administrators see this organization.').waitFor();
      await screenshotsAtBothWidths(page, 'sms-members-empty');
      const mia = await h.createUser('mia@example.com');
      await page.reload();
      await controls.addMember('mia@example.com');
      const asMia = await h.signedInPage('/login', mia);
      await asMia.waitForURL(`${h.base}/orgs/north/inbox`);
      expect(await tenantControls(asMia, 'Organization').entries()).toEqual(['North office (north)']);
      expect(await asMia.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts()).toEqual(['Inbox', 'Send', 'Gateway', 'SIMs', 'Keys']);
      await screenshot(asMia, 'sms-switcher-member');
      await controls.removeMember('mia@example.com');
      await asMia.goto('/orgs/north/keys');
      await asMia.getByRole('heading', { name: 'Organization not found' }).waitFor();
    });

    // Its users are made one by one (a password hash each): room for a loaded machine.
    it('lists many members with long names without pushing Remove out of sight on a phone', async () => {
      const { web } = h.service.context;
      for (let i = 1; i <= 24; i++) {
        const long = i % 4 === 0;
        const { user } = await web.users.create({
          email: long ? `bartholomew.kowalczyk-vanderbilt.${i}@regional-operations.example.com` : `agent${i}@example.com`,
          password: 'member password 1',
          name: long ? `Bartholomew Kowalczyk-Vanderbilt of Regional Operations ${i}` : `Agent ${i}`,
        });
        await web.memberships.add('sms', 'north', user.id);
      }
      await page.reload();
      await page.getByRole('cell', { name: 'agent1@example.com', exact: true }).waitFor();
      await screenshotsAtBothWidths(page, 'sms-members-many');
      await page.setViewportSize({ width: 390, height: 844 });
      // The members table fits the phone's width: long names and emails wrap instead of pushing Remove out of sight.
      const table = (await page.getByRole('table').boundingBox())!;
      expect(table.x + table.width).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 800 });
    }, 120_000);
  });
}
