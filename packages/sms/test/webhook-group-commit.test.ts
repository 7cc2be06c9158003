import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startService, type TestService } from './helpers.ts';

/** The group commit's histogram on /metrics: how many commits, holding how many webhook transactions. */
async function groupCommits(service: TestService): Promise<{ commits: number; transactions: number } | undefined> {
  const text = (await service.app.inject({ method: 'GET', url: '/metrics' })).body;
  const value = (name: string) => /^(\S+) (\d+)$/m.exec(text.split('\n').find((line) => line.startsWith(`${name} `)) ?? '')?.[2];
  const commits = value('sms_group_commit_transactions_count');
  return commits === undefined ? undefined : { commits: Number(commits), transactions: Number(value('sms_group_commit_transactions_sum')) };
}

describe.each(dialectsUnderTest())('webhooks arriving together on %s', (dialect) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(dialect);
  });
  afterAll(() => service.close());

  const post = (externalId: string, body: string) =>
    service.app.inject({
      method: 'POST',
      url: '/webhook',
      headers: { 'content-type': 'application/json', 'x-secret-key': service.key },
      payload: JSON.stringify({ event: 'sms.received', message: { from: '+15550001111', to: '+15552223333', body, sim: 'sim1', external_id: externalId } }),
    });

  it('stores each event once, answers each request with its own ids, and counts a repeated event id as a duplicate', async () => {
    const sent = [
      ['g-1', 'one'],
      ['g-2', 'two'],
      ['g-1', 'one again'],
      ['g-3', 'three'],
      ['g-2', 'two again'],
    ];
    const answers = await Promise.all(sent.map(([externalId, body]) => post(externalId, body)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const bodies = answers.map((answer) => answer.json() as { status: string; stored: number[]; duplicates: number; updated: number });
    // Each request is either stored (one id) or a duplicate; of two with the same event id, exactly one is stored.
    expect(bodies.map((body) => [body.status, body.stored.length + body.duplicates, body.updated])).toEqual(Array(5).fill(['ok', 1, 0]));
    expect([bodies[0].stored.length + bodies[2].stored.length, bodies[1].stored.length + bodies[4].stored.length, bodies[3].stored.length]).toEqual([1, 1, 1]);
    if (dialect === 'sqlite') {
      // One writer, in arrival order: the first of each pair is the one stored.
      expect(bodies.map((body) => body.duplicates)).toEqual([0, 0, 1, 0, 1]);
    }
    const storedBodies = bodies.flatMap((body, i) => body.stored.map((id) => [id, sent[i][1]]));
    storedBodies.sort((a, b) => Number(a[0]) - Number(b[0]));
    const listed = await service.app.inject({ method: 'GET', url: `/messages/acme/${service.key}` });
    expect(listed.json().messages.map((message: { id: number; body: string }) => [message.id, message.body])).toEqual(storedBodies);
    const sims = (await service.app.inject({ method: 'GET', url: `/sims/acme/${service.key}` })).json();
    expect(sims.sims.map((entry: { sim: string; message_count: number }) => [entry.sim, entry.message_count])).toEqual([['sim1', 3]]);
    // SQLite commits the five together (one commit); PostgreSQL gives each its own transaction and has no such metric.
    expect(await groupCommits(service)).toEqual(dialect === 'sqlite' ? { commits: 1, transactions: 5 } : undefined);
  });

  it('gives each request of a turn its own messages in order, across batch requests and organizations', async () => {
    const other = await service.context.orgs.createOrganization('globex', 'Globex', new Date());
    const event = (org: string, n: number) => ({
      event: 'sms.received',
      message: { from: `+1555000${org === 'acme' ? '2' : '3'}${String(n).padStart(3, '0')}`, to: '+15552223333', body: `${org} ${n}`, sim: `sim-${org}` },
    });
    const sent: Array<[key: string, org: string, numbers: number[]]> = [
      [service.key, 'acme', [1, 2, 3]],
      [other.secretKey, 'globex', [1]],
      [service.key, 'acme', [4]],
      [other.secretKey, 'globex', [2, 3]],
      [service.key, 'acme', [5, 6]],
    ];
    const answers = await Promise.all(
      sent.map(([key, org, numbers]) =>
        service.app.inject({
          method: 'POST',
          url: '/webhook',
          headers: { 'content-type': 'application/json', 'x-secret-key': key },
          payload: JSON.stringify(numbers.length === 1 ? event(org, numbers[0]) : { events: numbers.map((n) => event(org, n)) }),
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const stored = answers.map((answer) => (answer.json() as { stored: number[] }).stored);
    for (const [org, key] of [
      ['acme', service.key],
      ['globex', other.secretKey],
    ]) {
      const listed = (await service.app.inject({ method: 'GET', url: `/messages/${org}/${key}?limit=100` })).json() as {
        messages: Array<{ id: number; body: string }>;
      };
      const byId = new Map(listed.messages.filter((message) => message.body.startsWith(org)).map((message) => [message.id, message.body]));
      // Each request's ids are its own messages, ascending in the order it sent them.
      for (const [i, [, of, numbers]] of sent.entries()) {
        if (of === org) expect(stored[i].map((id) => byId.get(id))).toEqual(numbers.map((n) => `${org} ${n}`));
      }
      const sims = (await service.app.inject({ method: 'GET', url: `/sims/${org}/${key}` })).json() as { sims: Array<{ sim: string; message_count: number }> };
      expect(sims.sims.filter((sim) => sim.sim === `sim-${org}`).map((sim) => sim.message_count)).toEqual([org === 'acme' ? 6 : 3]);
      const conversations = await service.context.conversations.list(org, 'reader', { sim: null, direction: null }, { limit: 50, before: null });
      // One conversation per sender, each with its one unread message (PostgreSQL may commit the requests in any order).
      const listedConversations = conversations.conversations
        .filter((c) => c.last_message.body.startsWith(org))
        .map((c) => [c.peer, c.message_count, c.unread]);
      expect(listedConversations.sort()).toEqual(
        (org === 'acme' ? [1, 2, 3, 4, 5, 6] : [1, 2, 3]).map((n) => [`+1555000${org === 'acme' ? '2' : '3'}${String(n).padStart(3, '0')}`, 1, 1]),
      );
    }
    if (dialect === 'sqlite') expect(await groupCommits(service)).toEqual({ commits: 2, transactions: 10 });
  });

  it('stores the webhooks of a turn when one of them fails, and refuses only that one', async () => {
    const received = (body: string) => [
      {
        kind: 'received' as const,
        eventId: null,
        from: '+15550009999',
        to: '+15552223333',
        body,
        sim: null,
        externalId: null,
        receivedAt: null,
        deviceId: null,
        slot: null,
      },
    ];
    const at = new Date();
    const results = await Promise.allSettled([
      service.context.messages.applyWebhook('acme', 'native', received('kept 1'), at),
      // No such organization: its lock finds no row.
      service.context.messages.applyWebhook('no-such-org', 'native', received('refused'), at),
      service.context.messages.applyWebhook('acme', 'native', received('kept 2'), at),
    ]);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value.stored.length : (result.reason as Error).message))).toEqual([
      1,
      'Invalid credentials',
      1,
    ]);
    const listed = (await service.app.inject({ method: 'GET', url: `/messages/acme/${service.key}?limit=100` })).json() as {
      messages: Array<{ body: string }>;
    };
    expect(
      listed.messages
        .map((message) => message.body)
        .filter((body) => /^(kept|refused)/.test(body))
        .sort(),
    ).toEqual(['kept 1', 'kept 2']);
  });
});
