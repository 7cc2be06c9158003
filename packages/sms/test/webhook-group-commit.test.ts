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
});
