import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { startGatedUpstream, type GatedUpstream } from './gated-upstream.ts';
import { prepareFlows, startStreamingRun, type FlowsFixture } from './flows-fixture.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { openSmsAdmin } from '@switchboard/sms';
import { createProject, createToken, withTicketsStore } from '@switchboard/tickets';

/** Outcome counts of a load that a kill -9 interrupted (for the log and the closing note). */
interface CrashCounts {
  acknowledged: number;
  found: number;
  lost: number;
  /** Requests the kill cut off (no answer): each stored whole or not at all. */
  cut: number;
}

/**
 * Sends `write(n)` from `concurrency` loops until the process dies; returns the numbers answered 2xx and those
 * that got no answer (the kill cut them off).
 */
async function loadUntilKilled(write: (n: number) => Promise<Response>, concurrency: number, killAfter: number, kill: () => void) {
  const acknowledged: number[] = [];
  const cut: number[] = [];
  let n = 0;
  let dead = false;
  const loop = async () => {
    while (!dead) {
      const id = n++;
      try {
        const response = await write(id);
        await response.arrayBuffer();
        if (response.status >= 200 && response.status < 300) acknowledged.push(id);
        if (acknowledged.length === killAfter && !dead) {
          dead = true;
          kill();
        }
      } catch {
        cut.push(id);
        dead = true;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => loop()));
  return { acknowledged, cut };
}

/** A gateway whose answers the test releases; it counts the attempts it answered (a killed caller gets none). */
async function startHoldingGateway() {
  const held: Array<{ res: ServerResponse; id: number }> = [];
  const answered: number[] = [];
  const attempts: number[] = [];
  let holding = true;
  const answer = (res: ServerResponse, id: number) => {
    if (res.destroyed || res.socket?.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}', () => answered.push(id));
  };
  const server: Server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const { id } = JSON.parse(raw) as { id: number };
      attempts.push(id);
      if (holding) held.push({ res, id });
      else answer(res, id);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/gateway`,
    attempts,
    answered,
    release() {
      holding = false;
      for (const { res, id } of held.splice(0)) answer(res, id);
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `check` every 50 ms until it returns a value, for at most `timeoutMs`. */
async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(dialectsUnderTest())('kill -9 of a service instance on %s', (dialect) => {
  let database: TestDatabase;
  let upstream: GatedUpstream;
  let flows: FlowsFixture;
  const started: ServiceProcess[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    upstream = await startGatedUpstream();
    flows = await prepareFlows(database.env, upstream.url);
  });
  afterAll(async () => {
    for (const service of started) await service.kill();
    await upstream?.close();
    await database?.cleanup();
  });

  it('leaves a flow run that was streaming recorded: running at once, then failed by a live instance within timeout + 5 s + one sweep interval', async () => {
    // The survivor sweeps with a short timeout and interval, so that the run counts as abandoned within seconds;
    // the doomed instance's own timeout is long, so that the run is still in flight however slowly the kill comes.
    const env = { ...database.env, FLOWS_RUN_TIMEOUT_MS: '1000', FLOWS_RUN_SWEEP_MS: '300' };
    const doomed = await startServiceProcess('flows', { ...env, FLOWS_RUN_TIMEOUT_MS: '120000' });
    started.push(doomed);
    const run = await startStreamingRun(doomed.url, flows.runToken);
    expect(run.response.status).toBe(200);
    doomed.signal('SIGKILL');
    expect(await doomed.exited).toBe('SIGKILL');

    // PostgreSQL: another instance takes over; SQLite (one instance by design): the restart.
    const survivor = await startServiceProcess('flows', env);
    started.push(survivor);
    const read = async () => {
      const response = await fetch(`${survivor.url}/api/llm/acme/runs/${run.runId}`, { headers: { authorization: `Bearer ${flows.manageToken}` } });
      return { status: response.status, body: await response.json() };
    };
    const first = await read();
    expect({ status: first.status, id: first.body.id }).toEqual({ status: 200, id: run.runId });
    const failed = await eventually(async () => {
      const now = await read();
      return now.body.status === 'running' ? undefined : now;
    });
    expect({ status: failed.status, run: failed.body.status, error: failed.body.error }).toEqual({
      status: 200,
      run: 'failed',
      error: {
        message: 'The instance running this flow stopped before the run finished (a crash or a kill); run it again.',
        type: 'api_error',
        param: null,
        code: 'run_abandoned',
      },
    });
    // Abandoned once older than the timeout (1 s) plus 5 s of grace, and found by the next sweep (every 300 ms;
    // a busy machine's sweep may come a little late).
    const abandonedAfter = Date.parse(failed.body.finished_at) - Date.parse(failed.body.started_at);
    expect(abandonedAfter).toBeGreaterThanOrEqual(6000);
    expect(abandonedAfter).toBeLessThan(6000 + 300 + 2000);
    // Its 1-second run timeout would count the next test's slower runs (recorded running after a second) as
    // abandoned: it shares the database with them.
    await survivor.kill();
  }, 60_000);

  it('loses no acknowledged webhook, half-stores none, and sends a message it had claimed after the restart', async () => {
    const gateway = await startHoldingGateway();
    const admin = await openSmsAdmin({ ...database.env, LOG_LEVEL: 'silent' });
    let key: string;
    try {
      key = (await admin.orgs.createOrganization('acme', 'Acme', new Date())).secretKey;
      await admin.orgs.setGateway('acme', 'webhook', { url: gateway.url }, new Date());
    } finally {
      await admin.close();
    }
    // A send times out after 1.5 s, so a claim lasts 3 s (twice that).
    const env = { ...database.env, SMS_WORKER_INTERVAL_MS: '100', SMS_SEND_TIMEOUT_MS: '1500', SMS_CLAIM_LEASE_MS: '1000' };
    const doomed = await startServiceProcess('sms', env);
    started.push(doomed);

    // Webhooks of three messages each, from 8 senders, until kill -9 after 200 acknowledged.
    const webhook = (n: number) =>
      fetch(`${doomed.url}/webhook`, {
        method: 'POST',
        headers: { 'x-secret-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({
          events: [0, 1, 2].map((part) => ({ event: 'sms.received', message: { from: '+15550001111', to: '+15559990000', body: `hook ${n} part ${part}` } })),
        }),
      });
    const { acknowledged, cut } = await loadUntilKilled(webhook, 8, 200, () => doomed.signal('SIGKILL'));
    expect(await doomed.exited).toBe('SIGKILL');

    // A message the worker claims and hands to the gateway, which holds its answer: kill -9 during that call.
    const second = await startServiceProcess('sms', env);
    started.push(second);
    const queued = await fetch(`${second.url}/send/acme`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: '+15551234567', body: 'claimed when killed' }),
    });
    const message = (await queued.json()) as { id: number };
    await eventually(async () => (gateway.attempts.length > 0 ? true : undefined));
    second.signal('SIGKILL');
    expect(await second.exited).toBe('SIGKILL');

    const restarted = await startServiceProcess('sms', env);
    started.push(restarted);
    gateway.release();
    const parts = new Map<number, number>();
    let statusOfClaimed = '';
    for (let sinceId = 0; ; ) {
      const page = await (await fetch(`${restarted.url}/messages/acme/${key}?limit=1000&since_id=${sinceId}`)).json();
      for (const stored of page.messages) {
        const match = /^hook (\d+) part \d$/.exec(stored.body);
        if (match) parts.set(Number(match[1]), (parts.get(Number(match[1])) ?? 0) + 1);
        if (stored.id === message.id) statusOfClaimed = stored.status;
      }
      sinceId = page.next_since_id;
      if (!page.has_more) break;
    }
    const counts: CrashCounts = {
      acknowledged: acknowledged.length,
      found: acknowledged.filter((n) => parts.get(n) === 3).length,
      lost: acknowledged.filter((n) => parts.get(n) !== 3).length,
      cut: cut.length,
    };
    console.log(`sms kill -9 on ${dialect}: ${JSON.stringify(counts)}`);
    expect(counts.lost).toBe(0);
    expect(cut.filter((n) => parts.has(n) && parts.get(n) !== 3)).toEqual([]);
    expect(statusOfClaimed).not.toBe('');

    // The claimed message: claimed again once its lease passed, and sent; the gateway answered it once.
    await eventually(async () => {
      const page = await (await fetch(`${restarted.url}/messages/acme/${key}?limit=1&since_id=${message.id - 1}`)).json();
      return page.messages[0]?.status === 'sent' ? true : undefined;
    });
    expect(gateway.answered).toEqual([message.id]);
    expect(gateway.attempts).toEqual([message.id, message.id]);
    await gateway.close();
  }, 60_000);

  it('loses no ticket write answered 2xx', async () => {
    await withTicketsStore({ ...database.env, LOG_LEVEL: 'silent' }, (db) => createProject(db, { key: 'CRASH', name: 'Crash' }));
    const token = (await withTicketsStore({ ...database.env, LOG_LEVEL: 'silent' }, (db) => createToken(db, 'CRASH', 'agent'))).token;
    const doomed = await startServiceProcess('tickets', { ...database.env, TICKETS_SUMMARY_WORKER: 'off' });
    started.push(doomed);
    const write = (n: number) =>
      fetch(`${doomed.url}/api/mcp/v1/tickets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `write ${n}` }),
      });
    const { acknowledged, cut } = await loadUntilKilled(write, 8, 150, () => doomed.signal('SIGKILL'));
    expect(await doomed.exited).toBe('SIGKILL');
    const restarted = await startServiceProcess('tickets', { ...database.env, TICKETS_SUMMARY_WORKER: 'off' });
    started.push(restarted);
    const titles = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await (
        await fetch(`${restarted.url}/api/mcp/v1/tickets?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers: { authorization: `Bearer ${token}` } })
      ).json();
      for (const ticket of page.tickets) titles.add(ticket.title);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    const counts: CrashCounts = {
      acknowledged: acknowledged.length,
      found: acknowledged.filter((n) => titles.has(`write ${n}`)).length,
      lost: acknowledged.filter((n) => !titles.has(`write ${n}`)).length,
      cut: cut.length,
    };
    console.log(`tickets kill -9 on ${dialect}: ${JSON.stringify(counts)}`);
    expect(counts.lost).toBe(0);
    expect(counts.found).toBe(counts.acknowledged);
  }, 60_000);

  it('loses no flow run answered 200: each X-Run-Id is found after the restart', async () => {
    const doomed = await startServiceProcess('flows', { ...database.env });
    started.push(doomed);
    const runIds = new Map<number, string>();
    const run = async (n: number) => {
      const response = await fetch(`${doomed.url}/api/llm/acme/flows/mem/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${flows.runToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: { question: `run ${n}` } }),
      });
      if (response.status === 200) runIds.set(n, response.headers.get('x-run-id')!);
      return response;
    };
    const { acknowledged, cut } = await loadUntilKilled(run, 8, 150, () => doomed.signal('SIGKILL'));
    expect(await doomed.exited).toBe('SIGKILL');
    const restarted = await startServiceProcess('flows', { ...database.env });
    started.push(restarted);
    let found = 0;
    for (const n of acknowledged) {
      const response = await fetch(`${restarted.url}/api/llm/acme/runs/${runIds.get(n)}`, { headers: { authorization: `Bearer ${flows.manageToken}` } });
      const body = await response.json();
      if (response.status === 200 && body.status === 'succeeded' && body.output === `History: user:run ${n}`) found += 1;
    }
    const counts: CrashCounts = { acknowledged: acknowledged.length, found, lost: acknowledged.length - found, cut: cut.length };
    console.log(`flows kill -9 on ${dialect}: ${JSON.stringify(counts)}`);
    expect(counts.lost).toBe(0);
  }, 60_000);
});
