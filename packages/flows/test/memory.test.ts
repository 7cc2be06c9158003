import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startAgentHarness, type AgentHarness } from './helpers/agent-harness.ts';

function memoryFlow(slug: string, window = 4) {
  return {
    name: slug,
    slug,
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'answer', type: 'llm', data: { provider: 'tools', model: 'history', prompt: '{{input.question}}', memory: { window } } },
      { id: 'output', type: 'output', data: { format: 'raw' } },
    ],
    edges: [
      { from: 'input', to: 'answer' },
      { from: 'answer', to: 'output' },
    ],
  };
}

describe.each(dialectsUnderTest())('conversation memory on %s', (dialect) => {
  let h: AgentHarness;
  let betaToken = '';
  const ask = async (question: string, session?: string | number, slug = 'mem', token = h.runToken, org = 'acme') => {
    const response = await h.post(
      `/api/llm/${org}/flows/${slug}/run`,
      { input: { question }, ...(session !== undefined ? { metadata: { session_id: session } } : {}) },
      token,
    );
    expect(response.status).toBe(200);
    return response.text();
  };
  beforeAll(async () => {
    h = await startAgentHarness(dialect);
    await h.save(memoryFlow('mem'));
    await h.save(memoryFlow('other-mem'));
    const beta = await h.stores.orgs.createOrg('beta', 'Beta');
    betaToken = (await h.stores.orgs.createToken(beta.id, { scope: 'manage' })).token;
    await h.stores.orgs.setProvider(beta.id, { name: 'tools', kind: 'openai-compatible', baseUrl: h.model.url });
    const saved = await h.post('/api/llm/beta/flows', memoryFlow('mem'), betaToken);
    expect(saved.status).toBe(201);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('passes the last `window` messages of the session before the prompt and stores each exchange', async () => {
    expect(await ask('q1', 's1')).toBe('History: user:q1');
    expect(await ask('q2', 's1')).toBe('History: user:q1 | assistant:History: user:q1 | user:q2');
    expect(await ask('q3', 's1')).toBe(
      'History: user:q1 | assistant:History: user:q1 | user:q2 | assistant:History: user:q1 | assistant:History: user:q1 | user:q2 | user:q3',
    );
    // Window 4: q1 and its answer have dropped out.
    const fourth = await ask('q4', 's1');
    expect(fourth.startsWith('History: user:q2 | assistant:')).toBe(true);
    expect(
      fourth.endsWith(
        '| user:q3 | assistant:History: user:q1 | assistant:History: user:q1 | user:q2 | assistant:History: user:q1 | assistant:History: user:q1 | user:q2 | user:q3 | user:q4',
      ),
    ).toBe(true);
  });

  it('keeps sessions, flows and organizations apart, and remembers nothing without a session id', async () => {
    expect(await ask('hello', 's2')).toBe('History: user:hello');
    expect(await ask('other flow', 's1', 'other-mem')).toBe('History: user:other flow');
    expect(await ask('other org', 's1', 'mem', betaToken, 'beta')).toBe('History: user:other org');
    expect(await ask('anonymous')).toBe('History: user:anonymous');
    expect(await ask('anonymous again')).toBe('History: user:anonymous again');
    expect(await ask('numeric', 7)).toBe('History: user:numeric');
    expect(await ask('numeric again', 7)).toBe('History: user:numeric | assistant:History: user:numeric | user:numeric again');
  });

  it('reads and clears a session with a manage token (401, 403, 404, 200)', async () => {
    const path = '/api/llm/acme/flows/mem/sessions/s2';
    expect((await h.get(path, 'sbf_unknown')).status).toBe(401);
    const forbidden = await h.get(path, h.runToken);
    expect(forbidden.status).toBe(403);
    expect((await h.get(path, betaToken)).status).toBe(403);
    const missing = await h.get('/api/llm/acme/flows/nope/sessions/s2');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('flow_not_found');
    const read = (await (await h.get(path)).json()) as {
      flow: string;
      session_id: string;
      messages: Array<{ role: string; content: string; created_at: string }>;
    };
    expect(read.flow).toBe('mem');
    expect(read.session_id).toBe('s2');
    expect(read.messages.map(({ role, content }) => ({ role, content }))).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'History: user:hello' },
    ]);
    expect(read.messages[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const s1 = (await (await h.get('/api/llm/acme/flows/mem/sessions/s1')).json()) as { messages: unknown[] };
    expect(s1.messages).toHaveLength(8);
    const cleared = await h.del('/api/llm/acme/flows/mem/sessions/s1');
    expect(cleared.status).toBe(200);
    expect(await cleared.json()).toEqual({ deleted: 8 });
    expect(((await (await h.get('/api/llm/acme/flows/mem/sessions/s1')).json()) as { messages: unknown[] }).messages).toEqual([]);
    expect(await ask('fresh start', 's1')).toBe('History: user:fresh start');
    // The other organization's session of the same id is untouched.
    const beta = (await (await h.get('/api/llm/beta/flows/mem/sessions/s1', betaToken)).json()) as { messages: unknown[] };
    expect(beta.messages).toHaveLength(2);
  });

  it('answers 400 invalid_request, not 500 or 502, when PostgreSQL text cannot hold the exchange (NUL)', async () => {
    const response = await h.post('/api/llm/acme/flows/mem/run', { input: { question: 'a\u0000b' }, metadata: { session_id: 'nul' } }, h.runToken);
    if (dialect === 'postgres') {
      expect([response.status, await response.json()]).toEqual([
        400,
        { error: { message: 'Text must not contain NUL characters (U+0000)', type: 'invalid_request_error', param: null, code: 'invalid_request' } },
      ]);
    } else {
      expect([response.status, await response.text()]).toEqual([200, 'History: user:a\u0000b']);
    }
  });
});
