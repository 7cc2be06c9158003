import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialectsUnderTest, type TestDatabase } from '@switchboard/core/testing';
import type { App } from '@switchboard/core';
import { buildApp as buildBoard, createProject, createToken, loadConfig as loadBoardConfig, MCP_PATH, withTicketsStore } from '@switchboard/tickets';
import { startAgentHarness, toolFlow, type AgentHarness } from './helpers/agent-harness.ts';

/** input(question) → agent(flow) → output raw. */
function agentStep(slug: string, target: string) {
  return {
    name: slug,
    slug,
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'sub', type: 'agent', data: { flow: target, input: { question: '{{input.question}}' } } },
      { id: 'output', type: 'output', data: { format: 'raw' } },
    ],
    edges: [
      { from: 'input', to: 'sub' },
      { from: 'sub', to: 'output' },
    ],
  };
}

describe.each(dialectsUnderTest())('agent nodes on %s', (dialect) => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await startAgentHarness(dialect, { FLOWS_MAX_AGENT_DEPTH: '3' });
    await h.save(toolFlow('helper', 'echo', []));
  });
  afterAll(async () => {
    await h?.close();
  });

  it('runs another flow as a step with mapped input; its reply and usage count in the run', async () => {
    await h.save(agentStep('delegate', 'helper'));
    const response = await h.post('/api/llm/acme/flows/delegate/run', { input: { question: 'ping' } }, h.runToken);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('Echo: ping');
    const run = (await (await h.get(`/api/llm/acme/runs/${response.headers.get('x-run-id')}`)).json()) as {
      usage: unknown;
      trace: Array<{ node: string; output?: unknown }>;
    };
    expect(run.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(run.trace.find((t) => t.node === 'sub')!.output).toEqual({
      text: 'Echo: ping',
      output: 'Echo: ping',
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });

  it('offers a flow wired into an llm node as a tool with its input schema', async () => {
    h.model.plans.set('ask', [[{ name: 'ask_helper', args: { question: 'why?' } }]]);
    await h.save(
      toolFlow('asker', 'plan:ask', [{ id: 'helper', type: 'agent', data: { flow: 'helper', name: 'ask_helper', description: 'Asks the helper' } }]),
    );
    const events = await h.streamLines('asker', { input: { question: 'go' } });
    const result = events.find((e) => e.type === 'tool_result')!;
    expect(result).toMatchObject({ node: 'answer', tool: 'ask_helper', result: 'Echo: why?' });
    expect(events.at(-1)).toMatchObject({ type: 'done', output: 'Results: Echo: why?' });
    const request = h.model.calls.find((c) => c.model === 'plan:ask')!.body;
    expect(request.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'ask_helper',
          description: 'Asks the helper',
          parameters: expect.objectContaining({ type: 'object', properties: { question: { type: 'string' } }, required: ['question'] }),
        },
      },
    ]);
  });

  it('refuses on save a flow whose agents lead back to itself, naming the node and the cycle', async () => {
    const self = await h.post('/api/llm/acme/flows', agentStep('narcissus', 'narcissus'));
    expect(self.status).toBe(422);
    expect(((await self.json()) as { error: { message: string } }).error.message).toBe(
      'Node "sub": agent cycle "narcissus" → "narcissus"; a flow cannot call itself',
    );
    await h.save(agentStep('ping', 'pong'));
    const back = await h.post('/api/llm/acme/flows', agentStep('pong', 'ping'));
    expect(back.status).toBe(422);
    expect(((await back.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'invalid_flow',
      message: 'Node "sub": agent cycle "pong" → "ping" → "pong"; a flow cannot call itself',
    });
  });

  it('refuses a cycle at run time (flows stored without the save check) with a clear error', async () => {
    await h.stores.flows.save(h.orgId, agentStep('tick', 'tock') as never);
    await h.stores.flows.save(h.orgId, agentStep('tock', 'tick') as never);
    const response = await h.post('/api/llm/acme/flows/tick/run', { input: { question: 'loop' } }, h.runToken);
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('agent_cycle');
    expect(body.error.message).toBe('Flow "tock" failed: Agent cycle: flow "tick" is already running in this chain (tick → tock → tick)');
  });

  it('limits the depth of nested agents (FLOWS_MAX_AGENT_DEPTH)', async () => {
    await h.save(toolFlow('level-4', 'echo', []));
    await h.save(agentStep('level-3', 'level-4'));
    await h.save(agentStep('level-2', 'level-3'));
    await h.save(agentStep('level-1', 'level-2'));
    const ok = await h.post('/api/llm/acme/flows/level-2/run', { input: { question: 'deep' } }, h.runToken);
    expect(await ok.text()).toBe('Echo: deep');
    const response = await h.post('/api/llm/acme/flows/level-1/run', { input: { question: 'deep' } }, h.runToken);
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('agent_depth');
    expect(body.error.message).toBe(
      'Flow "level-2" failed: Flow "level-3" failed: Agent depth limit: level-1 → level-2 → level-3 → level-4 nests deeper than 3 flows (FLOWS_MAX_AGENT_DEPTH)',
    );
  });

  it('gives a refused agent tool call to the model as an error instead of failing the run', async () => {
    h.model.plans.set('self', [[{ name: 'myself', args: { question: 'again' } }]]);
    await h.stores.flows.save(h.orgId, toolFlow('selfish', 'plan:self', [{ id: 'me', type: 'agent', data: { flow: 'selfish', name: 'myself' } }]) as never);
    const response = await h.post('/api/llm/acme/flows/selfish/run', { input: { question: 'go' } }, h.runToken);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('Results: Agent cycle: flow "selfish" is already running in this chain (selfish → selfish)');
  });
});

