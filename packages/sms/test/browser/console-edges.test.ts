import { afterAll, beforeAll, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from './ui-harness.ts';

for (const dialect of dialectsUnderTest()) {
  describeInBrowser(`The SMS console with strangers, long lists and failures on ${dialect}`, () => {
    let h: UiHarness;

    beforeAll(async () => {
      h = await startUiHarness({ dialect });
      await h.service.context.orgs.createOrganization('secret-co', 'Secret Co', new Date());
      // 320 numbers, one message each (the latest first in the list), then a long text in a long thread.
      for (let start = 0; start < 320; start += 80) {
        await h.receive(
          Array.from({ length: 80 }, (_, i) => ({ from: `+1555100${String(start + i).padStart(4, '0')}`, body: `Message from number ${start + i}` })),
        );
      }
      const long = `${'A very long message that wraps over several lines in the thread without pushing the page sideways. '.repeat(12)}Supercalifragilisticexpialidocious${'x'.repeat(120)}`;
      await h.receive(Array.from({ length: 120 }, (_, i) => ({ from: '+15559990000', body: i === 119 ? long : `Thread message ${i}` })));
    });
    afterAll(async () => {
      await h?.close();
    });

    it("shows a non-member another organization's console as not found, as the API does, revealing nothing", async () => {
      const stranger = await h.createUser('stranger@example.com', { memberOf: ['acme'] });
      const page = await h.signedInPage('/login', stranger);
      await page.waitForURL(/\/orgs\/acme\/inbox$/);
      expect(await page.getByRole('combobox', { name: 'Organization' }).locator('option').allInnerTexts()).toEqual(['Acme (acme)']);
      for (const path of ['/orgs/secret-co/inbox', '/orgs/no-such-org/inbox', '/orgs/secret-co/keys']) {
        await page.goto(path);
        await page.getByRole('heading', { name: 'Organization not found' }).waitFor();
      }
      await screenshot(page, `sms-console-not-found-${dialect}`);
      const answers = await page.evaluate(async () =>
        Promise.all(
          ['/api/orgs/secret-co/conversations', '/api/orgs/no-such-org/conversations'].map(async (url) => [
            (await fetch(url)).status,
            await (await fetch(url)).text(),
          ]),
        ),
      );
      expect(answers).toEqual([
        [404, '{"detail":"Organization not found"}'],
        [404, '{"detail":"Organization not found"}'],
      ]);
    });

    it('keeps only the rows in view in the page, reads further conversations as the list scrolls, and wraps a long text', async () => {
      const page = await h.signedInPage('/login');
      const list = page.getByRole('list', { name: 'Conversations' });
      await list.getByRole('link').first().waitFor();
      expect(await list.getByRole('link').first().innerText()).toContain('+15559990000');
      const rendered = await list.getByRole('listitem').count();
      expect(rendered).toBeLessThan(40);
      // Scrolled to the end, the list reads on until the oldest conversation is there.
      for (let i = 0; i < 12; i++) {
        await page.locator('.conversation-scroller').evaluate((element) => element.scrollTo(0, element.scrollHeight));
        await page.waitForTimeout(150);
      }
      await list.getByRole('link').filter({ hasText: '+15551000000' }).waitFor();
      expect(await list.getByRole('listitem').count()).toBeLessThan(40);
      await page.goto(`/orgs/acme/inbox/${encodeURIComponent('+15559990000')}`);
      const messages = page.getByRole('list', { name: 'Messages' });
      await messages.getByText('Supercalifragilistic', { exact: false }).waitFor();
      expect(await messages.getByRole('listitem').count()).toBeLessThan(50);
      // Older pages until the first message: a click whenever the button is not busy with the previous read.
      const older = page.getByRole('button', { name: 'Load older messages' });
      for (let tries = 0; tries < 50 && (await older.count()) > 0; tries++) {
        if (await older.isEnabled()) await older.click({ timeout: 1000 }).catch(() => undefined);
        await page.waitForTimeout(100);
      }
      await page.locator('.thread-scroller').evaluate((element) => element.scrollTo(0, 0));
      await messages.getByText('Thread message 0', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Load older messages' }).count()).toBe(0);
      await page.locator('.thread-scroller').evaluate((element) => element.scrollTo(0, element.scrollHeight));
      await screenshot(page, `sms-console-long-thread-${dialect}`);
      const phone = await h.signedInPage(`/orgs/acme/inbox/${encodeURIComponent('+15559990000')}`, undefined, { width: 390, height: 844 });
      await phone.getByRole('list', { name: 'Messages' }).getByText('Supercalifragilistic', { exact: false }).waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(phone, `sms-console-long-thread-390-${dialect}`);
    });

    it('says when the conversations cannot be read, and reads them again on Try again; says when the stream is down', async () => {
      const page = await h.signedInPage('/login');
      await page.getByRole('list', { name: 'Conversations' }).waitFor();
      let failing = true;
      await page.route('**/api/orgs/acme/conversations?*', (route) =>
        failing
          ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"detail":"The database is unavailable; retry shortly."}' })
          : route.continue(),
      );
      await page.route('**/api/orgs/acme/events*', (route) => route.abort());
      await page.reload();
      const alert = page.getByRole('alert').filter({ hasText: 'The conversations could not be read' });
      await alert.waitFor();
      expect(await alert.innerText()).toContain('The database is unavailable; retry shortly.');
      await screenshot(page, `sms-console-inbox-failing-${dialect}`);
      failing = false;
      await alert.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('list', { name: 'Conversations' }).getByRole('link').first().waitFor();
      await page.getByRole('status').filter({ hasText: 'Reconnecting…' }).waitFor();
      await page.unroute('**/api/orgs/acme/events*');
      await page
        .getByRole('status')
        .filter({ hasText: /^Live$/ })
        .waitFor({ timeout: 20_000 });
    });
  });
}
