import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { listen } from '@switchboard/core';
import { describeInBrowser, launchBrowser, newContext, screenshot } from '@switchboard/web-kit/testing';
import { NO_DRIVER_WARNING } from '../../src/http/send-routes.ts';
import { startService, type TestService } from '../helpers.ts';

describeInBrowser('The public page (GET /) in a browser', () => {
  let service: TestService;
  let browser: Browser;
  let page: Page;
  const answers: Response[] = [];

  beforeAll(async () => {
    service = await startService('sqlite');
    const base = await listen(service.app, '127.0.0.1', 0);
    browser = await launchBrowser();
    page = await (await newContext(browser, base)).newPage();
    page.on('response', (response) => answers.push(response));
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('loads with nothing missing, and shows its own icon: an SVG the page links, served by the service', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Switchboard SMS message store', level: 1 }).waitFor();
    // Headless Chromium does not fetch icons by itself: the page names its icon, which the test reads and draws.
    const link = page.locator('head link[rel="icon"]');
    expect(await link.getAttribute('href')).toBe('/favicon.svg');
    expect(await link.getAttribute('type')).toBe('image/svg+xml');
    const icon = await page.request.get('/favicon.svg');
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toBe('image/svg+xml');
    const drawn = await page.evaluate(async () => {
      const image = new Image();
      image.src = '/favicon.svg';
      await image.decode();
      return [image.naturalWidth, image.naturalHeight];
    });
    expect(drawn).toEqual([32, 32]);
    expect(answers.filter((response) => response.status() >= 400).map((response) => `${response.status()} ${response.url()}`)).toEqual([]);
  });

  it('says a message sent while the organization has no gateway stays queued, and why, beside the message', async () => {
    await page.getByRole('textbox', { name: 'org id' }).fill('acme');
    await page.getByLabel('secret key').fill(service.key);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Connected\./ })
      .waitFor();
    await page.getByRole('textbox', { name: 'to' }).fill('+15551234567');
    await page.getByRole('textbox', { name: 'text' }).fill('Sent from the page');
    await page.getByRole('button', { name: 'Send' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Sent from the page' });
    await row.waitFor();
    const listed = (await service.app.inject({ method: 'GET', url: `/messages/acme/${service.key}?direction=outbound` })).json();
    expect(listed.messages).toMatchObject([{ body: 'Sent from the page', status: 'queued', gateway: null }]);
    const id = listed.messages[0].id as number;
    // The send's answer stays on screen after the next polls, and the message's row says why it waits.
    await page.getByRole('status').filter({ hasText: 'Polling every 3 s' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Queued message' }).innerText()).toBe(`Queued message ${id}: ${NO_DRIVER_WARNING}`);
    expect(await row.getByRole('cell').nth(6).innerText()).toBe(`queued\n${NO_DRIVER_WARNING}`);
    await screenshot(page, 'sms-page-queued-without-gateway');
  });
});