describe.each(dialectsUnderTest())('the ticket board MCP server as an mcp tool on %s', (dialect) => {
  let h: AgentHarness;
  let board: App;
  let boardDb: TestDatabase;
  let mcpUrl = '';
  let token = '';
  beforeAll(async () => {
    h = await startAgentHarness(dialect);
    boardDb = await createTestDatabase(dialect);
    const env = { ...boardDb.env, LOG_LEVEL: 'silent', TICKETS_SUMMARY_WORKER: 'off' };
    token = await withTicketsStore(env, async (db) => {
      await createProject(db, { key: 'SUP', name: 'Support' });
      return (await createToken(db, 'SUP', 'flows')).token;
    });
    board = await buildBoard(loadBoardConfig(env));
    // 127.0.0.2 is in FLOWS_ALLOWED_HOSTS for these tests.
    await board.listen({ host: '127.0.0.2', port: 0 });
    mcpUrl = `http://127.0.0.2:${(board.server.address() as { port: number }).port}${MCP_PATH}`;
  });
  afterAll(async () => {
    await h?.close();
    await board?.close();
    await boardDb?.cleanup();
  });

  it('lists the allowed tools of the server and calls them with the Bearer token', async () => {
    h.model.plans.set('board', [[{ name: 'create_ticket', args: { title: 'Printer on fire', priority: 'high' } }], [{ name: 'list_tickets', args: {} }]]);
    await h.save(
      toolFlow('board', 'plan:board', [
        { id: 'tickets', data: { kind: 'mcp', url: mcpUrl, headers: { Authorization: `Bearer ${token}` }, allow: ['create_ticket', 'list_tickets'] } },
      ]),
    );
    const events = await h.streamLines('board', { input: { question: 'File it' } });
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results.map((r) => [r.tool, r.error])).toEqual([
      ['create_ticket', undefined],
      ['list_tickets', undefined],
    ]);
    expect(JSON.stringify(results[0].result)).toContain('Printer on fire');
    expect(JSON.stringify(results[1].result)).toContain('SUP-1');
    const request = h.model.calls.find((c) => c.model === 'plan:board')!.body;
    expect(request.tools!.map((t) => t.function.name).sort()).toEqual(['create_ticket', 'list_tickets']);
    expect(events.at(-1)!.type).toBe('done');
  });

  it('reports a refused token as the tool result, and the run still answers', async () => {
    h.model.plans.set('badtoken', [[{ name: 'tickets', args: {} }]]);
    await h.save(
      toolFlow('board-bad', 'plan:badtoken', [{ id: 'tickets', data: { kind: 'mcp', url: mcpUrl, headers: { Authorization: 'Bearer sbt_wrong' } } }]),
    );
    const events = await h.streamLines('board-bad', { input: { question: 'File it' } });
    const result = events.find((e) => e.type === 'tool_result')!;
    expect(result.error).toMatch(/^MCP server of tool node "tickets" unavailable: /);
    expect(events.at(-1)!.type).toBe('done');
  });

  it('refuses the MCP server on a loopback address not in FLOWS_ALLOWED_HOSTS', async () => {
    h.model.plans.set('loopmcp', [[{ name: 'tickets', args: {} }]]);
    const loopback = mcpUrl.replace('127.0.0.2', '127.0.0.1');
    await h.save(
      toolFlow('board-loop', 'plan:loopmcp', [{ id: 'tickets', data: { kind: 'mcp', url: loopback, headers: { Authorization: `Bearer ${token}` } } }]),
    );
    const events = await h.streamLines('board-loop', { input: { question: 'File it' } });
    expect(events.find((e) => e.type === 'tool_result')!.error).toMatch(/^MCP server of tool node "tickets" unavailable: .*Refused to connect to 127\.0\.0\.1/);
  });
});
