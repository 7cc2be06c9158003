import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startAgentHarness, toolFlow, type AgentHarness } from './helpers/agent-harness.ts';

const cityParams = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe.each(dialectsUnderTest())('tool-calling llm nodes on %s', (dialect) => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await startAgentHarness(dialect);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('runs parallel tool calls, gives a failing tool its error as the result, and streams every call and result', async () => {
    h.model.plans.set('parallel', [
      [
        { name: 'get_weather', args: { city: 'Paris' } },
        { name: 'get_weather', args: { city: 'Oslo' } },
        { name: 'broken_tool', args: {} },
      ],
    ]);
    await h.save(
      toolFlow('weather', 'plan:parallel', [
        {
          id: 'weather',
          data: {
            kind: 'http',
            name: 'get_weather',
            description: 'Weather of a city',
            parameters: cityParams,
            request: { method: 'GET', url: `${h.api.base}/weather/{{args.city}}` },
          },
        },
        { id: 'broken', data: { kind: 'http', name: 'broken_tool', request: { url: `${h.api.base}/fail` } } },
      ]),
    );
    const events = await h.streamLines('weather', { input: { question: 'Weather?' } });
    const tools = events.filter((e) => e.type === 'tool_call' || e.type === 'tool_result');
    const calls = tools.filter((e) => e.type === 'tool_call');
    const firstCall = String(calls[0].call_id).replace(/_0$/, '');
    expect(calls).toEqual([
      { type: 'tool_call', node: 'answer', tool: 'get_weather', call_id: `${firstCall}_0`, args: { city: 'Paris' } },
      { type: 'tool_call', node: 'answer', tool: 'get_weather', call_id: `${firstCall}_1`, args: { city: 'Oslo' } },
      { type: 'tool_call', node: 'answer', tool: 'broken_tool', call_id: `${firstCall}_2`, args: {} },
    ]);
    const results = tools.filter((e) => e.type === 'tool_result').sort((a, b) => String(a.call_id).localeCompare(String(b.call_id)));
    expect(results).toEqual([
      { type: 'tool_result', node: 'answer', tool: 'get_weather', call_id: `${firstCall}_0`, result: { city: 'Paris', temp_c: 15 } },
      { type: 'tool_result', node: 'answer', tool: 'get_weather', call_id: `${firstCall}_1`, result: { city: 'Oslo', temp_c: 12 } },
      { type: 'tool_result', node: 'answer', tool: 'broken_tool', call_id: `${firstCall}_2`, error: 'HTTP 500: tool backend exploded' },
    ]);
    const done = events.at(-1)!;
    expect(done).toEqual({
      type: 'done',
      output: 'Results: {"city":"Paris","temp_c":15} | {"city":"Oslo","temp_c":12} | HTTP 500: tool backend exploded',
      usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
    });
    // The tool calls happen between the llm node's start and finish.
    const started = events.findIndex((e) => e.type === 'node' && e.node === 'answer' && e.status === 'started');
    const finished = events.findIndex((e) => e.type === 'node' && e.node === 'answer' && e.status === 'finished');
    expect(events.indexOf(calls[0])).toBeGreaterThan(started);
    expect(events.indexOf(tools.at(-1)!)).toBeLessThan(finished);
    // The model saw both tools, with their JSON Schemas.
    const request = h.model.calls.filter((c) => c.model === 'plan:parallel')[0].body;
    expect(request.tools!.map((t) => t.function.name)).toEqual(['get_weather', 'broken_tool']);
    expect(request.tools![0].function.parameters).toMatchObject(cityParams);
  });

  it('records every tool call with its result or error in the run trace', async () => {
    const response = await h.post('/api/llm/acme/flows/weather/run', { input: { question: 'Weather?' } }, h.runToken);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('Results: {"city":"Paris","temp_c":15} | {"city":"Oslo","temp_c":12} | HTTP 500: tool backend exploded');
    const run = (await (await h.get(`/api/llm/acme/runs/${response.headers.get('x-run-id')}`)).json()) as {
      status: string;
      trace: Array<Record<string, unknown>>;
    };
    expect(run.status).toBe('succeeded');
    const answer = run.trace.find((t) => t.node === 'answer')!;
    const calls = (answer.tool_calls as Array<Record<string, unknown>>).map(({ call_id: _id, ...rest }) => rest);
    expect(calls).toEqual([
      { tool: 'get_weather', node: 'weather', args: { city: 'Paris' }, result: { city: 'Paris', temp_c: 15 } },
      { tool: 'get_weather', node: 'weather', args: { city: 'Oslo' }, result: { city: 'Oslo', temp_c: 12 } },
      { tool: 'broken_tool', node: 'broken', args: {}, error: 'HTTP 500: tool backend exploded' },
    ]);
    expect(run.trace.map((t) => [t.node, t.status])).toEqual([
      ['input', 'succeeded'],
      ['weather', 'succeeded'],
      ['broken', 'succeeded'],
      ['answer', 'succeeded'],
      ['output', 'succeeded'],
    ]);
  });

  it('renders method, URL, headers and body from args, input and metadata', async () => {
    h.model.plans.set('order', [[{ name: 'create_order', args: { sku: 'A/1 b', quantity: 2 } }]]);
    await h.save(
      toolFlow('orders', 'plan:order', [
        {
          id: 'order',
          data: {
            kind: 'http',
            name: 'create_order',
            parameters: { type: 'object', properties: { sku: { type: 'string' }, quantity: { type: 'integer' } }, required: ['sku'] },
            request: {
              method: 'POST',
              url: `${h.api.base}/orders?sku={{args.sku}}`,
              headers: { Authorization: 'Bearer {{metadata.api_token}}' },
              body: { sku: '{{args.sku}}', quantity: '{{args.quantity}}', note: 'asked: {{input.question}}' },
            },
          },
        },
      ]),
    );
    const response = await h.post('/api/llm/acme/flows/orders/run', { input: { question: 'Buy' }, metadata: { api_token: 'shop-secret' } }, h.runToken);
    expect(await response.text()).toBe('Results: {"received":{"sku":"A/1 b","quantity":2,"note":"asked: Buy"},"authorization":"Bearer shop-secret"}');
    const request = h.api.requests.find((r) => r.url.startsWith('/orders'))!;
    expect(request.url).toBe('/orders?sku=A%2F1%20b');
    expect(request.headers['content-type']).toBe('application/json');
  });

  it('limits the response size and the time of a tool call, and reports missing arguments', async () => {
    h.model.plans.set('limits', [
      [
        { name: 'big', args: {} },
        { name: 'hang', args: {} },
        { name: 'weather', args: {} },
      ],
    ]);
    await h.save(
      toolFlow('limits', 'plan:limits', [
        { id: 'big', data: { kind: 'http', name: 'big', request: { url: `${h.api.base}/big` }, max_response_bytes: 1000 } },
        { id: 'hang', data: { kind: 'http', name: 'hang', request: { url: `${h.api.base}/hang` }, timeout_ms: 200 } },
        { id: 'weather', data: { kind: 'http', name: 'weather', parameters: cityParams, request: { url: `${h.api.base}/weather/{{args.city}}` } } },
      ]),
    );
    const response = await h.post('/api/llm/acme/flows/limits/run', { input: { question: 'go' } }, h.runToken);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(
      'Results: The response is larger than 1000 bytes | The tool did not answer within 200 ms | Missing required argument(s): city',
    );
  });

  it('keeps what the model says before its tool calls, a blank line before the next step, streaming or not', async () => {
    h.model.plans.set('chatty', [
      [
        { name: '__say', args: { text: 'Let me check.' } },
        { name: 'get_weather', args: { city: 'Rome' } },
      ],
    ]);
    await h.save(
      toolFlow('chatty', 'plan:chatty', [
        { id: 'weather', data: { kind: 'http', name: 'get_weather', parameters: cityParams, request: { url: `${h.api.base}/weather/{{args.city}}` } } },
      ]),
    );
    const expected = 'Let me check.\n\nResults: {"city":"Rome","temp_c":12}';
    const events = await h.streamLines('chatty', { input: { question: 'Rome?' } });
    expect(
      events
        .filter((e) => e.type === 'delta')
        .map((e) => e.content)
        .join(''),
    ).toBe(expected);
    expect(events.at(-1)).toMatchObject({ type: 'done', output: expected });
    const response = await h.post('/api/llm/acme/flows/chatty/run', { input: { question: 'Rome?' } }, h.runToken);
    expect(await response.text()).toBe(expected);
  });

  it('stops the tool loop after max_steps model calls', async () => {
    h.model.plans.set(
      'forever',
      Array.from({ length: 10 }, () => [{ name: 'get_weather', args: { city: 'Rome' } }]),
    );
    await h.save(
      toolFlow(
        'forever',
        'plan:forever',
        [{ id: 'weather', data: { kind: 'http', name: 'get_weather', parameters: cityParams, request: { url: `${h.api.base}/weather/{{args.city}}` } } }],
        { maxSteps: 3 },
      ),
    );
    const before = h.model.calls.length;
    const response = await h.post('/api/llm/acme/flows/forever/run', { input: { question: 'loop' } }, h.runToken);
    expect(response.status).toBe(200);
    expect(h.model.calls.length - before).toBe(3);
    const run = (await (await h.get(`/api/llm/acme/runs/${response.headers.get('x-run-id')}`)).json()) as {
      trace: Array<{ node: string; tool_calls?: unknown[] }>;
    };
    expect(run.trace.find((t) => t.node === 'answer')!.tool_calls).toHaveLength(3);
  });

  it('refuses 3 saves of malformed tool nodes with messages naming the node', async () => {
    const bad = toolFlow('bad-tools', 'echo', [{ id: 'lookup', data: { kind: 'http', name: 'has space', request: { url: 'ftp://x' } } }]);
    const response = await h.post('/api/llm/acme/flows', bad);
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { code: string; details: Array<{ message: string }> } };
    expect(body.error.code).toBe('invalid_flow');
    expect(body.error.details.map((d) => d.message)).toEqual([
      'Node "lookup": "name" must be 1-64 letters, digits, "_" or "-"',
      'Node "lookup": "request.url" must be an http(s) URL',
    ]);
    const dangling = {
      ...toolFlow('dangling', 'echo', []),
      nodes: [...toolFlow('dangling', 'echo', []).nodes, { id: 'lonely', type: 'tool', data: { kind: 'mcp', url: 'https://mcp.example/mcp' } }],
    };
    const second = (await (await h.post('/api/llm/acme/flows', dangling)).json()) as { error: { message: string } };
    expect(second.error.message).toBe('Node "lonely": a tool node must have edges to llm nodes only (the llm nodes that may call it)');
    const kind = toolFlow('kind', 'echo', [{ id: 'what', data: { kind: 'ftp' } }]);
    expect(((await (await h.post('/api/llm/acme/flows', kind)).json()) as { error: { message: string } }).error.message).toBe(
      'Node "what": "kind" must be "http" or "mcp"',
    );
  });
});
