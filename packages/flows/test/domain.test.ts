import { describe, expect, it } from 'vitest';
import { renderJsonTemplate, renderTemplate, referencesIn, type Scope } from '../src/domain/references.ts';
import { compare, chooseBranch } from '../src/domain/switch-evaluation.ts';
import { buildGraph } from '../src/domain/flow-graph.ts';
import { slugify } from '../src/domain/slug.ts';
import { validateDefinition } from '../src/domain/flow-validation.ts';
import { pythonLiteral } from '../src/domain/snippets.ts';
import { parseChatBody } from '../src/domain/run-request.ts';

const scope: Scope = {
  input: { question: 'Why?', count: 3, tags: ['a', 'b'], nested: { deep: true } },
  metadata: { user: 'u1' },
  nodes: { answer: { text: 'Because.', usage: { total_tokens: 5 } } },
};

describe('references', () => {
  it('finds references with dotted paths', () => {
    expect(referencesIn('{{input.question}} and {{ answer.usage.total_tokens }}')).toEqual([
      { root: 'input', path: ['question'], raw: '{{input.question}}' },
      { root: 'answer', path: ['usage', 'total_tokens'], raw: '{{ answer.usage.total_tokens }}' },
    ]);
  });

  it('renders text: strings as they are, numbers as text, objects as JSON, absent as empty', () => {
    expect(renderTemplate('Q: {{input.question}} n={{input.count}} t={{input.tags}} m={{metadata.user}} x={{metadata.none}} {{ghost.text}}', scope)).toBe(
      'Q: Why? n=3 t=["a","b"] m=u1 x= ',
    );
  });

  it('keeps the JSON type of a value that is exactly one reference in a json_template', () => {
    expect(
      renderJsonTemplate(
        {
          tags: '{{input.tags}}',
          n: ' {{input.count}} ',
          deep: '{{input.nested.deep}}',
          text: 'A: {{answer.text}}',
          none: '{{metadata.x}}',
          list: ['{{input.count}}', 1, null],
        },
        scope,
      ),
    ).toEqual({
      tags: ['a', 'b'],
      n: 3,
      deep: true,
      text: 'A: Because.',
      none: null,
      list: [3, 1, null],
    });
  });
});

describe('switch conditions', () => {
  it('evaluates every operator', () => {
    expect(compare('equals', 'pro', 'pro')).toBe(true);
    expect(compare('equals', 5, '5')).toBe(true);
    expect(compare('equals', ['a'], ['a'])).toBe(true);
    expect(compare('not_equals', 'free', 'pro')).toBe(true);
    expect(compare('contains', 'hello world', 'world')).toBe(true);
    expect(compare('contains', ['a', 'b'], 'b')).toBe(true);
    expect(compare('contains', { k: 1 }, 'k')).toBe(true);
    expect(compare('contains', 'abc', 'z')).toBe(false);
    expect(compare('matches', 'order #123', '#\\d+')).toBe(true);
    expect(compare('matches', 'abc', '(')).toBe(false);
    expect(compare('gt', 10, '9')).toBe(true);
    expect(compare('gt', 'x', 1)).toBe(false);
    expect(compare('lt', 2, 3)).toBe(true);
    expect(compare('exists', '', undefined)).toBe(false);
    expect(compare('exists', 0, undefined)).toBe(true);
    expect(compare('exists', undefined, undefined)).toBe(false);
  });

  it('picks the first matching case, else the else branch, else none', () => {
    const data = {
      cases: [
        { if: { left: '{{input.count}}', op: 'gt' as const, right: 5 }, then: 'big' },
        { if: { left: '{{input.tags}}', op: 'contains' as const, right: 'b' }, then: 'tagged' },
      ],
      else: 'other',
    };
    expect(chooseBranch(data, scope)).toBe('tagged');
    expect(chooseBranch({ ...data, cases: [data.cases[0]] }, scope)).toBe('other');
    expect(chooseBranch({ cases: [data.cases[0]] }, scope)).toBeNull();
  });
});

