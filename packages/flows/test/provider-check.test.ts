import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { checkProvider } from '../src/engine/provider-check.ts';
import { startHarness, type Harness } from './helpers/harness.ts';

const WRONG_KEY = 'sk-wrong-key-0123456789abcdef';

describe.each(dialectsUnderTest())('POST /providers/{name}/test on %s', (dialect) => {
  let h: Harness;
  const test = async (name: string, token?: string) => {
    const response = await h.post(`/api/llm/acme/providers/${name}/test`, {}, token);
    return [response.status, await response.json()];
  };

  beforeAll(async () => {
    h = await startHarness(dialect);
    const org = await h.stores.orgs.requireOrg('acme');
    await h.stores.orgs.setProvider(org.id, { name: 'bad-key', kind: 'openai-compatible', baseUrl: h.upstream.url, apiKey: WRONG_KEY });
    await h.stores.orgs.setProvider(org.id, { name: 'nokey', kind: 'openai-compatible', baseUrl: h.upstream.url });
    await h.stores.orgs.setProvider(org.id, { name: 'gpt', kind: 'openai', baseUrl: h.upstream.url, apiKey: 'sk-openai-test-key-00000' });
    await h.stores.orgs.setProvider(org.id, { name: 'claude', kind: 'anthropic', baseUrl: h.upstream.url, apiKey: 'sk-ant-test-key-000000' });
    await h.stores.orgs.setProvider(org.id, { name: 'claude-nokey', kind: 'anthropic', baseUrl: h.upstream.url });
    await h.stores.orgs.setProvider(org.id, { name: 'claude-bad', kind: 'anthropic', baseUrl: h.upstream.url, apiKey: `sk-ant-${WRONG_KEY}` });
    await h.stores.orgs.setProvider(org.id, { name: 'down', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-down-key-0000000000' });
    await h.stores.orgs.setProvider(org.id, { name: 'claude-down', kind: 'anthropic', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-ant-down-key-000000' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('needs a manage token (401 without one, 403 with a run token)', async () => {
    expect((await fetch(`${h.base}/api/llm/acme/providers/local/test`, { method: 'POST' })).status).toBe(401);
    expect((await test('local', h.runToken))[0]).toBe(403);
  });

  it('answers 404 for a connection the organization does not have', async () => {
    expect(await test('nope')).toEqual([
      404,
      { error: { message: 'Provider connection "nope" not found', type: 'not_found_error', param: 'name', code: 'provider_not_found' } },
    ]);
  });

  it('lists the model ids of an openai-compatible connection with the openai client, sending its key', async () => {
    expect(await test('local')).toEqual([200, { ok: true, models: ['echo', 'slow', 'text-embedding-test'] }]);
    expect(h.upstream.calls.at(-1)!.authorization).toBe('Bearer sk-upstream-secret-123456');
  });

  it('lists the models of an openai connection and of an anthropic one (with the Anthropic SDK)', async () => {
    expect(await test('gpt')).toEqual([200, { ok: true, models: ['echo', 'slow', 'text-embedding-test'] }]);
    expect(await test('claude')).toEqual([200, { ok: true, models: ['claude-test-1', 'claude-test-2'] }]);
    const call = h.upstream.calls.at(-1)!;
    expect([call.headers['anthropic-version'] !== undefined, call.authorization]).toEqual([true, 'Bearer sk-ant-test-key-000000']);
  });

  it("answers ok:false with the provider's message, never the key, when the provider refuses (401)", async () => {
    const [status, body] = await test('bad-key');
    expect([status, body]).toEqual([200, { ok: false, error: 'Provider error (HTTP 401): Incorrect API key provided: [redacted]' }]);
    expect(JSON.stringify(body)).not.toContain('wrong-key');
    const [anthropicStatus, anthropicBody] = await test('claude-bad');
    expect([anthropicStatus, anthropicBody]).toEqual([200, { ok: false, error: 'Provider error (HTTP 401): Incorrect API key provided: [redacted]' }]);
  });

  it('answers ok:false saying the provider could not be reached, and where, when nothing answers at that address', async () => {
    expect(await test('down')).toEqual([200, { ok: false, error: 'Provider could not be reached at http://127.0.0.1:1/v1/models (connection refused)' }]);
    // The Anthropic SDK's request (its query string left out).
    expect(await test('claude-down')).toEqual([
      200,
      { ok: false, error: 'Provider could not be reached at http://127.0.0.1:1/v1/models (connection refused)' },
    ]);
  });

  it('reads nothing from OPENAI_* or ANTHROPIC_*: a connection without a key sends none', async () => {
    const saved = { openai: process.env.OPENAI_API_KEY, anthropic: process.env.ANTHROPIC_API_KEY };
    process.env.OPENAI_API_KEY = 'sk-from-the-environment-000000';
    process.env.ANTHROPIC_API_KEY = 'sk-ant-from-the-environment-000000';
    try {
      expect(await test('nokey')).toEqual([200, { ok: true, models: ['echo', 'slow', 'text-embedding-test'] }]);
      expect(h.upstream.calls.at(-1)!.authorization).toBeUndefined();
      expect(await test('claude-nokey')).toEqual([200, { ok: true, models: ['claude-test-1', 'claude-test-2'] }]);
      const call = h.upstream.calls.at(-1)!;
      expect([call.authorization, call.headers['x-api-key']]).toEqual([undefined, undefined]);
    } finally {
      if (saved.openai === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved.openai;
      if (saved.anthropic === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved.anthropic;
    }
  });

  it('gives up on a provider that does not answer in time', async () => {
    const check = await checkProvider({ name: 'slow', kind: 'openai-compatible', baseUrl: h.upstream.url, apiKey: 'sk-slow-000000000000' }, 200);
    expect(check).toEqual({ ok: false, error: 'The provider did not answer within 0.2 s' });
  });
});
