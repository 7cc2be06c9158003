import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { UserStore, openPlatformDatabase } from '@switchboard/core';
import { startHarness, simpleFlow, type Harness } from './helpers/harness.ts';

// The fake upstream answers `reply:TEXT` with TEXT: 7 prompt tokens, one completion token per word.
const PRICE = { input_per_mtok: 1000, output_per_mtok: 2000 };
const ONE_WORD_CALL = (7 * 1000 + 1 * 2000) / 1_000_000;

/** input → agent(inner flow) → template → llm(model) → output raw (an agent wired straight into an llm node would be its tool). */
function outerFlow(slug: string, inner: string, model: string) {
  return {
    name: slug,
    slug,
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'helper', type: 'agent', data: { flow: inner, input: { question: '{{input.question}}' } } },
      { id: 'relay', type: 'template', data: { template: '{{helper.text}}' } },
      { id: 'answer', type: 'llm', data: { provider: 'local', model, prompt: '{{relay.text}}' } },
      { id: 'output', type: 'output', data: { format: 'raw' } },
    ],
    edges: [
      { from: 'input', to: 'helper' },
      { from: 'helper', to: 'relay' },
      { from: 'relay', to: 'answer' },
      { from: 'answer', to: 'output' },
    ],
  };
}

describe.each(dialectsUnderTest())('run costs and model prices on %s', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(dialect);
  });
  afterAll(async () => {
    await h?.close();
  });

  const runOf = async (slug: string) => {
    const response = await h.post(`/api/llm/acme/flows/${slug}/run`, { input: { question: 'q' } }, h.runToken);
    expect(response.status).toBe(200);
    return (await h.get(`/api/llm/acme/runs/${response.headers.get('x-run-id')}`)).json();
  };

  it('answers a provider without prices with no models, and 404 for an unknown provider', async () => {
    expect(await (await h.get('/api/llm/acme/providers/local/prices')).json()).toEqual({
      provider: 'local',
      kind: 'openai-compatible',
      defaults_as_of: null,
      models: {},
    });
    const unknown = await h.get('/api/llm/acme/providers/nope/prices');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatchObject({ message: 'Provider connection "nope" not found', type: 'not_found_error' });
  });

  it('refuses prices that are negative or not numbers with 422, every problem named', async () => {
    const response = await h.put('/api/llm/acme/providers/local/prices', {
      models: { a: { input_per_mtok: -1, output_per_mtok: 'x' }, b: { input_per_mtok: 1, output_per_mtok: 2 } },
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: {
        message: 'input_per_mtok of "a" must not be negative (and 1 more problem)',
        type: 'invalid_request_error',
        param: 'models.a.input_per_mtok',
        code: 'invalid_prices',
        details: [
          { param: 'models.a.input_per_mtok', message: 'input_per_mtok of "a" must not be negative' },
          { param: 'models.a.output_per_mtok', message: 'output_per_mtok of "a" must be a number (US dollars per million tokens)' },
        ],
      },
    });
    // Nothing was stored.
    expect((await (await h.get('/api/llm/acme/providers/local/prices')).json()).models).toEqual({});
    const notJson = await fetch(`${h.base}/api/llm/acme/providers/local/prices`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${h.manageToken}`, 'content-type': 'application/json' },
      body: '{"models": {',
    });
    expect(notJson.status).toBe(400);
  });

  it('sets prices, and a run records what its model call cost', async () => {
    const put = await h.put('/api/llm/acme/providers/local/prices', { models: { 'reply:hi': PRICE, 'reply:done': PRICE } });
    expect(put.status).toBe(200);
    expect((await put.json()).models).toEqual({ 'reply:hi': { ...PRICE, source: 'custom' }, 'reply:done': { ...PRICE, source: 'custom' } });
    await h.save(simpleFlow({ slug: 'priced', model: 'reply:hi', format: 'raw' }));
    const run = await runOf('priced');
    expect([run.cost, run.trigger, run.schedule]).toEqual([{ usd: ONE_WORD_CALL, priced: true }, 'api', null]);
  });

  it('counts the calls of sub-agents, and a model without a price makes the cost unpriced', async () => {
    await h.save(outerFlow('outer', 'priced', 'reply:done'));
    expect((await runOf('outer')).cost).toEqual({ usd: 2 * ONE_WORD_CALL, priced: true });
    await h.save(simpleFlow({ slug: 'free-model', model: 'reply:unknown', format: 'raw' }));
    await h.save(outerFlow('outer-mixed', 'free-model', 'reply:done'));
    expect((await runOf('outer-mixed')).cost).toEqual({ usd: ONE_WORD_CALL, priced: false });
  });

  it('prices each model call of a tool loop (an llm node with memory)', async () => {
    const flow = simpleFlow({ slug: 'remembers', model: 'reply:hi', format: 'raw' });
    flow.nodes[1].data.memory = { window: 4 };
    await h.save(flow);
    expect((await runOf('remembers')).cost).toEqual({ usd: ONE_WORD_CALL, priced: true });
  });

  it('sums costs per hour and per flow in the statistics, and counts flows_cost_usd_total by organization and flow', async () => {
    const stats = await (await h.get('/api/llm/acme/stats?hours=1')).json();
    expect(stats.total.cost_usd).toBeCloseTo(5 * ONE_WORD_CALL, 10);
    expect(stats.flows.find((f: { flow: string }) => f.flow === 'outer').cost_usd).toBe(2 * ONE_WORD_CALL);
    const metrics = await (await fetch(`${h.base}/metrics`)).text();
    expect(metrics).toContain(`flows_cost_usd_total{org="acme",flow="outer"} ${2 * ONE_WORD_CALL}`);
    expect(metrics).toContain(`flows_cost_usd_total{org="acme",flow="priced"} ${ONE_WORD_CALL}`);
  });

  it('filters runs by trigger, and refuses an unknown trigger', async () => {
    const api = await (await h.get('/api/llm/acme/runs?trigger=api')).json();
    expect(api.runs.length).toBe(4);
    expect(api.runs.every((r: { trigger: string }) => r.trigger === 'api')).toBe(true);
    expect((await (await h.get('/api/llm/acme/runs?trigger=schedule')).json()).runs).toEqual([]);
    const bad = await h.get('/api/llm/acme/runs?trigger=cron');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain('trigger must be one of api, mcp, ui, schedule');
  });

  it('records a run started from the dashboard (a session) with trigger "ui"', async () => {
    const platform = await openPlatformDatabase(h.db.env);
    try {
      await new UserStore(platform.db).create({ email: 'ada@example.com', password: 'ada-password-1', admin: true });
    } finally {
      await platform.close();
    }
    const signedIn = await fetch(`${h.base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: 'ada-password-1' }),
    });
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0];
    const response = await fetch(`${h.base}/api/llm/acme/flows/priced/run`, {
      method: 'POST',
      headers: { cookie, origin: new URL(h.base).origin, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { question: 'from the canvas' } }),
    });
    expect(response.status).toBe(200);
    const run = await (await h.get(`/api/llm/acme/runs/${response.headers.get('x-run-id')}`)).json();
    expect([run.trigger, run.schedule]).toEqual(['ui', null]);
    expect((await (await h.get('/api/llm/acme/runs?trigger=ui')).json()).runs.map((r: { id: string }) => r.id)).toEqual([run.id]);
  });

  it('returns to the defaults alone with an empty table', async () => {
    const put = await h.put('/api/llm/acme/providers/local/prices', { models: {} });
    expect((await put.json()).models).toEqual({});
  });
});
