import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { consoleCall, receive, send, signedInUser, type SignedIn } from './console-helpers.ts';
import { startService, type TestService } from './helpers.ts';

const ALICE = '+15550000001';
const BOB = '+15550000002';
const CAROL = '+15550000003';

describe.each(dialectsUnderTest())('the console API on %s: conversations, threads and read marks', (dialect) => {
  let service: TestService;
  let admin: SignedIn;
  let member: SignedIn;
  let stranger: SignedIn;
  const base = '/api/orgs/acme';

  beforeAll(async () => {
    service = await startService(dialect);
    await service.context.orgs.createOrganization('other', 'Other', new Date());
    admin = await signedInUser(service, 'admin@example.com', { admin: true });
    member = await signedInUser(service, 'member@example.com', { memberOf: ['acme'] });
    stranger = await signedInUser(service, 'stranger@example.com', { memberOf: ['other'] });
    await receive(service, [
      { from: ALICE, body: 'Hi, this is Alice' },
      { from: BOB, body: 'Bob here', sim: 'sim2' },
    ]);
    await send(service, ALICE, 'Hello Alice');
    await receive(service, [{ from: ALICE, body: 'Thanks!' }]);
    await receive(service, [
      { from: CAROL, body: 'Carol 1' },
      { from: CAROL, body: 'Carol 2' },
    ]);
  });
  afterAll(async () => {
    await service?.close();
  });

  it('answers 401 without a key or session, and the same 401 for an expired or unknown session', async () => {
    expect(await consoleCall(service, undefined, `${base}/conversations`)).toEqual({ status: 401, body: { detail: 'Invalid credentials' } });
    const gone = `sb_session=${'x'.repeat(43)}`;
    expect(await consoleCall(service, gone, `${base}/conversations`)).toEqual({
      status: 401,
      body: { detail: 'Not signed in: the session expired or was signed out; sign in again' },
    });
  });

  it("answers 422 in pydantic's words before looking at the caller", async () => {
    const answer = await consoleCall(service, undefined, `${base}/conversations?limit=0&before=x&direction=sideways`);
    expect(answer.status).toBe(422);
    expect(answer.body.detail.map((issue: { type: string; loc: string[] }) => [issue.type, issue.loc.join('.')])).toEqual([
      ['greater_than_equal', 'query.limit'],
      ['int_parsing', 'query.before'],
      ['enum', 'query.direction'],
    ]);
    const read = await consoleCall(service, member.cookie, `${base}/conversations/${encodeURIComponent(ALICE)}/read`, {
      method: 'POST',
      body: { up_to_id: 'latest' },
    });
    expect(read).toEqual({
      status: 422,
      body: { detail: [{ type: 'int_type', loc: ['body', 'up_to_id'], msg: 'Input should be a valid integer', input: 'latest' }] },
    });
  });

  it('refuses a signed-in write from another origin (403), and a non-member with the 404 of an organization that does not exist', async () => {
    const foreign = await consoleCall(service, member.cookie, `${base}/conversations/${encodeURIComponent(ALICE)}/read`, {
      method: 'POST',
      body: { up_to_id: 1 },
      origin: 'https://evil.example',
    });
    expect(foreign).toEqual({ status: 403, body: { detail: 'Origin did not match: Origin "https://evil.example" is not this service\'s origin' } });
    const hidden = await consoleCall(service, stranger.cookie, `${base}/conversations`);
    const missing = await consoleCall(service, stranger.cookie, '/api/orgs/nope/conversations');
    expect(hidden).toEqual({ status: 404, body: { detail: 'Organization not found' } });
    expect(missing).toEqual(hidden);
    // Every console endpoint, and the public API with the session, says the same.
    for (const url of [
      `${base}/gateway`,
      `${base}/sims`,
      `${base}/keys`,
      `${base}/events`,
      `${base}/conversations/${encodeURIComponent(ALICE)}/messages`,
      '/messages/acme',
    ]) {
      expect(await consoleCall(service, stranger.cookie, url)).toEqual(hidden);
    }
    expect(await consoleCall(service, stranger.cookie, '/send/acme', { method: 'POST', body: { to: ALICE, body: 'hi' } })).toEqual(hidden);
  });

  it("lists conversations by number, the latest message first, with counts and the caller's unread inbound messages", async () => {
    const answer = await consoleCall(service, member.cookie, `${base}/conversations`);
    expect(answer.status).toBe(200);
    expect(answer.body.next_before).toBeNull();
    expect(answer.body.seq).toBe((await service.context.conversations.latestChange('acme'))!);
    expect(
      answer.body.conversations.map((c: { peer: string; message_count: number; unread: number; last_message: { body: string } }) => [
        c.peer,
        c.message_count,
        c.unread,
        c.last_message.body,
      ]),
    ).toEqual([
      [CAROL, 2, 2, 'Carol 2'],
      [ALICE, 3, 2, 'Thanks!'],
      [BOB, 1, 1, 'Bob here'],
    ]);
    // The last message is the full record, as every endpoint writes it.
    expect(Object.keys(answer.body.conversations[0].last_message)).toEqual([
      'id',
      'org_id',
      'direction',
      'sim',
      'from',
      'to',
      'body',
      'status',
      'segments',
      'gateway',
      'external_id',
      'error',
      'received_at',
      'sent_at',
      'delivered_at',
      'created_at',
      'updated_at',
    ]);
  });

  it('pages the list with next_before, and filters it by SIM (id or number) and direction', async () => {
    const first = await consoleCall(service, member.cookie, `${base}/conversations?limit=2`);
    expect(first.body.conversations.map((c: { peer: string }) => c.peer)).toEqual([CAROL, ALICE]);
    const second = await consoleCall(service, member.cookie, `${base}/conversations?limit=2&before=${first.body.next_before}`);
    expect(second.body).toMatchObject({ conversations: [{ peer: BOB }], next_before: null });
    const onSim2 = await consoleCall(service, member.cookie, `${base}/conversations?sim=sim2`);
    expect(onSim2.body.conversations.map((c: { peer: string }) => c.peer)).toEqual([BOB]);
    await service.context.orgs.setSim('acme', 'sim2', { phoneNumber: '+15557770002' }, new Date());
    expect(
      (await consoleCall(service, member.cookie, `${base}/conversations?sim=%2B15557770002`)).body.conversations.map((c: { peer: string }) => c.peer),
    ).toEqual([BOB]);
    const outbound = await consoleCall(service, member.cookie, `${base}/conversations?direction=outbound`);
    expect(outbound.body.conversations.map((c: { peer: string; last_message: { body: string } }) => [c.peer, c.last_message.body])).toEqual([
      [ALICE, 'Hello Alice'],
    ]);
  });

  it("shows a conversation's thread in order, a page at a time back from the latest, filtered by direction", async () => {
    const url = `${base}/conversations/${encodeURIComponent(ALICE)}/messages`;
    const whole = await consoleCall(service, member.cookie, url);
    expect(whole.body.messages.map((m: { body: string; direction: string }) => [m.direction, m.body])).toEqual([
      ['inbound', 'Hi, this is Alice'],
      ['outbound', 'Hello Alice'],
      ['inbound', 'Thanks!'],
    ]);
    expect(whole.body.next_before_id).toBeNull();
    const latest = await consoleCall(service, member.cookie, `${url}?limit=2`);
    expect(latest.body.messages.map((m: { body: string }) => m.body)).toEqual(['Hello Alice', 'Thanks!']);
    const older = await consoleCall(service, member.cookie, `${url}?limit=2&before=${latest.body.next_before_id}`);
    expect(older.body).toMatchObject({ messages: [{ body: 'Hi, this is Alice' }], next_before_id: null });
    expect((await consoleCall(service, member.cookie, `${url}?direction=outbound`)).body.messages.map((m: { body: string }) => m.body)).toEqual([
      'Hello Alice',
    ]);
    expect((await consoleCall(service, member.cookie, `${base}/conversations/${encodeURIComponent('+19999')}/messages`)).body).toEqual({
      peer: '+19999',
      messages: [],
      next_before_id: null,
    });
  });

  it('marks a conversation read per reader, never backwards, up to a message before the latest too', async () => {
    const thread = (await consoleCall(service, member.cookie, `${base}/conversations/${encodeURIComponent(ALICE)}/messages`)).body.messages as Array<{
      id: number;
    }>;
    const read = `${base}/conversations/${encodeURIComponent(ALICE)}/read`;
    const partly = await consoleCall(service, member.cookie, read, { method: 'POST', body: { up_to_id: thread[1].id } });
    expect(partly.status).toBe(200);
    expect(partly.body).toMatchObject({ peer: ALICE, unread: 1, message_count: 3 });
    expect((await consoleCall(service, member.cookie, read, { method: 'POST', body: { up_to_id: thread[2].id + 1000 } })).body.unread).toBe(0);
    expect((await consoleCall(service, member.cookie, read, { method: 'POST', body: { up_to_id: thread[0].id } })).body.unread).toBe(0);
    // Another reader's counts are their own: the admin has read nothing, nor has the organization's key.
    const forAdmin = (await consoleCall(service, admin.cookie, `${base}/conversations`)).body.conversations as Array<{ peer: string; unread: number }>;
    expect(forAdmin.find((c) => c.peer === ALICE)?.unread).toBe(2);
    const withKey = await service.app.inject({ method: 'GET', url: `${base}/conversations`, headers: { 'x-secret-key': service.key } });
    expect(withKey.json().conversations.find((c: { peer: string }) => c.peer === ALICE).unread).toBe(2);
    // A new message counts as unread again.
    await receive(service, [{ from: ALICE, body: 'One more thing' }]);
    expect((await consoleCall(service, member.cookie, `${base}/conversations`)).body.conversations[0]).toMatchObject({
      peer: ALICE,
      unread: 1,
      message_count: 4,
    });
    expect(
      await consoleCall(service, member.cookie, `${base}/conversations/${encodeURIComponent('+19999')}/read`, { method: 'POST', body: { up_to_id: 1 } }),
    ).toEqual({ status: 404, body: { detail: 'Conversation not found' } });
  });

  it("lists a signed-in user's organizations in the session (an admin all of them, a member theirs)", async () => {
    expect((await consoleCall(service, admin.cookie, '/api/session')).body.organizations).toEqual([
      { org_id: 'acme', name: 'Acme' },
      { org_id: 'other', name: 'Other' },
    ]);
    expect((await consoleCall(service, member.cookie, '/api/session')).body).toEqual({
      user: { id: member.id, email: 'member@example.com', name: expect.any(String), role: 'member' },
      organizations: [{ org_id: 'acme', name: 'Acme' }],
    });
  });

  it('lets a signed-in member use the public API with the session instead of a key: listing and sending', async () => {
    const listed = await consoleCall(service, member.cookie, '/messages/acme?direction=outbound');
    expect(listed.status).toBe(200);
    expect(listed.body.messages.map((m: { body: string }) => m.body)).toEqual(['Hello Alice']);
    const sent = await consoleCall(service, member.cookie, '/send/acme', { method: 'POST', body: { to: BOB, body: 'From the console' } });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ to: BOB, status: 'queued', warning: expect.stringContaining('No gateway driver') });
    expect((await consoleCall(service, member.cookie, '/send/acme', { method: 'POST', body: { to: BOB, body: 'x' }, origin: false })).status).toBe(403);
  });

  it('gives a signed-in visitor of / the console, and everyone else the public page', async () => {
    const publicPage = await service.app.inject({ method: 'GET', url: '/' });
    expect(publicPage.statusCode).toBe(200);
    expect(publicPage.body).toContain('Switchboard SMS message store');
    expect(publicPage.headers.vary).toBe('Cookie');
    const expired = await service.app.inject({ method: 'GET', url: '/', headers: { cookie: `sb_session=${'y'.repeat(43)}` } });
    expect(expired.body).toContain('Switchboard SMS message store');
    const console = await service.app.inject({ method: 'GET', url: '/', headers: { cookie: member.cookie } });
    // The UI's index.html when built (the test run builds it), else the page saying how to build it.
    expect(console.body).not.toContain('Switchboard SMS message store');
    expect(console.headers['content-security-policy']).toContain("default-src 'self'");
  });
});
