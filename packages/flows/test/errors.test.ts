import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startHarness, simpleFlow, type Harness } from './helpers/harness.ts';

const typedFlow = {
  name: 'Typed',
  slug: 'typed',
  nodes: [
    {
      id: 'input',
      type: 'input',
      data: {
        variables: [
          { name: 'question', type: 'string', required: true, min_length: 2 },
          { name: 'tier', type: 'enum', values: ['free', 'pro'], default: 'free' },
          { name: 'max_items', type: 'integer', minimum: 1, maximum: 10 },
          { name: 'ratio', type: 'number' },
          { name: 'flag', type: 'boolean', default: false },
          { name: 'filters', type: 'object' },
          { name: 'tags', type: 'array', max_length: 2 },
        ],
      },
    },
    {
      id: 'output',
      type: 'output',
      data: { format: 'json_template', template: { input: '{{input.question}}', tier: '{{input.tier}}', flag: '{{input.flag}}', max: '{{input.max_items}}' } },
    },
  ],
  edges: [{ from: 'input', to: 'output' }],
};

describe.each(dialectsUnderTest())('errors, authentication and input validation on %s', (dialect) => {
  let h: Harness;
  let otherOrgToken: string;
  beforeAll(async () => {
    h = await startHarness(dialect);
    await h.save(simpleFlow({ slug: 'bot' }));
    await h.save(typedFlow);
    const other = await h.stores.orgs.createOrg('globex');
    otherOrgToken = (await h.stores.orgs.createToken(other.id, { scope: 'manage' })).token;
  });
  afterAll(async () => {
    await h?.close();
  });

  const run = (body: unknown, token?: string) => h.post('/api/llm/acme/flows/typed/run', body, token ?? h.runToken);

  it('401 without a token, with an unknown token and with a revoked token', async () => {
    const none = await fetch(`${h.base}/api/llm/acme/flows/bot/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":{}}' });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({
      error: { message: 'Missing bearer token: send "Authorization: Bearer TOKEN"', type: 'authentication_error', param: null, code: 'invalid_api_key' },
    });
    const unknown = await h.post('/api/llm/acme/flows/bot/run', { input: {} }, 'sbf_unknown');
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({
      error: { message: 'Invalid or revoked token', type: 'authentication_error', param: null, code: 'invalid_api_key' },
    });

    const org = (await h.stores.orgs.findOrg('acme'))!;
    const doomed = await h.stores.orgs.createToken(org.id, { scope: 'run' });
    expect((await h.post('/api/llm/acme/flows/bot/run', { input: { question: 'x' } }, doomed.token)).status).toBe(200);
    const revoke = await h.del(`/api/llm/acme/tokens/${doomed.id}`);
    expect(await revoke.json()).toEqual({ revoked: true });
    const revoked = await h.post('/api/llm/acme/flows/bot/run', { input: { question: 'x' } }, doomed.token);
    expect(revoked.status).toBe(401);
  });

  it('403 for a token of another organization and for a run token on the management API', async () => {
    const other = await h.post('/api/llm/acme/flows/bot/run', { input: { question: 'x' } }, otherOrgToken);
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({
      error: { message: 'This token belongs to another organization', type: 'permission_error', param: null, code: 'permission_denied' },
    });
    const scope = await h.post('/api/llm/acme/flows', simpleFlow(), h.runToken);
    expect(scope.status).toBe(403);
    expect(((await scope.json()) as { error: { code: string } }).error.code).toBe('permission_denied');
  });

  it('404 flow_not_found for an unknown flow, 404 for an unknown route', async () => {
    const response = await h.post('/api/llm/acme/flows/nope/run', { input: {} }, h.runToken);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { message: 'Flow "nope" not found', type: 'not_found_error', param: 'slug', code: 'flow_not_found' } });
    const route = await fetch(`${h.base}/nowhere`);
    expect(route.status).toBe(404);
    expect(await route.json()).toEqual({ error: { message: 'Unknown route GET /nowhere', type: 'not_found_error', param: null, code: 'not_found' } });
  });

  it('400 invalid_json for a malformed body, 400 missing_input without an input object', async () => {
    const malformed = await fetch(`${h.base}/api/llm/acme/flows/bot/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.runToken}`, 'content-type': 'application/json' },
      body: '{"input": ',
    });
    expect(malformed.status).toBe(400);
    const body = (await malformed.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
    expect(JSON.stringify(body)).not.toContain('    at ');
    for (const sent of [{}, { input: 'text' }, { input: [1] }, []]) {
      const response = await h.post('/api/llm/acme/flows/bot/run', sent, h.runToken);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: {
          message: 'The request body must be a JSON object with an "input" object',
          type: 'invalid_request_error',
          param: 'input',
          code: 'missing_input',
        },
      });
    }
  });

  it('413 body_too_large over BODY_LIMIT', async () => {
    const response = await h.post('/api/llm/acme/flows/bot/run', { input: { question: 'x'.repeat(1_100_000) } }, h.runToken);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { message: 'Request body is too large', type: 'invalid_request_error', param: null, code: 'body_too_large' },
    });
  });

  it('422 invalid_input listing every problem: unknown keys, missing required, wrong types, no coercion', async () => {
    const response = await run({ input: { max_items: '5', ratio: 'high', flag: 'yes', filters: [], tags: [1, 2, 3], tier: 'gold', extra: 1 } });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { details: unknown; code: string; type: string; param: string } };
    expect(body.error.code).toBe('invalid_input');
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.param).toBe('input.extra');
    expect(body.error.details).toEqual([
      { param: 'input.extra', message: 'Unknown input variable "extra"' },
      { param: 'input.question', message: 'Missing required variable "question"' },
      { param: 'input.tier', message: '"tier" must be one of "free", "pro"' },
      { param: 'input.max_items', message: '"max_items" must be an integer' },
      { param: 'input.ratio', message: '"ratio" must be a number' },
      { param: 'input.flag', message: '"flag" must be a boolean' },
      { param: 'input.filters', message: '"filters" must be an object' },
      { param: 'input.tags', message: '"tags" must have at most 2 items' },
    ]);
    const ranges = await run({ input: { question: 'x', max_items: 11 } });
    expect(((await ranges.json()) as { error: { details: unknown } }).error.details).toEqual([
      { param: 'input.question', message: '"question" must have at least 2 characters' },
      { param: 'input.max_items', message: '"max_items" must be at most 10' },
    ]);
    const fraction = await run({ input: { question: 'xy', max_items: 2.5 } });
    expect(((await fraction.json()) as { error: { details: unknown } }).error.details).toEqual([
      { param: 'input.max_items', message: '"max_items" must be an integer' },
    ]);
  });

  it('applies defaults to absent optional variables', async () => {
    const response = await run({ input: { question: 'hello', max_items: 5 } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ input: 'hello', tier: 'free', flag: false, max: 5 });
    const absent = await run({ input: { question: 'hello' } });
    expect(await absent.json()).toEqual({ input: 'hello', tier: 'free', flag: false, max: null });
  });

  it('400 for a non-boolean stream and a non-object metadata', async () => {
    const stream = await run({ input: { question: 'hello' }, stream: 'yes' });
    expect(stream.status).toBe(400);
    expect(await stream.json()).toEqual({
      error: { message: '"stream" must be a boolean', type: 'invalid_request_error', param: 'stream', code: 'invalid_request' },
    });
    const metadata = await run({ input: { question: 'hello' }, metadata: 'x' });
    expect(metadata.status).toBe(400);
  });

  it('400 invalid_request for input or metadata nested deeper than 64 levels (JSON.parse takes any depth, the engine does not)', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const send = (path: string, body: string) =>
      fetch(`${h.base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${h.runToken}`, 'content-type': 'application/json' }, body });
    const refused = (param: string) => [
      400,
      { error: { message: `"${param}" nests deeper than 64 levels`, type: 'invalid_request_error', param, code: 'invalid_request' } },
    ];
    const input = await send('/api/llm/acme/flows/typed/run', `{"input": {"question": "xy", "tags": ${deep}}}`);
    expect([input.status, await input.json()]).toEqual(refused('input'));
    const metadata = await send('/api/llm/acme/flows/typed/run/stream', `{"input": {"question": "xy"}, "metadata": {"trail": ${deep}}}`);
    expect([metadata.status, await metadata.json()]).toEqual(refused('metadata'));
    const chat = await send('/api/llm/acme/flows/bot/chat/completions', `{"messages": [{"role": "user", "content": "x"}], "input": {"extra": ${deep}}}`);
    expect([chat.status, await chat.json()]).toEqual(refused('input'));
  });

  it('400 invalid_request, never 500, for a NUL character PostgreSQL text cannot hold (SQLite stores it)', async () => {
    const run = await h.post('/api/llm/acme/flows/%00/run', { input: {} }, h.runToken);
    const flow = await h.get('/api/llm/acme/flows/%00');
    const token = await h.post('/api/llm/acme/tokens', { name: 'a\u0000b' });
    if (dialect === 'postgres') {
      const refused = {
        error: { message: 'Text must not contain NUL characters (U+0000)', type: 'invalid_request_error', param: null, code: 'invalid_request' },
      };
      for (const response of [run, flow, token]) expect([response.status, await response.json()]).toEqual([400, refused]);
    } else {
      const notFound = { error: { message: 'Flow "\u0000" not found', type: 'not_found_error', param: 'slug', code: 'flow_not_found' } };
      expect([run.status, await run.json()]).toEqual([404, notFound]);
      expect([flow.status, await flow.json()]).toEqual([404, notFound]);
      expect(token.status).toBe(201);
    }
  });

  it('429 rate_limit_exceeded with Retry-After past FLOWS_RATE_LIMIT, per token', async () => {
    const limited = await startHarness(dialect, { FLOWS_RATE_LIMIT: '3/d' });
    try {
      await limited.save(simpleFlow({ slug: 'bot' }));
      const statuses: number[] = [];
      let last: Response | undefined;
      let lastBody: unknown;
      for (let i = 0; i < 4; i++) {
        last = await limited.post('/api/llm/acme/flows/bot/run', { input: { question: 'x' } }, limited.runToken);
        statuses.push(last.status);
        lastBody = await last.json();
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(lastBody).toEqual({
        error: { message: 'Rate limit of 3 requests per 86400 s exceeded for this token', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' },
      });
      // The manage token has its own budget (one request went to the save above).
      expect((await limited.post('/api/llm/acme/flows/bot/run', { input: { question: 'x' } }, limited.manageToken)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
