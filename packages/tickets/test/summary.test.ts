import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createLogger } from '@switchboard/core';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { setProject, withTicketsStore } from '../src/index.ts';
import { SummaryWorker } from '../src/worker/summary-worker.ts';
import { llmSummarizer } from '../src/worker/summarizer.ts';
import { boardCaller, useBoard } from './helpers.ts';

interface FakeModel {
  url: string;
  requests: Array<{
    path: string;
    authorization: string | undefined;
    organization: string | undefined;
    body: { model: string; messages: Array<{ content: string }> };
  }>;
  reply: { status: number; text: string };
  /** While set, requests wait until it resolves. */
  hold: Promise<void> | undefined;
  /** Requests received, including those still held. */
  arrived: number;
  close(): Promise<void>;
}

/** A fake OpenAI-compatible server: answers chat completions with a canned text. */
async function startFakeModel(): Promise<FakeModel> {
  const fake: Partial<FakeModel> = { requests: [], reply: { status: 200, text: '' } };
  const readBody = async (request: IncomingMessage) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    return JSON.parse(text);
  };
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    fake.arrived! += 1;
    if (fake.hold) await fake.hold;
    fake.requests!.push({
      path: request.url!,
      authorization: request.headers.authorization,
      organization: request.headers['openai-organization'] as string | undefined,
      body,
    });
    response.writeHead(fake.reply!.status, { 'content-type': 'application/json' });
    if (fake.reply!.status !== 200) return response.end(JSON.stringify({ error: { message: 'model overloaded' } }));
    response.end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: fake.reply!.text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () => new Promise((done) => server.close(() => done()));
  fake.hold = undefined;
  fake.arrived = 0;
  return fake as FakeModel;
}

