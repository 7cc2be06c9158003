import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@switchboard/core/testing';
import { startGatedUpstream, type GatedUpstream } from './gated-upstream.ts';
import { prepareFlows, startStreamingRun, type FlowsFixture } from './flows-fixture.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';
import { createProject, createToken, withTicketsStore } from '@switchboard/tickets';

/** A GET on a new connection: its status, or the connection error's code. */
async function statusOrError(url: string): Promise<number | string> {
  try {
    return (await fetch(url, { headers: { connection: 'close' } })).status;
  } catch (error) {
    return ((error as Error).cause as NodeJS.ErrnoException)?.code ?? String(error);
  }
}

describe('SIGTERM to a service process', () => {
  let database: TestDatabase;
  let upstream: GatedUpstream;
  let fixture: FlowsFixture;
  const started: ServiceProcess[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    upstream = await startGatedUpstream();
    fixture = await prepareFlows(database.env, upstream.url);
  });
  afterAll(async () => {
    for (const service of started) await service.kill();
    await upstream?.close();
    await database?.cleanup();
  });

  it('refuses new connections at once, lets an open JSON Lines stream finish, then exits 0', async () => {
    const service = await startServiceProcess('flows', { ...database.env, SHUTDOWN_GRACE_MS: '20000', LOG_LEVEL: 'info' });
    started.push(service);
    expect(await statusOrError(`${service.url}/health`)).toBe(200);
    const run = await startStreamingRun(service.url, fixture.runToken);
    expect(run.response.status).toBe(200);

    service.signal('SIGTERM');
    const refusedAt = Date.now();
    while ((await statusOrError(`${service.url}/health`)) !== 'ECONNREFUSED') {
      if (Date.now() - refusedAt > 5000) throw new Error('the listening socket stayed open after SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The stream is still open: the run finishes once its upstream answers, well within the grace period.
    await new Promise((resolve) => setTimeout(resolve, 300));
    upstream.open();
    const lines = await run.lines();
    expect(lines[0]).toEqual({ type: 'run', run_id: run.runId, flow: 'bot', version: 1 });
    expect(lines.at(-1)).toEqual({ type: 'done', output: 'Hello world', usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
    expect(await service.exited).toBe(0);
    const stopped = service
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"stopped'));
    expect(stopped.map((line) => JSON.parse(line).cut_short)).toEqual([0]);
  }, 60_000);

  it('ends a stream still open when SHUTDOWN_GRACE_MS passes with an error event, records the run failed, and exits 0', async () => {
    upstream.shut();
    const service = await startServiceProcess('flows', { ...database.env, SHUTDOWN_GRACE_MS: '300', LOG_LEVEL: 'info' });
    started.push(service);
    const run = await startStreamingRun(service.url, fixture.runToken);
    expect(run.response.status).toBe(200);
    service.signal('SIGTERM');
    const lines = await run.lines();
    expect(lines.at(-1)).toEqual({
      type: 'error',
      error: { message: 'The service stopped before the run finished; run it again', type: 'api_error', param: null, code: 'shutting_down' },
    });
    expect(await service.exited).toBe(0);
    const stopped = service
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"stopped'));
    expect(stopped.map((line) => JSON.parse(line).cut_short)).toEqual([1]);

    // The run was recorded before the process ended: its X-Run-Id answers, failed with the same error.
    const again = await startServiceProcess('flows', { ...database.env });
    started.push(again);
    const record = await fetch(`${again.url}/api/llm/acme/runs/${run.runId}`, { headers: { authorization: `Bearer ${fixture.manageToken}` } });
    const body = await record.json();
    expect({ status: record.status, run: body.status, error: body.error }).toEqual({
      status: 200,
      run: 'failed',
      error: { message: 'The service stopped before the run finished; run it again', type: 'api_error', param: null, code: 'shutting_down' },
    });
  }, 60_000);

  it("closes the ticket board's endless event streams as the stop begins (browsers resume elsewhere), then exits 0", async () => {
    await withTicketsStore({ ...database.env, LOG_LEVEL: 'silent' }, (db) => createProject(db, { key: 'STOP', name: 'Stop' }));
    const token = (await withTicketsStore({ ...database.env, LOG_LEVEL: 'silent' }, (db) => createToken(db, 'STOP', 'agent'))).token;
    const service = await startServiceProcess('tickets', { ...database.env, SHUTDOWN_GRACE_MS: '5000', LOG_LEVEL: 'info' });
    started.push(service);
    const stream = await fetch(`${service.url}/api/projects/STOP/events`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('retry:');
    service.signal('SIGTERM');
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).not.toContain('error');
    expect(await service.exited).toBe(0);
    // Not one request was left for the grace period to cut short.
    const stopped = service
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"stopped'));
    expect(stopped.map((line) => JSON.parse(line).cut_short)).toEqual([0]);
  }, 60_000);
});
