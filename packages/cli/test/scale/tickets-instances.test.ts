import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type App } from '@switchboard/core';
import { createTestDatabase, type TestDatabase } from '@switchboard/core/testing';
import { buildApp, createProject, createToken, loadConfig, setProject, withTicketsStore } from '@switchboard/tickets';
import { NGINX, startNginx, type RunningNginx } from './nginx.ts';

const postgres = process.env.TEST_DATABASE_URL;
const SUBS_PER_AGENT = 10;

/** A summarizing model that answers at once and records which ticket titles it was asked about. */
async function startModel(): Promise<{ url: string; titles: string[]; close(): Promise<void> }> {
  const titles: string[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw);
      const prompt = body.messages.map((m: { content: string }) => m.content).join('\n');
      titles.push(/Summary me \d+/.exec(prompt)?.[0] ?? 'other');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'c',
          object: 'chat.completion',
          created: 1,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'A short summary.' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`,
    titles,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The fields of a ticket's answer these tests read (every call below answers a ticket). */
interface TicketAnswer {
  key: string;
  column?: string;
  column_name?: string;
  activity: Array<{ action: string; detail: string }>;
}

/** Calls a tool over REST; returns status and body. */
async function rest(base: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: TicketAnswer }> {
  const response = await fetch(`${base}/api/mcp/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json() };
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!postgres || !NGINX)('two ticket board instances on one PostgreSQL behind nginx', () => {
  let database: TestDatabase;
  let model: Awaited<ReturnType<typeof startModel>>;
  let nginx: RunningNginx;
  const apps: App[] = [];
  const urls: string[] = [];
  let token = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    model = await startModel();
    env = { ...database.env, LOG_LEVEL: 'silent', TICKETS_SUMMARY_BASE_URL: model.url, TICKETS_SUMMARY_INTERVAL_MS: '100', TRUST_PROXY: '127.0.0.1' };
    await withTicketsStore(env, (db) => createProject(db, { key: 'DUO', name: 'Duo' }));
    await withTicketsStore(env, (db) => setProject(db, 'DUO', { autoSummary: false }));
    token = (await withTicketsStore(env, (db) => createToken(db, 'DUO', 'agent'))).token;
    for (const _ of [0, 1]) {
      const app = await buildApp(loadConfig(env));
      apps.push(app);
      urls.push(await listen(app, '127.0.0.1', 0));
    }
    nginx = await startNginx({ tickets: urls.map((url) => url.replace('http://', '')) });
  });
  afterAll(async () => {
    await nginx?.close();
    for (const app of apps) {
      app.server.closeAllConnections();
      await app.close();
    }
    await model?.close();
    await database?.cleanup();
  });

  it('gives sub-tickets created and moved at once on both instances distinct numbers, ends the epic in Done, and records each change once', async () => {
    const epic = await rest(urls[0], token, 'POST', '/tickets', { title: 'Shared epic', ticket_type: 'epic' });
    expect(epic.status).toBe(201);
    // Two agents, one per instance, create their sub-tickets concurrently, then walk each to Done.
    const agent = async (base: string, name: string) => {
      const created = await Promise.all(
        Array.from({ length: SUBS_PER_AGENT }, (_, i) => rest(base, token, 'POST', `/tickets/${epic.body.key}/sub-ticket`, { title: `${name} ${i}` })),
      );
      expect(created.map((answer) => answer.status)).toEqual(Array(SUBS_PER_AGENT).fill(201));
      await Promise.all(
        created.map(async ({ body }) => {
          for (const column of ['In Progress', 'Done']) {
            const moved = await rest(base, token, 'POST', `/tickets/${body.key}/move`, { column_name: column });
            expect(moved.status).toBe(200);
          }
        }),
      );
      return created.map(({ body }) => body.key as string);
    };
    const [a, b] = await Promise.all([agent(urls[0], 'agent A'), agent(urls[1], 'agent B')]);

    const keys = [epic.body.key, ...a, ...b];
    expect(new Set(keys).size).toBe(1 + 2 * SUBS_PER_AGENT);
    expect(keys.map((key) => Number(key.split('-')[1])).sort((x, y) => x - y)).toEqual(Array.from({ length: 1 + 2 * SUBS_PER_AGENT }, (_, i) => i + 1));

    // Read back through nginx (either instance).
    const epicNow = await rest(nginx.urls.tickets!, token, 'GET', `/tickets/${epic.body.key}`);
    expect(epicNow.status).toBe(200);
    expect(epicNow.body.column_name ?? epicNow.body.column).toBe('Done');
    const story = (ticket: { body: { activity: Array<{ action: string; detail: string }> } }) =>
      ticket.body.activity.map((entry) => `${entry.action}: ${entry.detail}`);
    // The epic moved once when work started and once when the last sub-ticket was done, whatever the interleaving.
    expect(story(epicNow)).toEqual([
      'created: created in Backlog',
      'auto_moved: moved from Backlog to In Progress: work started on a sub-ticket',
      'auto_moved: moved from In Progress to Done: all sub-tickets are done',
    ]);
    for (const key of [...a, ...b]) {
      const ticket = await rest(nginx.urls.tickets!, token, 'GET', `/tickets/${key}`);
      expect(story(ticket)).toEqual([
        `created: created in Backlog as a sub-ticket of ${epic.body.key}`,
        'moved: moved from Backlog to In Progress',
        'moved: moved from In Progress to Done',
      ]);
    }
  });

  it('summarizes each due ticket exactly once with the summary workers of both instances', async () => {
    for (let i = 0; i < 30; i++) expect((await rest(nginx.urls.tickets!, token, 'POST', '/tickets', { title: `Summary me ${i}` })).status).toBe(201);
    expect(model.titles).toEqual([]);
    // Auto-Summary on: all 30 are due at once, and both workers look every 100 ms.
    await withTicketsStore(env, (db) => setProject(db, 'DUO', { autoSummary: true }));
    await until(async () => {
      const rows = await apps[0].ticketsDb.db.selectFrom('tickets').select(['title', 'ai_summary']).where('title', 'like', 'Summary me %').execute();
      return rows.every((row) => row.ai_summary !== null);
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const asked = model.titles.filter((title) => title.startsWith('Summary me'));
    expect(asked.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `Summary me ${i}`).sort());
  });

  it('streams server-sent events through nginx as they happen, whichever instance made the change', async () => {
    const stream = await fetch(`${nginx.urls.tickets}/api/projects/DUO/events`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
    expect({ status: stream.status, type: stream.headers.get('content-type') }).toEqual({ status: 200, type: 'text/event-stream; charset=utf-8' });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('event: ready')) text += (await reader.read()).value ?? '';
    for (const base of urls) {
      const created = await rest(base, token, 'POST', '/tickets', { title: `live from ${base}` });
      while (!text.includes(`"key":"${created.body.key}"`)) text += (await reader.read()).value ?? '';
    }
    await reader.cancel();
  });
});
