import { describe, expect, it } from 'vitest';
import { STARTED, finalStatuses, foldRunEvent, readJsonLines, toolStatuses, type RunEvent } from '../../web/src/builder/run-stream.ts';
import type { Definition } from '../../web/src/canvas/definition.ts';

const flow: Definition = {
  name: 'Routed',
  nodes: [
    { id: 'input', type: 'input', data: {} },
    { id: 'route', type: 'switch', data: { cases: [{ if: { left: 'a', op: 'exists' }, then: 'answer' }], else: 'fallback' } },
    { id: 'answer', type: 'llm', data: { provider: 'p', model: 'm' } },
    { id: 'fallback', type: 'template', data: { template: 'x' } },
    { id: 'helper', type: 'agent', data: { flow: 'helper-flow' } },
    { id: 'lookup', type: 'tool', data: { kind: 'http', name: 'lookup' } },
    { id: 'output', type: 'output', data: { format: 'raw' } },
  ],
  edges: [
    { from: 'input', to: 'route' },
    { from: 'route', to: 'answer' },
    { from: 'route', to: 'fallback' },
    { from: 'helper', to: 'answer' },
    { from: 'lookup', to: 'answer' },
    { from: 'answer', to: 'output' },
    { from: 'fallback', to: 'output' },
  ],
};

const events: RunEvent[] = [
  { type: 'run', run_id: 'run_1', flow: 'routed', version: 3 },
  { type: 'node', node: 'input', status: 'started' },
  { type: 'node', node: 'input', status: 'finished', ms: 0.4 },
  { type: 'node', node: 'answer', status: 'started' },
  { type: 'tool_call', node: 'answer', tool: 'helper_flow', call_id: 'c1', args: { q: 1 } },
  { type: 'tool_result', node: 'answer', tool: 'helper_flow', call_id: 'c1', result: 'ok' },
  { type: 'delta', content: 'Hel' },
  { type: 'delta', content: 'lo' },
];

describe('the run stream', () => {
  it('folds events into the answer, node states, steps and tool calls', () => {
    const view = events.reduce(foldRunEvent, STARTED);
    expect(view).toEqual({
      phase: 'running',
      runId: 'run_1',
      version: 3,
      answer: 'Hello',
      nodes: { input: 'finished', answer: 'running' },
      steps: [
        { node: 'input', status: 'finished', ms: 0.4 },
        { node: 'answer', status: 'running', ms: undefined },
      ],
      tools: [{ callId: 'c1', node: 'answer', tool: 'helper_flow', args: { q: 1 }, result: 'ok', error: undefined, done: true }],
    });
    const done = foldRunEvent(foldRunEvent(view, { type: 'node', node: 'answer', status: 'finished', ms: 12 }), {
      type: 'done',
      output: 'Hello',
      usage: { total_tokens: 9 },
    });
    expect(done).toMatchObject({ phase: 'succeeded', output: 'Hello', usage: { total_tokens: 9 } });
    const failed = foldRunEvent(view, { type: 'error', error: { message: 'upstream exploded', code: 'upstream_error' } });
    expect(failed).toMatchObject({ phase: 'failed', error: 'upstream exploded', nodes: { input: 'finished', answer: 'failed' } });
  });

  it('marks the branch not taken skipped, the tools called finished and tools not called nothing; the trace has the last word', () => {
    const view = [
      ...events,
      { type: 'node', node: 'answer', status: 'finished' } as RunEvent,
      { type: 'node', node: 'output', status: 'started' } as RunEvent,
    ].reduce(foldRunEvent, STARTED);
    expect(toolStatuses(flow, view.tools)).toEqual({ helper: 'finished' });
    expect(finalStatuses(view, flow)).toEqual({
      input: 'finished',
      route: 'skipped',
      answer: 'finished',
      fallback: 'skipped',
      helper: 'finished',
      output: 'running',
    });
    expect(
      finalStatuses(view, flow, [
        { node: 'route', status: 'succeeded' },
        { node: 'output', status: 'failed' },
      ]),
    ).toMatchObject({ route: 'finished', output: 'failed' });
    const erred = foldRunEvent(foldRunEvent(STARTED, { type: 'tool_call', node: 'answer', tool: 'lookup', call_id: 'c2', args: {} }), {
      type: 'tool_result',
      node: 'answer',
      tool: 'lookup',
      call_id: 'c2',
      error: 'blocked address',
    });
    expect(toolStatuses(flow, erred.tools)).toEqual({ lookup: 'failed' });
  });

  it('reads JSON Lines split anywhere across chunks, each event as soon as its line is whole', async () => {
    const text = `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
    const bytes = new TextEncoder().encode(text);
    const cuts = [0, 5, 17, 60, 61, 200, bytes.length];
    const seen: string[] = [];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 1; i < cuts.length; i += 1) controller.enqueue(bytes.slice(cuts[i - 1], cuts[i]));
        controller.close();
      },
    });
    await readJsonLines(body, (event) => seen.push(event.type));
    expect(seen).toEqual(events.map((e) => e.type));
  });
});
