import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startHarness, simpleFlow, type Harness } from './helpers/harness.ts';
import type { RunRow } from '../src/store/run-store.ts';

const HOUR = 3_600_000;

/** A stored run as the recorder writes it. */
function runRow(
  orgId: number,
  fields: { id: string; flow: string; startedAt: string; status?: string; latencyMs?: number | null; prompt?: number; completion?: number },
): RunRow {
  const status = fields.status ?? 'succeeded';
  const prompt = fields.prompt ?? 0;
  const completion = fields.completion ?? 0;
  return {
    id: fields.id,
    org_id: orgId,
    flow: fields.flow,
    version: 1,
    status,
    input: '{}',
    metadata: '{}',
    output: status === 'succeeded' ? '"ok"' : null,
    error: status === 'failed' ? JSON.stringify({ message: 'boom', type: 'api_error', param: null, code: 'upstream_error' }) : null,
    usage: JSON.stringify({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }),
    latency_ms: fields.latencyMs === undefined ? 100 : fields.latencyMs,
    started_at: fields.startedAt,
    finished_at: status === 'running' ? null : fields.startedAt,
    trace: '[]',
  };
}

describe.each(dialectsUnderTest())('runs list and flow list counts on %s', (dialect) => {
  let h: Harness;
  let orgId: number;
  beforeAll(async () => {
    h = await startHarness(dialect);
    orgId = (await h.stores.orgs.requireOrg('acme')).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('pages through runs with next_before, never repeating or skipping runs that started in the same millisecond', async () => {
    const rows: RunRow[] = [];
    // Seven runs, five of them in one millisecond, ids deliberately out of insertion order.
    for (const id of ['run_c', 'run_a', 'run_e', 'run_b', 'run_d']) rows.push(runRow(orgId, { id, flow: 'paged', startedAt: '2020-01-01T10:00:00.000Z' }));
    rows.push(runRow(orgId, { id: 'run_z', flow: 'paged', startedAt: '2020-01-01T09:00:00.000Z', status: 'failed' }));
    rows.push(runRow(orgId, { id: 'run_y', flow: 'paged', startedAt: '2020-01-01T11:00:00.000Z' }));
    await h.stores.runs.upsert(rows);
    const expected = ['run_y', 'run_e', 'run_d', 'run_c', 'run_b', 'run_a', 'run_z'];

    const seen: string[] = [];
    const cursors: Array<string | null> = [];
    let before: string | null = null;
    do {
      const response = await h.get(`/api/llm/acme/runs?flow=paged&limit=2${before ? `&before=${encodeURIComponent(before)}` : ''}`);
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(Object.keys(body).sort()).toEqual(['next_before', 'runs']);
      seen.push(...body.runs.map((r: { id: string }) => r.id));
      before = body.next_before;
      cursors.push(before);
    } while (before);
    expect(seen).toEqual(expected);
    expect(cursors).toEqual(['2020-01-01T10:00:00.000Z~run_e', '2020-01-01T10:00:00.000Z~run_c', '2020-01-01T10:00:00.000Z~run_a', null]);

    // A page that holds exactly the rest says there is no next one.
    const whole = await (await h.get('/api/llm/acme/runs?flow=paged&limit=7')).json();
    expect([whole.runs.length, whole.next_before]).toEqual([7, null]);
  });

  it('keeps before=TIMESTAMP working as it did: the runs started before it', async () => {
    const body = await (await h.get(`/api/llm/acme/runs?flow=paged&before=${encodeURIComponent('2020-01-01T10:00:00.000Z')}`)).json();
    expect([body.runs.map((r: { id: string }) => r.id), body.next_before]).toEqual([['run_z'], null]);
  });

  it('filters by status alongside flow, and pages the filtered list', async () => {
    await h.save(simpleFlow({ slug: 'mixed', format: 'raw', model: 'reply:fine' }));
    await h.save(simpleFlow({ slug: 'broken', format: 'raw', model: 'fail' }));
    const ok = await h.post('/api/llm/acme/flows/mixed/run', { input: { question: 'q' } }, h.runToken);
    const failedIds: string[] = [];
    for (let i = 0; i < 3; i++)
      failedIds.unshift((await h.post('/api/llm/acme/flows/broken/run', { input: { question: 'q' } }, h.runToken)).headers.get('x-run-id')!);

    const failed = await (await h.get('/api/llm/acme/runs?status=failed&flow=broken')).json();
    expect(failed.runs.map((r: { id: string }) => r.id)).toEqual(failedIds);
    expect(failed.runs.every((r: { status: string; flow: string }) => r.status === 'failed' && r.flow === 'broken')).toBe(true);
    const succeeded = await (await h.get('/api/llm/acme/runs?status=succeeded&flow=mixed')).json();
    expect([succeeded.runs.map((r: { id: string }) => r.id), succeeded.next_before]).toEqual([[ok.headers.get('x-run-id')], null]);
    // Across flows: the seeded failed run and the three real ones, a page of two then the rest.
    const first = await (await h.get('/api/llm/acme/runs?status=failed&limit=2')).json();
    const second = await (await h.get(`/api/llm/acme/runs?status=failed&limit=2&before=${encodeURIComponent(first.next_before)}`)).json();
    expect([...first.runs, ...second.runs].map((r: { id: string }) => r.id)).toEqual([...failedIds, 'run_z']);
    expect(second.next_before).toBe(null);
    expect((await (await h.get('/api/llm/acme/runs?status=running')).json()).runs).toEqual([]);
  });

  it('refuses an unknown status with 400 naming the values', async () => {
    const response = await h.get('/api/llm/acme/runs?status=done');
    expect([response.status, await response.json()]).toEqual([
      400,
      {
        error: {
          message: 'querystring/status status must be one of running, succeeded, failed',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_request',
        },
      },
    ]);
  });

  it("counts each flow's runs of the last 24 hours in the flow list", async () => {
    const now = Date.now();
    await h.save(simpleFlow({ slug: 'quiet', format: 'raw' }));
    await h.stores.runs.upsert([
      runRow(orgId, { id: 'run_q1', flow: 'quiet', startedAt: new Date(now - 25 * HOUR).toISOString() }),
      runRow(orgId, { id: 'run_m1', flow: 'mixed', startedAt: new Date(now - 23 * HOUR).toISOString() }),
      runRow(orgId, { id: 'run_m2', flow: 'mixed', startedAt: new Date(now - 30 * HOUR).toISOString() }),
    ]);
    const response = await h.get('/api/llm/acme/flows');
    expect(response.status).toBe(200);
    const { flows } = await response.json();
    expect(flows.map((f: { slug: string; runs_24h: number }) => [f.slug, f.runs_24h])).toEqual([
      ['broken', 3],
      ['mixed', 2],
      ['quiet', 0],
    ]);
    expect(Object.keys(flows[0]).sort()).toEqual(['created_at', 'description', 'name', 'runs_24h', 'slug', 'updated_at', 'version']);
  });
});

describe('the management additions in /openapi.json', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('sqlite');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('documents each new route with a tag, a summary and the bearer requirement', async () => {
    const spec = await (await fetch(`${h.base}/openapi.json`)).json();
    const routes: Array<[string, string, string]> = [
      ['/api/llm/{org_code}/flows/{slug}/versions', 'get', 'flows'],
      ['/api/llm/{org_code}/flows/{slug}/versions/{version}', 'get', 'flows'],
      ['/api/llm/{org_code}/flows/{slug}/versions/{version}/restore', 'post', 'flows'],
      ['/api/llm/{org_code}/stats', 'get', 'runs'],
      ['/api/llm/{org_code}/providers/{name}/test', 'post', 'providers'],
      ['/api/llm/{org_code}/knowledge-bases/{name}/query', 'post', 'knowledge bases'],
    ];
    for (const [path, method, tag] of routes) {
      const operation = spec.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect([operation.tags, typeof operation.summary, operation.security]).toEqual([[tag], 'string', [{ bearerAuth: [] }]]);
    }
    expect(spec.paths['/api/llm/{org_code}/runs'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'before',
      'flow',
      'limit',
      'org_code',
      'status',
      'trigger',
    ]);
  });
});
