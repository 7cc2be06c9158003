import { describe, expect, it } from 'vitest';
import { checkDefinition } from '../../web/src/builder/problems.ts';
import type { Definition } from '../../web/src/canvas/definition.ts';

const withSecret = (name: string): Definition =>
  ({
    name: 'Shop',
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string' }] } },
      {
        id: 'api',
        type: 'tool',
        data: { kind: 'http', name: 'lookup', request: { method: 'GET', url: 'https://shop.example/orders', headers: { 'X-Key': `{{secrets.${name}}}` } } },
      },
      { id: 'answer', type: 'llm', data: { provider: 'local', model: 'echo', prompt: '{{input.question}}' } },
      { id: 'output', type: 'output', data: { format: 'raw' } },
    ],
    edges: [
      { from: 'input', to: 'answer' },
      { from: 'api', to: 'answer' },
      { from: 'answer', to: 'output' },
    ],
  }) as unknown as Definition;

describe('the live check of secret references', () => {
  it('reports a secret the organization does not have once its secrets are known, and none before', () => {
    const providers = new Set(['local']);
    expect(checkDefinition(withSecret('SHOP_KEY'), providers, new Set(['SHOP_KEY']))).toEqual([]);
    const problems = checkDefinition(withSecret('MISSING'), providers, new Set(['SHOP_KEY']));
    expect(problems).toHaveLength(1);
    expect(problems[0].param).toMatch(/^nodes\[1\]/);
    expect(problems[0].message).toContain('MISSING');
    expect(checkDefinition(withSecret('MISSING'), providers)).toEqual([]);
  });
});
