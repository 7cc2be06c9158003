import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import type { App } from '@switchboard/core';
import { buildApp as buildBoard, createProject, createToken, loadConfig as loadBoardConfig, MCP_PATH, withTicketsStore } from '@switchboard/tickets';
import { startAgentHarness, type AgentHarness } from './helpers/agent-harness.ts';

const answer = async (response: Response) => [response.status, await response.json()];
type Completion = { choices: Array<{ message: { content: string } }> };

describe.each(dialectsUnderTest())('flow templates on %s', (dialect) => {
  let h: AgentHarness;
  let board: App;
  let boardDb: TestDatabase;
  let mcpUrl = '';
  let boardToken = '';
  const create = (body: unknown) => h.post('/api/llm/acme/flows', body);
  const chat = async (slug: string, message: string, sessionId?: string) => {
    const response = await h.post(
      `/api/llm/acme/flows/${slug}/run`,
      { input: { message }, ...(sessionId ? { metadata: { session_id: sessionId } } : {}) },
      h.runToken,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as Completion;
    return { text: body.choices[0].message.content, runId: response.headers.get('x-run-id')! };
  };
  const trace = async (runId: string) =>
    ((await (await h.get(`/api/llm/acme/runs/${runId}`)).json()) as { trace: Array<{ node: string; status: string }> }).trace;

  beforeAll(async () => {
    h = await startAgentHarness(dialect);
    boardDb = await createTestDatabase(dialect);
    const env = { ...boardDb.env, LOG_LEVEL: 'silent', TICKETS_SUMMARY_WORKER: 'off' };
    boardToken = await withTicketsStore(env, async (db) => {
      await createProject(db, { key: 'OPS', name: 'Operations' });
      return (await createToken(db, 'OPS', 'flows')).token;
    });
    board = await buildBoard(loadBoardConfig(env));
    // 127.0.0.2 is in FLOWS_ALLOWED_HOSTS for the agent harness.
    await board.listen({ host: '127.0.0.2', port: 0 });
    mcpUrl = `http://127.0.0.2:${(board.server.address() as { port: number }).port}${MCP_PATH}`;
  });
  afterAll(async () => {
    await h?.close();
    await board?.close();
    await boardDb?.cleanup();
  });

  it('lists the templates with what each needs (401 without a token, 403 for a run token)', async () => {
    expect((await fetch(`${h.base}/api/llm/acme/templates`)).status).toBe(401);
    expect((await h.get('/api/llm/acme/templates', h.runToken)).status).toBe(403);
    const response = await h.get('/api/llm/acme/templates');
    expect(response.status).toBe(200);
    const { templates } = await response.json();
    expect(templates.map((t: { id: string; needs: string[] }) => [t.id, t.needs])).toEqual([
      ['chat-assistant', ['provider']],
      ['support-agent', ['provider', 'knowledge_base']],
      ['router', ['provider']],
      ['http-tool-agent', ['provider', 'url']],
      ['ticket-board-agent', ['provider', 'url', 'secret:TICKETS_TOKEN']],
    ]);
    expect(Object.keys(templates[0]).sort()).toEqual(['definition', 'description', 'hints', 'id', 'name', 'needs']);
    expect(templates[0].definition.nodes.find((n: { id: string }) => n.id === 'assistant').data).toMatchObject({
      provider: '{{bindings.provider}}',
      model: '{{bindings.model}}',
      memory: { window: 20 },
    });
  });

  it('refuses a template request with 422 naming every problem of its bindings', async () => {
    expect(
      await answer(await create({ template: 'ticket-board-agent', bindings: { provider: 'nowhere', knowledge_base: 'kb', colour: 'red' }, extra: 1 })),
    ).toEqual([
      422,
      {
        error: {
          message: 'Unknown key "extra": a flow from a template takes "name", "description", "template" and "bindings" (and 6 more problems)',
          type: 'invalid_request_error',
          param: 'extra',
          code: 'invalid_bindings',
          details: [
            { param: 'extra', message: 'Unknown key "extra": a flow from a template takes "name", "description", "template" and "bindings"' },
            { param: 'bindings.knowledge_base', message: 'Template "ticket-board-agent" does not use "knowledge_base"' },
            { param: 'bindings.colour', message: 'Unknown binding "colour": bindings are provider, model, knowledge_base, url' },
            { param: 'bindings.provider', message: 'Unknown provider connection "nowhere": add it under LLM Hub → Providers first' },
            { param: 'bindings.model', message: 'This template needs a model ("model")' },
            { param: 'bindings.url', message: 'This template needs the URL its tool calls ("url")' },
            { param: 'secrets.TICKETS_TOKEN', message: 'This template needs the secret TICKETS_TOKEN: set it first (PUT …/secrets/TICKETS_TOKEN)' },
          ],
        },
      },
    ]);
    const [status, body] = await answer(await create({ template: 'nope' }));
    expect([status, body.error.details]).toEqual([
      422,
      [
        {
          param: 'template',
          message:
            '"template" must name a template: one of chat-assistant, support-agent, router, http-tool-agent, ticket-board-agent (GET …/templates lists them)',
        },
      ],
    ]);
    const [, badUrl] = await answer(await create({ template: 'http-tool-agent', bindings: { provider: 'tools', model: 'echo', url: 'ftp://x' } }));
    expect(badUrl.error.details).toEqual([{ param: 'bindings.url', message: '"url" must be an http:// or https:// URL' }]);
    const [, badKb] = await answer(
      await create({ template: 'support-agent', name: '', bindings: { provider: 'tools', model: 'echo', knowledge_base: 'ghost' } }),
    );
    expect(badKb.error.details).toEqual([
      { param: 'name', message: '"name" must be a non-empty string of at most 200 characters' },
      { param: 'bindings.knowledge_base', message: 'Unknown knowledge base "ghost": create it under Knowledge first' },
    ]);
    expect((await (await h.get('/api/llm/acme/flows')).json()).flows).toEqual([]);
  });

  it('chat assistant: version 1 from the template, remembering the session', async () => {
    const response = await create({ name: 'My assistant', template: 'chat-assistant', bindings: { provider: 'tools', model: 'history' } });
    expect(response.status).toBe(201);
    const flow = await response.json();
    expect(flow).toMatchObject({ slug: 'my-assistant', name: 'My assistant', version: 1, note: 'From the template "Chat assistant with memory"' });
    expect(flow.definition.nodes[1].data).toMatchObject({ provider: 'tools', model: 'history' });
    expect((await chat('my-assistant', 'Hello', 's1')).text).toBe('History: user:Hello');
    expect((await chat('my-assistant', 'And again?', 's1')).text).toBe('History: user:Hello | assistant:History: user:Hello | user:And again?');
  });

  it('support agent: answers from the knowledge base', async () => {
    await h.post('/api/llm/acme/knowledge-bases', { name: 'handbook' });
    await h.post('/api/llm/acme/knowledge-bases/handbook/documents', {
      documents: [
        { name: 'refunds.md', text: '# Refunds\n\nRefunds are issued within 14 days of purchase.' },
        { name: 'shipping.md', text: '# Shipping\n\nParcels leave the warehouse every weekday.' },
      ],
    });
    const response = await create({ template: 'support-agent', bindings: { provider: 'tools', model: 'system', knowledge_base: 'handbook' } });
    expect(response.status).toBe(201);
    const { slug } = await response.json();
    expect(slug).toBe('support-agent');
    const { text } = await chat(slug, 'How long do refunds take?');
    expect(text).toMatch(/^You are a support agent\. Answer only from these excerpts/);
    expect(text).toContain('Refunds are issued within 14 days of purchase.');
  });

  it('router: a billing message goes to the billing specialist, anything else to the technical one', async () => {
    const { slug } = await (await create({ template: 'router', bindings: { provider: 'tools', model: 'echo' } })).json();
    const billing = await chat(slug, 'I have a billing question');
    expect(billing.text).toBe('Echo: I have a billing question');
    expect((await trace(billing.runId)).map((t) => [t.node, t.status])).toEqual([
      ['input', 'succeeded'],
      ['classify', 'succeeded'],
      ['route', 'succeeded'],
      ['billing', 'succeeded'],
      ['technical', 'skipped'],
      ['output', 'succeeded'],
    ]);
    const technical = await chat(slug, 'My app crashes');
    expect((await trace(technical.runId)).filter((t) => t.status === 'skipped').map((t) => t.node)).toEqual(['billing']);
  });

  it('agent with an HTTP tool: the model calls the API and answers with what it said', async () => {
    h.model.plans.set('api', [[{ name: 'call_api', args: { query: 'order 42' } }]]);
    const response = await create({ template: 'http-tool-agent', bindings: { provider: 'tools', model: 'plan:api', url: `${h.api.base}/orders` } });
    expect(response.status).toBe(201);
    const { slug } = await response.json();
    const { text } = await chat(slug, 'Where is order 42?');
    expect(text).toBe('Results: {"received":{"query":"order 42"},"authorization":null}');
    expect(h.api.requests.at(-1)).toMatchObject({ method: 'POST', url: '/orders', body: '{"query":"order 42"}' });
  });

  it('ticket board agent: needs its secret, then works the board over MCP', async () => {
    const bindings = { provider: 'tools', model: 'plan:board', url: mcpUrl };
    const [status, refused] = await answer(await create({ template: 'ticket-board-agent', bindings }));
    expect([status, refused.error.details]).toEqual([
      422,
      [{ param: 'secrets.TICKETS_TOKEN', message: 'This template needs the secret TICKETS_TOKEN: set it first (PUT …/secrets/TICKETS_TOKEN)' }],
    ]);
    expect((await h.put('/api/llm/acme/secrets/TICKETS_TOKEN', { value: boardToken })).status).toBe(200);
    const response = await create({ template: 'ticket-board-agent', bindings });
    expect(response.status).toBe(201);
    const { slug, definition } = await response.json();
    expect(definition.nodes.find((n: { id: string }) => n.id === 'board').data.headers).toEqual({ Authorization: 'Bearer {{secrets.TICKETS_TOKEN}}' });
    h.model.plans.set('board', [[{ name: 'create_ticket', args: { title: 'Printer on fire' } }]]);
    const { text, runId } = await chat(slug, 'File a ticket: the printer is on fire');
    expect(text).toMatch(/^Results: .*OPS-1/);
    expect(text).toContain('Printer on fire');
    expect(JSON.stringify(await trace(runId))).not.toContain(boardToken);
  });
});
