import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startFakeGateway, type FakeGateway } from '../helpers.ts';
import { startUiHarness, type UiHarness } from './ui-harness.ts';

for (const dialect of dialectsUnderTest()) {
  describeInBrowser(`The SMS console's Send, Gateway, SIMs and Keys pages on ${dialect}`, () => {
    let h: UiHarness;
    let gateway: FakeGateway;
    let page: Page;
    const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

    beforeAll(async () => {
      h = await startUiHarness({ dialect });
      gateway = await startFakeGateway();
      await h.receive([{ from: '+15550000001', body: 'Hello', sim: 'sim1', to: '+15552223333' }]);
      page = await h.signedInPage('/login');
      await context().grantPermissions(['clipboard-read', 'clipboard-write']);
    });
    afterAll(async () => {
      await gateway?.close();
      await h?.close();
    });
    const context = () => page.context();

    it('sends from Send with a segment counter that counts as the service does, and says a message waits without a gateway', async () => {
      await nav('Send').click();
      await page.getByRole('heading', { name: 'Send a message' }).waitFor();
      await page.getByRole('textbox', { name: 'To' }).fill('+1 (555) 123-4567');
      const text = page.getByRole('textbox', { name: 'Text' });
      const counter = page.getByText(/\d+ segments? ·/);
      await text.fill('a'.repeat(160));
      expect(await counter.innerText()).toBe('1 segment · GSM-7 · 0 left');
      await text.fill('a'.repeat(161));
      expect(await counter.innerText()).toBe('2 segments · GSM-7 · 145 left');
      await text.fill('Your code is 123456 🎉');
      expect(await counter.innerText()).toContain('1 segment · UCS-2 · 48 left');
      await page.getByRole('combobox', { name: 'SIM' }).selectOption('sim1');
      await page.getByRole('button', { name: 'Send' }).click();
      const note = page.getByRole('status').filter({ hasText: 'no gateway yet' });
      await note.waitFor();
      expect(await note.innerText()).toMatch(/^Message \d+ to \+15551234567 is queued, but this organization has no gateway yet/);
      const listed = (await h.service.context.conversations.thread('acme', '+15551234567', { sim: null, direction: null }, { limit: 5, before: null }))
        .messages;
      expect(listed).toMatchObject([{ body: 'Your code is 123456 🎉', sim: 'sim1', status: 'queued', segments: 1 }]);
      await screenshot(page, `sms-console-send-${dialect}`);
      await note.getByRole('link', { name: 'Gateway' }).click();
      await page.getByRole('heading', { name: 'Gateway', level: 1 }).waitFor();
    });

    it('sets a gateway with write-only credentials, tests it, and shows the webhook URL to paste into the gateway app', async () => {
      await page.getByRole('combobox', { name: 'Driver' }).selectOption('android');
      await page.getByRole('textbox', { name: 'API URL' }).fill(gateway.url);
      await page.getByRole('textbox', { name: 'Username' }).fill('sms');
      await page.getByLabel('Password').fill('s3cret-password');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Gateway saved: SMS Gateway for Android sends').waitFor();
      // The password is never shown again: the field is empty and says it is set.
      expect(await page.getByLabel('Password').inputValue()).toBe('');
      await page.getByText('Set (never shown).').first().waitFor();
      expect(await page.content()).not.toContain('s3cret-password');
      expect(await h.service.context.orgs.gatewaySettings('acme', 'android')).toEqual({ url: gateway.url, username: 'sms', password: 's3cret-password' });

      gateway.respond(() => ({ status: 202, body: { id: 'gw-42', state: 'Pending' } }));
      await page.getByRole('textbox', { name: 'Test number' }).fill('+15550001234');
      await page.getByRole('button', { name: 'Test', exact: true }).click();
      const answer = page.getByRole('status').filter({ hasText: 'The gateway accepted the message' });
      await answer.waitFor();
      expect(await answer.innerText()).toContain('{"id":"gw-42","state":"Pending"}');
      gateway.respond(() => ({ status: 401, body: { message: 'Unauthorized' } }));
      await page.getByRole('button', { name: 'Test', exact: true }).click();
      const failure = page.getByRole('status').filter({ hasText: 'The test failed.' });
      await failure.waitFor();
      expect(await failure.innerText()).toContain('gateway answered 401: {"message":"Unauthorized"}');

      await page.getByRole('button', { name: 'Copy webhook URL' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${h.base}/webhook?key=YOUR_SECRET_KEY`);
      await screenshot(page, `sms-console-gateway-${dialect}`);
      await page.getByRole('button', { name: 'Create a key for this gateway' }).click();
      const dialog = page.getByRole('dialog', { name: 'Webhook URL with its key' });
      const url = await dialog.locator('code.secret').innerText();
      expect(url).toMatch(new RegExp(`^${h.base}/webhook\\?key=sms_[A-Za-z0-9_-]{43}$`));
      // The URL works as given: a gateway posting to it is accepted.
      const posted = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'sms.received', message: { from: '+15550000009', to: '+15552223333', body: 'via the new key' } }),
      });
      expect(posted.status).toBe(200);
      await dialog.getByRole('button', { name: 'Done' }).click();
    });

    it('labels a SIM and gives it its number', async () => {
      await nav('SIMs').click();
      const row = page.getByRole('row').filter({ hasText: 'sim1' });
      await row.waitFor();
      await page.getByRole('button', { name: 'Edit sim1' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit sim1' });
      await dialog.getByRole('textbox', { name: 'Label' }).fill('Support line');
      await dialog.getByRole('textbox', { name: 'Phone number' }).fill('+1 555 222 3333');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await row.getByRole('cell', { name: 'Support line' }).waitFor();
      expect(await row.getByRole('cell', { name: '+15552223333' }).count()).toBe(1);
      await page.getByRole('button', { name: 'Edit sim1' }).click();
      await page.getByRole('dialog', { name: 'Edit sim1' }).getByRole('textbox', { name: 'Phone number' }).fill('call me');
      await page.getByRole('dialog', { name: 'Edit sim1' }).getByRole('button', { name: 'Save' }).click();
      const problem = page.getByRole('dialog', { name: 'Edit sim1' }).getByRole('alert');
      await problem.waitFor();
      expect(await problem.innerText()).toBe(
        "'phone_number' must be a phone number: '+' followed by 3 to 15 digits (spaces, dashes and parentheses are ignored)",
      );
      await page.getByRole('dialog', { name: 'Edit sim1' }).getByRole('button', { name: 'Cancel' }).click();
      await screenshot(page, `sms-console-sims-${dialect}`);
    });

    it('creates a key shown once with Copy, lists it without its secret, and revokes it after a confirmation', async () => {
      await nav('Keys').click();
      await page.getByRole('heading', { name: 'Keys', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Create key' }).first().click();
      const form = page.getByRole('dialog', { name: 'Create key' });
      await form.getByRole('textbox', { name: 'Name' }).fill('Zapier');
      await form.getByRole('button', { name: 'Create key' }).click();
      const shown = page.getByRole('dialog', { name: 'Key "Zapier" created' });
      const key = await shown.locator('code.secret').innerText();
      expect(key).toMatch(/^sms_[A-Za-z0-9_-]{43}$/);
      await shown.getByRole('button', { name: 'Copy key' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      await shown.getByRole('button', { name: 'Done' }).click();
      const row = page.getByRole('row').filter({ hasText: 'Zapier' });
      await row.waitFor();
      expect(await page.content()).not.toContain(key);
      expect((await fetch(`${h.base}/messages/acme`, { headers: { 'x-secret-key': key } })).status).toBe(200);
      await screenshot(page, `sms-console-keys-${dialect}`);
      await page.getByRole('button', { name: 'Revoke Zapier' }).click();
      const confirm = page.getByRole('dialog', { name: 'Revoke key "Zapier"?' });
      await confirm.getByRole('button', { name: 'Revoke' }).click();
      await row.getByText(/^Revoked/).waitFor();
      expect((await fetch(`${h.base}/messages/acme`, { headers: { 'x-secret-key': key } })).status).toBe(401);
    });

    it('reads every page at phone width without sideways scrolling', async () => {
      const phone = await h.signedInPage('/orgs/acme/send', undefined, { width: 390, height: 844 });
      for (const [path, heading] of [
        ['send', 'Send a message'],
        ['gateway', 'Gateway'],
        ['sims', 'SIMs'],
        ['keys', 'Keys'],
      ]) {
        await phone.goto(`/orgs/acme/${path}`);
        await phone.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await screenshot(phone, `sms-console-${path}-390-${dialect}`);
        expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      }
    });
  });
}
