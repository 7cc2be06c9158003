import type { FlowDefinition } from '../api/types.ts';

/** A new flow's first version: an Input node with one text variable wired to a raw Output node. */
export function starterDefinition(name: string): FlowDefinition {
  return {
    name,
    nodes: [
      {
        id: 'input',
        type: 'input',
        data: { variables: [{ name: 'message', type: 'string', required: true, description: 'The user message' }] },
        position: { x: 80, y: 160 },
      },
      { id: 'output', type: 'output', data: { format: 'raw' }, position: { x: 520, y: 160 } },
    ],
    edges: [{ from: 'input', to: 'output' }],
  };
}