describe('graph ordering', () => {
  it('orders by dependencies and reports cycles', () => {
    const nodes = ['a', 'b', 'c', 'd'].map((id) => ({ id, type: 'template' as const, data: {} }));
    const graph = buildGraph(nodes, [
      { from: 'c', to: 'b' },
      { from: 'a', to: 'c' },
      { from: 'b', to: 'd' },
    ]);
    expect('order' in graph && graph.order).toEqual(['a', 'c', 'b', 'd']);
    expect(
      buildGraph(nodes, [
        { from: 'a', to: 'b' },
        { from: 'b', to: 'a' },
      ]),
    ).toEqual({ cycle: ['a', 'b'] });
  });
});

describe('slugs and validation', () => {
  it('slugifies names', () => {
    expect(slugify('Support Bot!')).toBe('support-bot');
    expect(slugify('Crème brûlée — FAQ')).toBe('creme-brulee-faq');
    expect(slugify('!!!')).toBe('flow');
  });

  const base = () => ({
    name: 'S',
    nodes: [
      {
        id: 'input',
        type: 'input',
        data: {
          variables: [
            { name: 'q', type: 'string', required: true },
            { name: 'n', type: 'integer', default: 'x' },
          ],
        },
      },
      { id: 'route', type: 'switch', data: { cases: [{ if: { left: '{{input.q}}', op: 'matches', right: '(' }, then: 'a' }], else: 'nowhere' } },
      { id: 'a', type: 'template', data: { template: '{{b.text}} {{input.q' } },
      { id: 'b', type: 'template', data: { template: '{{route.text}}' } },
      { id: 'output', type: 'output', data: { format: 'raw' } },
    ],
    edges: [
      { from: 'input', to: 'route' },
      { from: 'route', to: 'a' },
      { from: 'route', to: 'b' },
      { from: 'a', to: 'output' },
      { from: 'b', to: 'output' },
    ],
  });

  it('lists every problem of a definition, each naming its node', () => {
    // A FlowsError from invalidFlow(): its details are the problems.
    let error: { status: number; message: string; details: Array<{ message: string }> } | undefined;
    try {
      validateDefinition(base(), { providers: new Set() });
    } catch (e) {
      error = e as typeof error;
    }
    expect(error?.status).toBe(422);
    expect(error?.details.map((d) => d.message)).toEqual([
      'Node "input": default of "n" must be an integer',
      'Node "route": case 1: "(" is not a valid regular expression',
      'Node "route": "else" must name a node this switch has an edge to',
      'Node "route": the edge to "b" is not a branch of any case or "else"',
      'Node "a": unknown reference {{b.text}}: node "b" does not run before "a" (add an edge)',
      'Node "b": unknown reference {{route.text}}: a switch node has no field "text" (it has branch)',
    ]);
    expect(error?.message).toBe('Node "input": default of "n" must be an integer (and 5 more problems)');
  });
});

describe('wire helpers', () => {
  it('writes Python literals', () => {
    expect(pythonLiteral({ a: true, b: null, c: [1, 'x', false] })).toBe('{"a": True, "b": None, "c": [1, "x", False]}');
  });

  it('maps a chat completion request onto the first required string variable', () => {
    const variables = [
      { name: 'n', type: 'integer' as const },
      { name: 'topic', type: 'string' as const },
      { name: 'question', type: 'string' as const, required: true },
    ];
    expect(
      parseChatBody(
        {
          messages: [
            { role: 'developer', content: 'Rules' },
            { role: 'user', content: [{ type: 'text', text: 'one' }] },
            { role: 'assistant', content: 'two' },
            { role: 'user', content: 'three' },
          ],
          input: { n: 2 },
          stream: true,
        },
        variables,
      ),
    ).toEqual({
      input: { n: 2, question: 'three' },
      conversation: [
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'two' },
      ],
      callerSystem: 'Rules',
      stream: true,
      metadata: {},
    });
  });
});
