import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
import { listen } from '@switchboard/core';
import { NO_DRIVER_WARNING } from '../src/http/send-routes.ts';
import { bearer, eventually, startService, type TestService } from './helpers.ts';

/** The smallest DOM the inbox script uses: elements by id with value, text, handlers and children. */
class FakeElement {
  value = '';
  className = '';
  private text = '';
  children: FakeElement[] = [];
  onclick?: () => void;
  onchange?: () => void;
  oninput?: () => void;
  onsubmit?: (event: { preventDefault(): void }) => Promise<void>;
  appendChild(child: FakeElement) {
    this.children.push(child);
  }
  get textContent(): string {
    return this.text;
  }
  /** As in the DOM, setting the text replaces the children. */
  set textContent(value: string) {
    this.text = value;
    this.children = [];
  }
}

describe('the inbox in GET /', () => {
  let service: TestService;
  let base: string;
  beforeAll(async () => {
    service = await startService('sqlite');
    base = await listen(service.app, '127.0.0.1', 0);
  });
  afterAll(() => service.close());

  it('lists with since_id polling, filters by direction and SIM, and sends', async () => {
    await service.app.inject({
      method: 'POST',
      url: '/webhook',
      headers: { 'x-secret-key': service.key },
      payload: {
        events: [
          { event: 'sms.received', message: { from: '+1555', to: '+1666', body: 'first', sim: 'sim1' } },
          { event: 'sms.received', message: { from: '+1777', to: '+1888', body: 'second', sim: 'sim2' } },
        ],
      },
    });
    const html = await (await fetch(`${base}/`)).text();
    const script = /<script>([\s\S]*)<\/script>/.exec(html)![1];
    const elements = new Map<string, FakeElement>();
    const document = {
      getElementById: (id: string) => {
        if (!elements.has(id)) elements.set(id, new FakeElement());
        return elements.get(id)!;
      },
      createElement: () => new FakeElement(),
    };
    const timers: unknown[] = [];
    runInNewContext(script, {
      document,
      fetch: (url: string, init?: RequestInit) => fetch(new URL(url, base), init),
      setInterval: (fn: () => void) => timers.push(fn),
      clearInterval: () => undefined,
      Map,
      JSON,
      Math,
      String,
      encodeURIComponent,
    });
    const $ = (id: string) => document.getElementById(id);
    const rows = () => $('messages').children.map((tr) => tr.children.map((td) => td.textContent));

    $('org').value = 'acme';
    $('key').value = service.key;
    $('connect').onclick!();
    await eventually(async () => rows().length === 2);
    // Newest first.
    expect(rows().map((row) => row[5])).toEqual(['second', 'first']);
    expect($('status').textContent).toMatch(/^Connected/);

    $('sim').value = 'sim1';
    $('sim').oninput!();
    expect(rows().map((row) => row[5])).toEqual(['first']);
    $('sim').value = '';
    $('direction').value = 'outbound';
    $('direction').onchange!();
    expect(rows()).toEqual([]);

    $('to').value = '+15551234567';
    $('text').value = 'from the page';
    await $('send').onsubmit!({ preventDefault: () => undefined });
    const listed = (await service.app.inject({ method: 'GET', url: '/messages/acme?direction=outbound', headers: bearer(service.key) })).json();
    expect(listed.messages.map((m: { body: string }) => m.body)).toEqual(['from the page']);
    // No gateway is configured: the send's answer says so beside the form (the status line is the polling's).
    expect($('sent').textContent).toBe(`Queued message ${listed.messages[0].id}: ${NO_DRIVER_WARNING}`);
    await eventually(async () => rows().length === 1);
    expect(rows()[0][5]).toBe('from the page');
    expect(rows()[0][6]).toBe('queued');
    expect($('messages').children[0].children[6].children.map((note) => note.textContent)).toEqual([NO_DRIVER_WARNING]);
    expect($('status').textContent).toMatch(/^Connected/);

    $('key').value = 'sms_wrong';
    $('connect').onclick!();
    await eventually(async () => $('status').className === 'bad');
    expect($('status').textContent).toBe('Invalid credentials');
  });
});
