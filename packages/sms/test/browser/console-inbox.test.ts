import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { describeInBrowser, screenshot } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from './ui-harness.ts';

const ALICE = '+15550000001';
const BOB = '+15550000002';

for (const dialect of dialectsUnderTest()) {
  describeInBrowser(`The SMS console's inbox on ${dialect}`, () => {
    let h: UiHarness;
    let page: Page;
    const conversations = () => page.getByRole('list', { name: 'Conversations' });
    const conversation = (peer: string) => conversations().getByRole('link').filter({ hasText: peer });
    const messages = () => page.getByRole('list', { name: 'Messages' });

    beforeAll(async () => {
      h = await startUiHarness({ dialect });
      await h.service.context.orgs.createOrganization('empty', 'Empty Ltd', new Date());
      await h.receive([
        { from: ALICE, body: 'Hi, is my order on its way?' },
        { from: BOB, body: 'Bob here: call me back please', sim: 'sim2' },
        { from: ALICE, body: 'It was order 1042.' },
      ]);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('keeps the public page at / for a visitor, and opens the console there once signed in', async () => {
      const context = await h.context();
      const visitor = await context.newPage();
      await visitor.goto('/');
      await visitor.getByRole('heading', { name: 'Switchboard SMS message store', level: 1 }).waitFor();
      await visitor.goto('/orgs/acme/inbox');
      await visitor.getByRole('button', { name: 'Sign in' }).waitFor();
      await visitor.goto('/');
      await visitor.getByRole('link', { name: 'sign in to the console' }).click();
      await visitor.getByRole('button', { name: 'Sign in' }).waitFor();
      page = await h.signedInPage('/login');
      await page.waitForURL(/\/orgs\/acme\/inbox$/);
      const nav = page.getByRole('navigation', { name: 'Main' });
      expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Inbox', 'Send', 'Gateway', 'SIMs', 'Keys', 'Members']);
      expect(await page.getByRole('combobox', { name: 'Organization' }).inputValue()).toBe('acme');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await page.goto('/');
      await page.waitForURL(/\/orgs\/acme\/inbox$/);
    });

    it('lists conversations by number, the latest first, with unread counts, and opens one as a thread that counts as read', async () => {
      await conversation(ALICE).waitFor();
      expect(await conversations().getByRole('link').allInnerTexts()).toEqual([expect.stringContaining(ALICE), expect.stringContaining(BOB)]);
      expect(await conversation(ALICE).innerText()).toContain('2 unread');
      expect(await conversation(ALICE).innerText()).toContain('It was order 1042.');
      await page
        .getByRole('status')
        .filter({ hasText: /^Live$/ })
        .waitFor();
      await screenshot(page, `sms-console-inbox-${dialect}`);
      await conversation(ALICE).click();
      await page.waitForURL(/\/orgs\/acme\/inbox\/%2B15550000001$/);
      await messages().getByText('It was order 1042.').waitFor();
      expect(await messages().getByRole('listitem').allInnerTexts()).toEqual([
        expect.stringContaining('Hi, is my order on its way?'),
        expect.stringContaining('It was order 1042.'),
      ]);
      await expect.poll(() => conversation(ALICE).innerText()).not.toContain('unread');
      // The read mark is the service's: a reload still shows it read.
      await page.reload();
      await conversation(ALICE).waitFor();
      expect(await conversation(ALICE).innerText()).not.toContain('unread');
      expect(await conversation(BOB).innerText()).toContain('1 unread');
    });

    it('replies from the thread: the message shows queued and says the organization has no gateway yet, with a link to Gateway', async () => {
      const reply = page.getByRole('region', { name: `Conversation with ${ALICE}` });
      await reply.getByRole('textbox', { name: 'Text' }).fill('Yes, it ships today.');
      expect(await reply.getByText(/segment/).innerText()).toBe('1 segment · GSM-7 · 140 left');
      await reply.getByRole('button', { name: 'Send' }).click();
      const sent = messages().getByRole('listitem').filter({ hasText: 'Yes, it ships today.' });
      await sent.waitFor();
      expect(await sent.innerText()).toContain('queued');
      const note = reply.getByRole('status').filter({ hasText: 'no gateway yet' });
      await note.waitFor();
      expect(await note.getByRole('link', { name: 'Gateway' }).getAttribute('href')).toBe('/orgs/acme/gateway');
      expect(await conversations().getByRole('link').first().innerText()).toContain('Yes, it ships today.');
      await screenshot(page, `sms-console-thread-${dialect}`);
    });

    it('shows new messages and delivery states live, as the webhook stores them', async () => {
      const [sent] = (await h.service.context.conversations.thread('acme', ALICE, { sim: null, direction: 'outbound' }, { limit: 1, before: null })).messages;
      await h.service.context.outbox.markSent({ id: sent.id, org_id: 'acme' }, { externalId: 'gw-1', gateway: 'webhook' }, new Date());
      const bubble = messages().getByRole('listitem').filter({ hasText: 'Yes, it ships today.' });
      await expect.poll(() => bubble.innerText()).toContain('sent');
      await h.webhook({ event: 'sms.failed', external_id: 'gw-1', error: 'Carrier rejected the number' });
      await expect.poll(() => bubble.innerText()).toContain('Carrier rejected the number');
      expect(await bubble.innerText()).toContain('failed');
      // A new number appears at the top with its unread message; one in the open conversation is read at once.
      await h.receive([{ from: '+15550000003', body: 'New customer here' }]);
      await conversation('+15550000003').waitFor();
      expect(await conversations().getByRole('link').first().innerText()).toContain('1 unread');
      await h.receive([{ from: ALICE, body: 'Thanks!' }]);
      await messages().getByText('Thanks!').waitFor();
      await page.waitForTimeout(400);
      expect(await conversation(ALICE).innerText()).not.toContain('unread');
    });

    it('filters the conversations by SIM and direction', async () => {
      await page.getByRole('combobox', { name: 'SIM' }).first().selectOption('sim2');
      await expect.poll(() => conversations().getByRole('link').count()).toBe(1);
      expect(await conversations().getByRole('link').innerText()).toContain(BOB);
      await page.getByRole('combobox', { name: 'SIM' }).first().selectOption('');
      await page.getByRole('combobox', { name: 'Direction' }).selectOption('outbound');
      await expect.poll(() => conversations().getByRole('link').count()).toBe(1);
      expect(await conversations().getByRole('link').innerText()).toContain(ALICE);
      await page.getByRole('combobox', { name: 'Direction' }).selectOption('');
      await expect.poll(() => conversations().getByRole('link').count()).toBe(3);
    });

    it('shows an organization without messages as such, and reads at phone width one pane at a time', async () => {
      await page.getByRole('combobox', { name: 'Organization' }).selectOption('empty');
      await page.waitForURL(/\/orgs\/empty\/inbox$/);
      await page.getByRole('heading', { name: 'No messages yet' }).waitFor();
      await screenshot(page, `sms-console-inbox-empty-${dialect}`);
      const phone = await h.signedInPage('/orgs/acme/inbox', undefined, { width: 390, height: 844 });
      await phone.getByRole('list', { name: 'Conversations' }).getByRole('link').first().waitFor();
      await screenshot(phone, `sms-console-inbox-390-${dialect}`);
      await phone.getByRole('list', { name: 'Conversations' }).getByRole('link').filter({ hasText: ALICE }).click();
      await phone.getByRole('list', { name: 'Messages' }).getByText('Thanks!').waitFor();
      expect(await phone.getByRole('list', { name: 'Conversations' }).isVisible()).toBe(false);
      await screenshot(phone, `sms-console-thread-390-${dialect}`);
      await phone.getByRole('link', { name: '← Conversations' }).click();
      await phone.getByRole('list', { name: 'Conversations' }).waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });
}
