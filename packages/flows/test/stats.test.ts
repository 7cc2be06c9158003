import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { percentile, runStats, statsWindow } from '../src/domain/run-stats.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import type { RunRow } from '../src/store/run-store.ts';

const HOUR = 3_600_000;
const hourOf = (iso: string) => new Date(Math.floor(Date.parse(iso) / HOUR) * HOUR).toISOString();
const idle = (hour: string) => ({
  hour,
  runs: 0,
  failed: 0,
  failure_rate: null,
  p50_ms: null,
  p95_ms: null,
  prompt_tokens: 0,
  completion_tokens: 0,
  cost_usd: 0,
  tokens: 0,
});

function runRow(
  orgId: number,
  id: string,
  flow: string,
  startedAt: string,
  status: string,
  latencyMs: number | null,
  prompt: number,
  completion: number,
): RunRow {
  return {
    id,
    org_id: orgId,
    flow,
    version: 1,
    status,
    input: '{}',
    metadata: '{}',
    output: null,
    error: null,
    usage: JSON.stringify({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }),
    latency_ms: latencyMs,
    started_at: startedAt,
    finished_at: status === 'running' ? null : startedAt,
    trace: '[]',
  };
}

describe('run statistics (domain)', () => {
  it('takes nearest-rank percentiles', () => {
    expect([percentile([], 50), percentile([7], 95), percentile([1, 2, 3, 4], 50), percentile([1, 2, 3, 4], 95)]).toEqual([null, 7, 2, 4]);
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(hundred, 50), percentile(hundred, 95)]).toEqual([50, 95]);
  });

  it('lists every hour of the window, ending with the current one, and puts each run in its hour', () => {
    const now = new Date('2025-03-01T12:34:56.789Z');
    const window = statsWindow(now, 3);
    expect(window).toEqual({
      from: new Date('2025-03-01T10:00:00.000Z'),
      hourStarts: ['2025-03-01T10:00:00.000Z', '2025-03-01T11:00:00.000Z', '2025-03-01T12:00:00.000Z'],
    });
    const stats = runStats(
      [
        { flow: 'a', status: 'succeeded', latencyMs: 40, startedAt: '2025-03-01T10:59:59.999Z', promptTokens: 3, completionTokens: 2, costUsd: 0.25 },
        { flow: 'a', status: 'failed', latencyMs: 10, startedAt: '2025-03-01T12:00:00.000Z', promptTokens: 0, completionTokens: 0, costUsd: 0.000001 },
        // Stamped a little ahead by an instance whose clock runs fast: counted in the last hour.
        { flow: 'b', status: 'running', latencyMs: null, startedAt: '2025-03-01T12:35:10.000Z', promptTokens: 0, completionTokens: 0, costUsd: 0 },
      ],
      { ...window, to: now },
    );
    expect(stats.total.byHour.map((h) => [h.hour, h.runs, h.failed, h.failureRate, h.p50Ms])).toEqual([
      ['2025-03-01T10:00:00.000Z', 1, 0, 0, 40],
      ['2025-03-01T11:00:00.000Z', 0, 0, null, null],
      ['2025-03-01T12:00:00.000Z', 2, 1, 1, 10],
    ]);
    expect(stats.flows.map((f) => [f.flow, f.runs, f.failureRate, f.p95Ms])).toEqual([
      ['a', 2, 0.5, 40],
      ['b', 1, null, null],
    ]);
    expect([stats.from, stats.to]).toEqual(['2025-03-01T10:00:00.000Z', '2025-03-01T12:34:56.789Z']);
  });
});

