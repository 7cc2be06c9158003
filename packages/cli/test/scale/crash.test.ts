import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import { startGatedUpstream, type GatedUpstream } from './gated-upstream.ts';
import { prepareFlows, startStreamingRun, type FlowsFixture } from './flows-fixture.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

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

  it('leaves a flow run that was streaming recorded: running at once, then failed by the next sweep of a live instance', async () => {
    // A short timeout and sweep, so that the run counts as abandoned within seconds.
    const env = { ...database.env, FLOWS_RUN_TIMEOUT_MS: '1000', FLOWS_RUN_SWEEP_MS: '300' };
    const doomed = await startServiceProcess('flows', env);
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
      error: { message: 'The instance running this flow stopped before the run finished (a crash or a kill); run it again.', type: 'api_error', param: null, code: 'run_abandoned' },
    });
  }, 60_000);
});
