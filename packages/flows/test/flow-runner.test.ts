import { describe, expect, it } from 'vitest';
import { compileFlow } from '../src/domain/compiled-flow.ts';
import { validateDefinition } from '../src/domain/flow-validation.ts';
import { RunFailure, runFlow, type RunRequest } from '../src/engine/flow-runner.ts';

// input → template → output: no provider, tool or store is touched.
const flow = compileFlow(
  validateDefinition(
    {
      name: 'Echo',
      nodes: [
        { id: 'input', type: 'input', data: { variables: [{ name: 'q', type: 'string', required: true }] } },
        { id: 'echo', type: 'template', data: { template: 'You said {{input.q}}' } },
        { id: 'output', type: 'output', data: { format: 'raw' } },
      ],
      edges: [
        { from: 'input', to: 'echo' },
        { from: 'echo', to: 'output' },
      ],
    },
    { providers: new Set() },
  ),
);

function request(emit: RunRequest['emit']): RunRequest {
  return {
    flow,
    input: { q: 'hi' },
    metadata: {},
    conversation: [],
    providers: {} as never,
    signal: new AbortController().signal,
    streaming: false,
    emit,
    providerRetries: 0,
    services: {} as never,
  };
}

describe('flow runner', () => {
  it('runs the nodes in order and answers with the reply text', async () => {
    const result = await runFlow(request(() => undefined));
    expect(result.text).toBe('You said hi');
    expect(result.trace.map((t) => [t.node, t.status])).toEqual([
      ['input', 'succeeded'],
      ['echo', 'succeeded'],
      ['output', 'succeeded'],
    ]);
  });

  it('fails the run, instead of never settling, when recording a node result throws', async () => {
    const emit: RunRequest['emit'] = (event) => {
      if (event.type === 'node' && event.node === 'echo' && event.status === 'finished') throw new Error('event sink broke');
    };
    const failure = await runFlow(request(emit)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RunFailure);
    expect((failure as RunFailure).error.code).toBe('internal');
    expect((failure as RunFailure).error.message).toBe('Internal error while running the flow');
    expect((failure as RunFailure).trace.map((t) => [t.node, t.status])).toEqual([
      ['input', 'succeeded'],
      ['echo', 'failed'],
    ]);
  });
});