describe.each(dialectsUnderTest())('Auto-Summary on %s', (dialect) => {
  describe('extractive (no model configured)', () => {
    const board = useBoard(dialect);
    const call = boardCaller(board);

    it('summarizes in the background without changing updated_at, and refreshes after changes', async () => {
      const ticket = await call('create_ticket', {
        title: 'Add password reset',
        description: 'Users get a reset link by email. The link expires after one hour.',
      });
      expect(ticket.ai_summary).toBeNull();
      const metrics = async () => (await (await fetch(`${board.url}/metrics`)).text()).match(/^tickets_summary_queue_depth (\d+)$/m)?.[1];
      expect(await metrics()).toBe('1');
      await board.app.summaryWorker.drain();
      expect(await metrics()).toBe('0');
      const summarized = await call('get_ticket', { ticket_id: ticket.key });
      expect(summarized).toMatchObject({
        ai_summary: 'Add password reset. Users get a reset link by email. The link expires after one hour.',
        ai_summary_source: 'extractive',
        updated_at: ticket.updated_at,
      });
      await call('update_ticket', { ticket_id: ticket.key, description: 'Reset links by SMS instead.' });
      await board.app.summaryWorker.drain();
      expect((await call('get_ticket', { ticket_id: ticket.key })).ai_summary).toBe('Add password reset. Reset links by SMS instead.');
    });

    it('leaves tickets without a summary while the project has Auto-Summary off', async () => {
      await withTicketsStore(board.env, (db) => setProject(db, board.projectKey, { autoSummary: false }));
      const ticket = await call('create_ticket', { title: 'Quiet ticket', description: 'Nothing to see.' });
      await board.app.summaryWorker.drain();
      expect((await call('get_ticket', { ticket_id: ticket.key })).ai_summary).toBeNull();
      await withTicketsStore(board.env, (db) => setProject(db, board.projectKey, { autoSummary: true }));
      await board.app.summaryWorker.drain();
      expect((await call('get_ticket', { ticket_id: ticket.key })).ai_summary).toBe('Quiet ticket. Nothing to see.');
    });

    it('finds due tickets in a partial index of them, never by reading every ticket', async () => {
      const database = board.app.ticketsDb;
      const definition =
        dialect === 'postgres'
          ? (
              await sql<{
                def: string;
              }>`select indexdef as def from pg_indexes where schemaname = current_schema() and indexname = 'tickets_summary_due'`.execute(database.db)
            ).rows
          : (await sql<{ def: string }>`select sql as def from sqlite_master where type = 'index' and name = 'tickets_summary_due'`.execute(database.db)).rows;
      expect(definition).toHaveLength(1);
      expect(definition[0].def.replace(/["()]/g, '')).toMatch(
        /ON (\w+\.)?tickets (USING btree )?project_id, updated_at WHERE summarized_version < summary_version$/i,
      );
    });

    it('shares the work between workers: each due ticket is summarized exactly once', async () => {
      for (let i = 0; i < 6; i++) await call('create_ticket', { title: `Parallel ${i}` });
      const seen: string[] = [];
      const counting = {
        async summarize(input: { key: string }) {
          seen.push(input.key);
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { text: `summary of ${input.key}`, source: 'extractive' as const };
        },
      };
      const logger = createLogger({ service: 'tickets', level: 'silent' });
      const database = board.app.ticketsDb;
      const workers = [0, 1].map(
        () =>
          new SummaryWorker({
            db: database.db,
            dialect: database.dialect,
            signal: { notifyChannel: undefined, publish: () => undefined },
            summarizer: counting,
            logger,
            intervalMs: 1000,
            batchSize: 2,
          }),
      );
      await Promise.all(
        workers.map(async (worker) => {
          while ((await worker.runOnce()) > 0);
        }),
      );
      expect(seen.sort()).toEqual(Array.from({ length: 6 }, (_, i) => `${board.projectKey}-${i + 3}`).sort());
    });
  });

  describe('through an OpenAI-compatible model', () => {
    let model: FakeModel;
    beforeAll(async () => {
      model = await startFakeModel();
    });
    // After hooks run in reverse order: the board closes before the model.
    afterAll(() => model.close());
    const board = useBoard(dialect, () => ({
      env: { TICKETS_SUMMARY_BASE_URL: model.url, TICKETS_SUMMARY_MODEL: 'tiny-summarizer', TICKETS_SUMMARY_API_KEY: 'sk-test-key' },
    }));
    const call = boardCaller(board);

    it('stores the model summary with source llm; get_all_tickets cuts it to 200 characters', async () => {
      model.reply = { status: 200, text: `Adds OAuth login. ${'More detail. '.repeat(30)}` };
      const ticket = await call('create_ticket', { title: 'OAuth login', description: 'Sign in with GitHub.' });
      await call('add_comment', { ticket_id: ticket.key, content: 'Callback route done.' });
      await board.app.summaryWorker.drain();
      const stored = await call('get_ticket', { ticket_id: ticket.key });
      expect(stored.ai_summary_source).toBe('llm');
      expect(stored.ai_summary).toBe(model.reply.text.trim());
      expect(stored.updated_at).toBe(stored.comments[0].created_at);
      const request = model.requests.at(-1)!;
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.authorization).toBe('Bearer sk-test-key');
      expect(request.body.model).toBe('tiny-summarizer');
      expect(request.body.messages[1].content).toContain('OAuth login');
      expect(request.body.messages[1].content).toContain('Latest comment: Callback route done.');
      const index = await call('get_all_tickets');
      expect(index.tickets[0].ai_summary).toBe(stored.ai_summary.slice(0, 200));
    });

    it('sends no Authorization header without a key, and nothing from the OPENAI_* environment', async () => {
      model.reply = { status: 200, text: 'A local summary.' };
      const saved = { key: process.env.OPENAI_API_KEY, org: process.env.OPENAI_ORG_ID };
      Object.assign(process.env, { OPENAI_API_KEY: 'sk-env-key-should-not-leave', OPENAI_ORG_ID: 'org-env' });
      try {
        const summary = await llmSummarizer({ baseUrl: model.url, model: 'local', apiKey: undefined, timeoutMs: 5000 }).summarize({
          key: 'X-1',
          title: 'T',
          description: 'D',
        });
        expect(summary).toEqual({ text: 'A local summary.', source: 'llm' });
      } finally {
        if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
        if (saved.org === undefined) delete process.env.OPENAI_ORG_ID;
      }
      const request = model.requests.at(-1)!;
      expect(request.authorization).toBeUndefined();
      expect(request.organization).toBeUndefined();
    });

    it('never makes a write wait for the model', async () => {
      let release!: () => void;
      model.hold = new Promise((resolve) => (release = resolve));
      model.reply = { status: 200, text: 'Summary that arrived later.' };
      const slow = await call('create_ticket', { title: 'Summarized slowly' });
      const arrivedBefore = model.arrived;
      board.app.summaryWorker.poke();
      while (model.arrived === arrivedBefore) await new Promise((resolve) => setTimeout(resolve, 10));
      // The worker now waits on the model; writes must not. If they did, these calls would hang until the test times out.
      const ticket = await call('create_ticket', { title: 'Written while the model is slow' });
      expect(ticket.ai_summary).toBeNull();
      expect((await call('add_comment', { ticket_id: slow.key, content: 'still fast' })).content).toBe('still fast');
      model.hold = undefined;
      release();
      await board.app.summaryWorker.drain();
      expect(await call('get_ticket', { ticket_id: ticket.key })).toMatchObject({ ai_summary: 'Summary that arrived later.', ai_summary_source: 'llm' });
      expect(await call('get_ticket', { ticket_id: slow.key })).toMatchObject({ ai_summary: 'Summary that arrived later.', ai_summary_source: 'llm' });
    });

    it('falls back to an extractive summary when the model fails', async () => {
      model.reply = { status: 400, text: '' };
      const ticket = await call('create_ticket', { title: 'Flaky model', description: 'Still summarized.' });
      await board.app.summaryWorker.drain();
      expect(await call('get_ticket', { ticket_id: ticket.key })).toMatchObject({
        ai_summary: 'Flaky model. Still summarized.',
        ai_summary_source: 'extractive',
      });
    });
  });
});
