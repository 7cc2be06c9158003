/** The smallest flow with a typed input and no model: `{"who"}` in, `Hello WHO` out (sessions, OAuth and MCP tests). */
export const GREETER_FLOW = {
  name: 'Greeter',
  slug: 'greeter',
  nodes: [
    { id: 'input', type: 'input', data: { variables: [{ name: 'who', type: 'string', required: true }] } },
    { id: 'reply', type: 'template', data: { template: 'Hello {{input.who}}' } },
    { id: 'output', type: 'output', data: { format: 'raw' } },
  ],
  edges: [
    { from: 'input', to: 'reply' },
    { from: 'reply', to: 'output' },
  ],
};
