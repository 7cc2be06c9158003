import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type App } from '@switchboard/core';
import { dialectsUnderTest, openEventStream, type EventStream } from '@switchboard/core/testing';
import { receive, send, signedInUser, type SignedIn } from './console-helpers.ts';
import { startService, type TestService } from './helpers.ts';

const ALICE = '+15550000001';

describe.each(dialectsUnderTest())("the console's live stream on %s", (dialect) => {
  let service: TestService;
  let url: string;
  let member: SignedIn;
  let stranger: SignedIn;
  let second: App | undefined;
  const streams: EventStream[] = [];
  const open = async (cookie: string, headers: Record<string, string> = {}, at = url) => {
    const stream = await openEventStream(`${at}/api/orgs/acme/events`, { cookie, ...headers });
    streams.push(stream);
    return stream;
  };

  beforeAll(async () => {
    service = await startService(dialect, { SMS_EVENTS_RECHECK_MS: '100', SMS_EVENTS_POLL_MS: '60000' });
    url = await listen(service.app, '127.0.0.1', 0);
    await service.context.orgs.createOrganization('other', 'Other', new Date());
    member = await signedInUser(service, 'member@example.com', { memberOf: ['acme'] });
    stranger = await signedInUser(service, 'stranger@example.com', { memberOf: ['other'] });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await second?.close();
    await service?.close();
  });

  it('refuses a stream to a non-member with the 404 of an unknown organization, and to no one at all with 401', async () => {
    const hidden = await open(stranger.cookie);
    expect([hidden.status, hidden.error]).toEqual([404, { detail: 'Organization not found' }]);
    const anonymous = await openEventStream(`${url}/api/orgs/acme/events`);
    expect([anonymous.status, anonymous.error]).toEqual([401, { detail: 'Invalid credentials' }]);
  });

  it('sends each commit as it happens: new messages, an outbound send, and delivery states, in order', async () => {
    const stream = await open(member.cookie);
    expect(stream.status).toBe(200);
    const ready = await stream.waitFor((event) => event.event === 'ready');
    const start = ready.data.seq as number;
    const [first, second] = await receive(service, [
      { from: ALICE, body: 'one' },
      { from: ALICE, body: 'two' },
    ]);
    let batches = await stream.changes(1, 5000, 'messages');
    // One commit, one event: its number is the event's id, its messages come together.
    expect(batches[0].id).toBe(String(start + 1));
    expect(batches[0].data).toEqual({
      seq: start + 1,
      messages: [expect.objectContaining({ id: first, body: 'one', status: 'received' }), expect.objectContaining({ id: second, body: 'two' })],
    });
    const sent = await send(service, ALICE, 'reply');
    batches = await stream.changes(2, 5000, 'messages');
    expect(batches[1].data.messages).toEqual([expect.objectContaining({ id: sent.id, direction: 'outbound', status: 'queued' })]);
    // The worker's "sent" and the gateway's delivery report each change the message again.
    await service.context.outbox.markSent({ id: sent.id, org_id: 'acme' }, { externalId: 'gw-7', gateway: 'webhook' }, new Date());
    batches = await stream.changes(3, 5000, 'messages');
    expect(batches[2].data.messages).toEqual([expect.objectContaining({ id: sent.id, status: 'sent', external_id: 'gw-7' })]);
    await service.app.inject({
      method: 'POST',
      url: '/webhook',
      headers: { 'content-type': 'application/json', 'x-secret-key': service.key },
      payload: { event: 'sms.failed', external_id: 'gw-7', error: 'no signal' },
    });
    batches = await stream.changes(4, 5000, 'messages');
    expect(batches[3].data.messages).toEqual([expect.objectContaining({ id: sent.id, status: 'failed', error: 'no signal' })]);
    expect(batches.map((batch) => Number(batch.id))).toEqual([...batches.map((batch) => batch.data.seq)].sort((a, b) => a - b));
  });

  it('replays what a reconnecting page missed (Last-Event-ID), each message once in its latest state, and resets a page gone too long', async () => {
    const before = (await service.context.conversations.latestChange('acme'))!;
    const [id] = await receive(service, [{ from: ALICE, body: 'while away' }]);
    const sent = await send(service, ALICE, 'also while away');
    await service.context.outbox.markSent({ id: sent.id, org_id: 'acme' }, { externalId: 'gw-8', gateway: 'webhook' }, new Date());
    const resumed = await open(member.cookie, { 'last-event-id': String(before) });
    const batches = await resumed.changes(2, 5000, 'messages');
    expect(batches.flatMap((batch) => batch.data.messages.map((m: { id: number; status: string }) => [m.id, m.status]))).toEqual([
      [id, 'received'],
      [sent.id, 'sent'],
    ]);
    // Ten thousand commits later (other organizations' writes never count), a replay would be too long.
    await service.context.database.db
      .updateTable('organizations')
      .set((eb) => ({ seq: eb('seq', '+', 10_000) }))
      .where('org_id', '=', 'acme')
      .execute();
    const latest = (await service.context.conversations.latestChange('acme'))!;
    const reset = await open(member.cookie, { 'last-event-id': String(before) });
    expect((await reset.waitFor((event) => event.event === 'ready')).data).toEqual({ seq: latest, reset: true });
    expect(reset.events.filter((event) => event.event === 'messages')).toEqual([]);
    const bad = await open(member.cookie, { 'last-event-id': 'yesterday' });
    expect(bad.status).toBe(400);
  });

  it('closes the stream of a user who is no longer a member', async () => {
    const leaving = await signedInUser(service, 'leaving@example.com', { memberOf: ['acme'] });
    const stream = await open(leaving.cookie);
    await stream.waitFor((event) => event.event === 'ready');
    await service.context.web.memberships.remove('sms', 'acme', leaving.id);
    await stream.ended;
  });

  it('hands a commit whole to a stream, however many messages it holds', async () => {
    const before = (await service.context.conversations.latestChange('acme'))!;
    await receive(
      service,
      Array.from({ length: 30 }, (_, i) => ({ from: `+1555010${String(i).padStart(4, '0')}`, body: `bulk ${i}` })),
    );
    await receive(service, [{ from: ALICE, body: 'after the bulk' }]);
    const first = await service.context.conversations.changesAfter('acme', before, 10);
    expect(first.changes.map((batch) => batch.messages.length)).toEqual([30]);
    expect(first.more).toBe(true);
    const next = await service.context.conversations.changesAfter('acme', first.changes[0].seq, 10);
    expect(next).toEqual({ changes: [{ seq: first.changes[0].seq + 1, messages: [expect.objectContaining({ body: 'after the bulk' })] }], more: false });
  });

  it.runIf(dialect === 'postgres')('carries a webhook on one instance to a stream on another (LISTEN/NOTIFY)', async () => {
    second = await service.rebuild();
    const stream = await open(member.cookie);
    await stream.waitFor((event) => event.event === 'ready');
    const answer = await second.inject({
      method: 'POST',
      url: '/webhook',
      headers: { 'content-type': 'application/json', 'x-secret-key': service.key },
      payload: { event: 'sms.received', message: { from: ALICE, to: '+15550009999', body: 'via the other instance' } },
    });
    const sentAt = performance.now();
    expect(answer.statusCode).toBe(200);
    const batch = await stream.waitFor((event) => event.event === 'messages', 3000);
    expect(batch.data.messages).toEqual([expect.objectContaining({ body: 'via the other instance' })]);
    // Woken by the notification, not found by the safety poll (a minute here).
    expect(batch.at - sentAt).toBeLessThan(1000);
  });
});
