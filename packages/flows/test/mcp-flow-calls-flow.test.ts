// A flow using another flow as a tool over the organization's MCP endpoint (design/mcp.md, "Flows as MCP
// tools": a flow's own `mcp` tool node can call it, with the SSRF guard's allow-list).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startAgentHarness, toolFlow, type AgentHarness } from './helpers/agent-harness.ts';

describe.each(dialectsUnderTest())('a flow calling a flow over MCP on %s', (dialect) => {
  let h: AgentHarness;

  beforeAll(async () => {
    // The service itself listens on 127.0.0.1: the parent's MCP tool node may reach it only when it is allowed.
    h = await startAgentHarness(dialect, { FLOWS_ALLOWED_HOSTS: '127.0.0.1,127.0.0.2' });
    await h.save({ ...toolFlow('helper', 'echo', []), description: 'Answers any question' });
    expect((await h.put('/api/llm/acme/flows/helper/mcp', { enabled: true, tool_name: 'ask_helper' })).status).toBe(200);
  });
  afterAll(() => h?.close());

  it('runs the child flow as a tool of the parent: its answer goes to the model, and the child run is recorded with trigger "mcp"', async () => {
    h.model.plans.set('viamcp', [[{ name: 'ask_helper', args: { question: 'why?' } }]]);
    const url = `${h.base}/api/llm/acme/mcp`;
    await h.save(
      toolFlow('parent', 'plan:viamcp', [
        { id: 'flows', data: { kind: 'mcp', url, headers: { Authorization: `Bearer ${h.runToken}` }, allow: ['ask_helper'] } },
      ]),
    );
    const events = await h.streamLines('parent', { input: { question: 'go' } });
    const result = events.find((e) => e.type === 'tool_result')!;
    expect(result).toMatchObject({ node: 'answer', tool: 'ask_helper' });
    expect(result.error).toBeUndefined();
    expect(JSON.stringify(result.result)).toContain('Echo: why?');
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    const offered = h.model.calls.find((c) => c.model === 'plan:viamcp')!.body.tools!;
    // The model is offered the child flow as the endpoint lists it: its tool name, with its description.
    expect(offered).toEqual([{ type: 'function', function: expect.objectContaining({ name: 'ask_helper', description: 'Answers any question' }) }]);
    const runs = (await (await h.get('/api/llm/acme/runs?flow=helper')).json()) as { runs: Array<{ trigger: string; status: string; input: unknown }> };
    expect(runs.runs).toEqual([expect.objectContaining({ trigger: 'mcp', status: 'succeeded', input: { question: 'why?' } })]);
  });
});
