import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { screenshotsAtBothWidths, tenantControls } from '@switchboard/web-kit/testing/tenants';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';

for (const dialect of dialectsUnderTest()) {
  describeInBrowser(`New project and its Members on the board on ${dialect}`, () => {
    let h: UiHarness;
    let page: Page;

    beforeAll(async () => {
      h = await startUiHarness({ dialect });
      page = await h.signedInPage('/projects/DEMO/board');
    });
    afterAll(async () => {
      await h?.close();
    });

    it('creates a project from the Project switcher (every problem said at once) and opens its board', async () => {
      const controls = tenantControls(page, 'Project');
      await page.getByRole('region', { name: 'To Do', exact: true }).waitFor();
      expect(await controls.entries()).toEqual(['Project DEMO (DEMO)', 'New project…']);
      const dialog = await controls.openCreate('New project');
      await screenshotsAtBothWidths(page, 'board-new-project');
      await dialog.getByRole('textbox', { name: 'Key' }).fill('1bad');
      await dialog.getByRole('button', { name: 'Create' }).click();
      // Every problem at once, one a line.
      const refusal = dialog.getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.innerText()).toBe(
        'Project key "1BAD" is invalid: use 2 to 10 upper-case letters or digits, starting with a letter (e.g. DEMO).\nname is required',
      );
      await screenshot(page, 'board-new-project-refused');
      await dialog.getByRole('textbox', { name: 'Key' }).fill('web');
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Website relaunch');
      await dialog.getByRole('textbox', { name: 'Description' }).fill('The new public site.');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(`${h.base}/projects/WEB/board`);
      await page.getByRole('region', { name: 'Backlog', exact: true }).waitFor();
      expect(await controls.select.inputValue()).toBe('WEB');
    });

    it("adds a member on the new project's Settings → Members, who then sees it, and removes them", async () => {
      const controls = tenantControls(page, 'Project');
      await page.goto('/projects/WEB/settings/members');
      await page.getByText('No members yet: only administrators see this project.').waitFor();
      await screenshotsAtBothWidths(page, 'board-members-empty');
      const bo = await h.createUser('bo@example.com', { name: 'Bo' });
      await page.reload();
      await controls.addMember('bo@example.com');
      const asBo = await h.signedInPage('/', bo);
      await asBo.waitForURL(`${h.base}/projects/WEB/board`);
      expect(await tenantControls(asBo, 'Project').entries()).toEqual(['Website relaunch (WEB)']);
      await screenshot(asBo, 'board-switcher-member');
      await controls.removeMember('bo@example.com');
    });

    it('says a project it cannot show is not found, and leads back to the last project', async () => {
      await page.goto('/projects/NOPE/board');
      await page.getByRole('heading', { name: 'Project not found' }).waitFor();
      expect(await page.getByText('It does not exist, or you do not have access to it.').isVisible()).toBe(true);
      await screenshot(page, 'board-project-not-found');
      await page.getByRole('link', { name: 'Go to your project' }).click();
      await page.waitForURL(`${h.base}/projects/WEB/board`);
      await page.getByRole('region', { name: 'Backlog', exact: true }).waitFor();

      await page.goto('/projects/WEB/nothing-here');
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await page.getByRole('link', { name: 'Go to your project' }).click();
      await page.waitForURL(`${h.base}/projects/WEB/board`);
    });

    // Its users are made one by one (a password hash each): room for a loaded machine.
    it('lists many members with long names without pushing Remove out of sight on a phone', async () => {
      for (let i = 1; i <= 20; i++) {
        const long = i % 5 === 0;
        await h.createUser(long ? `wilhelmina.oyelaran-castellanos.${i}@engineering.example.org` : `dev${i}@example.com`, {
          name: long ? `Wilhelmina Oyelaran-Castellanos, Principal Engineer ${i}` : `Dev ${i}`,
          memberOf: ['WEB'],
        });
      }
      await page.goto('/projects/WEB/settings/members');
      await page.getByRole('cell', { name: 'dev1@example.com', exact: true }).waitFor();
      await screenshotsAtBothWidths(page, 'board-members-many');
      await page.setViewportSize({ width: 390, height: 844 });
      // The members table fits the phone's width: long names and emails wrap instead of pushing Remove out of sight.
      const table = (await page.getByRole('table').boundingBox())!;
      expect(table.x + table.width).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 800 });
    }, 120_000);
  });
}
