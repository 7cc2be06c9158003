import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { App } from '@switchboard/core';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { buildApp, loadConfig } from '../src/index.ts';
import { connectMcp, mcpCaller, startBoard, type Board, type Caller } from './helpers.ts';
import { openEventStream, type EventStream } from './event-stream.ts';

/** Redis for the cross-instance tests: TEST_REDIS_URL, else a local server if one answers. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
const redisAvailable = await redisAnswers(REDIS_URL);
if (!redisAvailable) process.stderr.write(`live-instances: Redis at ${REDIS_URL} does not answer; the Redis cases are skipped\n`);

/** A second instance of the board's service on the same database (and the same environment). */
async function startInstance(board: Board): Promise<{ app: App; url: string }> {
  const app = await buildApp(loadConfig(board.env));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/**
 * Two instances of the service on one database: the stream is opened on B, the MCP client calls A; each
 * change must reach B's stream within a second of A's answer. The safety poll is a minute, so only the
 * wake-up transport under test can deliver in time.
 */
function crossInstanceCase(label: string, dialect: 'sqlite' | 'postgres', env: () => Record<string, string>) {
  describe(label, () => {
    let board: Board;
    let second: { app: App; url: string };
    let client: Client;
    let mcp: Caller;
    let stream: EventStream;

    beforeAll(async () => {
      board = await startBoard(dialect, { key: 'TWIN', env: { TICKETS_EVENTS_POLL_MS: '60000', ...env() } });
      second = await startInstance(board);
      client = await connectMcp(board.url, board.token);
      mcp = mcpCaller(client);
      stream = await openEventStream(`${second.url}/api/projects/TWIN/events`, { authorization: `Bearer ${board.token}` });
      await stream.waitFor((e) => e.event === 'ready');
    });
    afterAll(async () => {
      stream?.close();
      await client?.close();
      await second?.app.close();
      await board?.close();
    });

    it("shows a change made on one instance on the other's stream within a second", async () => {
      const ticket = await mcp('create_ticket', { title: 'Across instances' });
      const created = performance.now();
      const first = await stream.waitFor((e) => e.event === 'change' && e.data.key === ticket.key, 1000);
      expect(first.at - created).toBeLessThan(1000);
      await mcp('move_ticket', { ticket_id: ticket.key, column_name: 'Review' });
      const moved = performance.now();
      const second = await stream.waitFor((e) => e.event === 'change' && e.data.action === 'moved', 1000);
      expect(second.at - moved).toBeLessThan(1000);
      expect((await stream.changes(2)).map((e) => [e.data.action, e.data.key])).toEqual([
        ['created', ticket.key],
        ['moved', ticket.key],
      ]);
    });
  });
}

describe('live updates across instances', () => {
  if (dialectsUnderTest().includes('postgres')) {
    crossInstanceCase('two instances on one PostgreSQL database (LISTEN/NOTIFY)', 'postgres', () => ({}));
  }
  if (redisAvailable) {
    for (const dialect of dialectsUnderTest()) {
      // A channel of this run only: other runs on the same Redis stay apart.
      crossInstanceCase(`two instances with REDIS_URL on ${dialect} (Redis pub/sub)`, dialect, () => ({
        REDIS_URL,
        TICKETS_EVENTS_CHANNEL: `test:${randomBytes(6).toString('hex')}:events`,
      }));
    }
  }
  it('runs at least the in-process case on SQLite (covered by live-updates.test.ts)', () => {
    expect(dialectsUnderTest()).toContain('sqlite');
  });
});