describe.each(dialectsUnderTest())('GET /stats on %s', (dialect) => {
  let h: Harness;
  const now = Date.now();
  const t1 = new Date(now - 2 * HOUR).toISOString();
  const t2 = new Date(now - 5 * HOUR).toISOString();
  const t3 = new Date(now - 30 * HOUR).toISOString();

  beforeAll(async () => {
    h = await startHarness(dialect);
    const acme = (await h.stores.orgs.requireOrg('acme')).id;
    const other = (await h.stores.orgs.createOrg('other')).id;
    await h.stores.runs.upsert([
      runRow(acme, 'run_1', 'alpha', t1, 'succeeded', 100, 10, 5),
      runRow(acme, 'run_2', 'alpha', t1, 'failed', 300, 4, 0),
      runRow(acme, 'run_3', 'alpha', t2, 'succeeded', 200, 1, 1),
      runRow(acme, 'run_4', 'beta', t1, 'running', null, 0, 0),
      runRow(acme, 'run_5', 'beta', t3, 'succeeded', 50, 2, 2),
      runRow(other, 'run_6', 'alpha', t1, 'failed', 999, 100, 100),
    ]);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers runs, failures, p50/p95 latency and tokens per hour and per flow over the last 24 hours, every hour present', async () => {
    const response = await h.get('/api/llm/acme/stats');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.hours).toHaveLength(24);
    expect(body.hours[23]).toBe(hourOf(body.to));
    expect(body.from).toBe(body.hours[0]);
    expect(Date.parse(body.hours[1]) - Date.parse(body.hours[0])).toBe(HOUR);
    const byHour = (filled: Record<string, object>) => body.hours.map((hour: string) => ({ ...idle(hour), ...(filled[hour] ?? {}) }));
    expect(body).toEqual({
      from: body.hours[0],
      to: body.to,
      hours: body.hours,
      total: {
        runs: 4,
        failed: 1,
        failure_rate: 0.3333,
        p50_ms: 200,
        p95_ms: 300,
        prompt_tokens: 15,
        completion_tokens: 6,
        cost_usd: 0,
        by_hour: byHour({
          [hourOf(t1)]: { runs: 3, failed: 1, failure_rate: 0.5, p50_ms: 100, p95_ms: 300, prompt_tokens: 14, completion_tokens: 5, tokens: 19 },
          [hourOf(t2)]: { runs: 1, failed: 0, failure_rate: 0, p50_ms: 200, p95_ms: 200, prompt_tokens: 1, completion_tokens: 1, tokens: 2 },
        }),
      },
      flows: [
        {
          flow: 'alpha',
          runs: 3,
          failed: 1,
          failure_rate: 0.3333,
          p50_ms: 200,
          p95_ms: 300,
          prompt_tokens: 15,
          completion_tokens: 6,
          cost_usd: 0,
          by_hour: byHour({
            [hourOf(t1)]: { runs: 2, failed: 1, failure_rate: 0.5, p50_ms: 100, p95_ms: 300, prompt_tokens: 14, completion_tokens: 5, tokens: 19 },
            [hourOf(t2)]: { runs: 1, failed: 0, failure_rate: 0, p50_ms: 200, p95_ms: 200, prompt_tokens: 1, completion_tokens: 1, tokens: 2 },
          }),
        },
        {
          flow: 'beta',
          runs: 1,
          failed: 0,
          failure_rate: null,
          p50_ms: null,
          p95_ms: null,
          prompt_tokens: 0,
          completion_tokens: 0,
          cost_usd: 0,
          by_hour: byHour({ [hourOf(t1)]: { runs: 1 } }),
        },
      ],
    });
  });

  it('covers `hours` hours when asked (up to a week)', async () => {
    const body = await (await h.get('/api/llm/acme/stats?hours=48')).json();
    expect(body.hours).toHaveLength(48);
    expect(body.flows.map((f: { flow: string; runs: number; p50_ms: number | null }) => [f.flow, f.runs, f.p50_ms])).toEqual([
      ['alpha', 3, 200],
      ['beta', 2, 50],
    ]);
    expect((await (await h.get('/api/llm/acme/stats?hours=168')).json()).hours).toHaveLength(168);
    const one = await (await h.get('/api/llm/acme/stats?hours=1')).json();
    expect([one.hours, one.total.runs]).toEqual([[hourOf(one.to)], 0]);
  });

  it('refuses hours outside 1..168 with 400, and callers without a manage token', async () => {
    expect([
      (await h.get('/api/llm/acme/stats?hours=169')).status,
      (await h.get('/api/llm/acme/stats?hours=0')).status,
      (await h.get('/api/llm/acme/stats?hours=x')).status,
    ]).toEqual([400, 400, 400]);
    expect(await (await h.get('/api/llm/acme/stats?hours=169')).json()).toEqual({
      error: { message: 'querystring/hours Too big: expected number to be <=168', type: 'invalid_request_error', param: null, code: 'invalid_request' },
    });
    expect((await fetch(`${h.base}/api/llm/acme/stats`)).status).toBe(401);
    expect((await h.get('/api/llm/acme/stats', h.runToken)).status).toBe(403);
  });
});
