import { describe, expect, it } from 'vitest';
import { validateDefinition, type ValidationContext } from '../src/domain/flow-validation.ts';
import { secretNamesOf } from '../src/domain/secret-references.ts';
import { SecretMask } from '../src/engine/tool-secrets.ts';

const context: ValidationContext = { providers: new Set(['local']), secrets: new Set(['API_KEY', 'OTHER']) };

/** input → (extra nodes) → answer (llm) → output; the tool nodes named in `tools` are wired into answer. */
function flow(extra: Array<{ id: string; type: string; data: Record<string, unknown> }>, tools: string[] = [], llm: Record<string, unknown> = {}) {
  return {
    name: 'Secretive',
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
      ...extra,
      { id: 'answer', type: 'llm', data: { provider: 'local', model: 'm', prompt: '{{input.question}}', ...llm } },
      { id: 'output', type: 'output', data: { format: 'raw' } },
    ],
    edges: [{ from: 'input', to: 'answer' }, ...tools.map((id) => ({ from: id, to: 'answer' })), { from: 'answer', to: 'output' }],
  };
}

function problems(raw: unknown, ctx: ValidationContext = context): Array<{ param: string; message: string }> {
  try {
    validateDefinition(raw, ctx);
    return [];
  } catch (error) {
    return (error as { details: Array<{ param: string; message: string }> }).details;
  }
}

const httpTool = (request: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: 'api',
  type: 'tool',
  data: { kind: 'http', name: 'call_api', request, ...extra },
});
const ONLY = "may only be used in an HTTP tool's URL, headers or body, or an MCP tool's headers, so that a secret never reaches a model or a reply";

describe('{{secrets.NAME}} in flow definitions', () => {
  it("is accepted in an HTTP tool's URL, headers and body (text or JSON) and an MCP tool's headers", () => {
    const definition = flow(
      [
        httpTool({
          method: 'POST',
          url: 'https://api.example.com/v1/items?key={{secrets.API_KEY}}&q={{args.q}}',
          headers: { Authorization: 'Bearer {{secrets.API_KEY}}', 'X-Other': '{{ secrets.OTHER }}' },
          body: { token: '{{secrets.API_KEY}}', list: ['a {{secrets.OTHER}} b', { deep: '{{secrets.OTHER}}' }] },
        }),
        {
          id: 'text',
          type: 'tool',
          data: { kind: 'http', name: 'post_text', request: { method: 'POST', url: 'https://api.example.com/t', body: 'key={{secrets.API_KEY}}' } },
        },
        { id: 'board', type: 'tool', data: { kind: 'mcp', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer {{secrets.OTHER}}' } } },
      ],
      ['api', 'text', 'board'],
    );
    expect(problems(definition)).toEqual([]);
    // The definition is saved as it was sent: names, never values.
    expect(validateDefinition(definition, context).nodes[1].data).toEqual(definition.nodes[1].data);
    expect(secretNamesOf(definition.nodes[1] as never)).toEqual(['API_KEY', 'OTHER']);
    expect(secretNamesOf(definition.nodes[3] as never)).toEqual(['OTHER']);
  });

  it('is refused anywhere else, naming the node and the field', () => {
    const definition = flow(
      [
        { id: 'intro', type: 'template', data: { template: 'Use {{secrets.API_KEY}}' } },
        httpTool({ method: '{{secrets.OTHER}}', url: 'https://api.example.com/' }, { description: 'Calls with {{secrets.API_KEY}}' }),
        { id: 'board', type: 'tool', data: { kind: 'mcp', url: 'https://mcp.example.com/{{secrets.API_KEY}}', headers: {} } },
        { id: 'docs', type: 'retrieval', data: { knowledge_base: 'kb', query: '{{secrets.API_KEY}}' } },
      ],
      ['api', 'board'],
      { system: 'The key is {{secrets.API_KEY}}' },
    );
    definition.edges.push({ from: 'input', to: 'intro' }, { from: 'input', to: 'docs' });
    (definition.nodes.at(-1)!.data as Record<string, unknown>) = { format: 'json_template', template: { key: '{{secrets.OTHER}}' } };
    expect(problems(definition)).toEqual([
      { param: 'nodes[1].data.template', message: `Node "intro": {{secrets.API_KEY}} ${ONLY}` },
      { param: 'nodes[2].data.request.method', message: `Node "api": {{secrets.OTHER}} ${ONLY}` },
      { param: 'nodes[2].data.description', message: `Node "api": {{secrets.API_KEY}} ${ONLY}` },
      { param: 'nodes[3].data.url', message: `Node "board": {{secrets.API_KEY}} ${ONLY}` },
      { param: 'nodes[4].data.query', message: `Node "docs": {{secrets.API_KEY}} ${ONLY}` },
      { param: 'nodes[5].data.system', message: `Node "answer": {{secrets.API_KEY}} ${ONLY}` },
      { param: 'nodes[6].data.template.key', message: `Node "output": {{secrets.OTHER}} ${ONLY}` },
    ]);
  });

  it('refuses an unknown secret and a malformed reference, and keeps "secrets" from being a node id', () => {
    const definition = flow([httpTool({ url: 'https://api.example.com/', headers: { A: '{{secrets.MISSING}}', B: '{{secrets.API_KEY.inner}}' } })], ['api']);
    expect(problems(definition)).toEqual([
      {
        param: 'nodes[1].data.request.headers.A',
        message: 'Node "api": unknown secret {{secrets.MISSING}}: the organization has no secret "MISSING" (set it first)',
      },
      {
        param: 'nodes[1].data.request.headers.B',
        message: 'Node "api": {{secrets.API_KEY.inner}} is not a secret reference: write {{secrets.NAME}}, NAME being letters, digits and "_"',
      },
    ]);
    const named = flow([{ id: 'secrets', type: 'template', data: { template: 'x' } }]);
    expect(problems(named)).toEqual([{ param: 'nodes[1].id', message: 'Node "secrets": "secrets" is reserved for references' }]);
  });

  it('checks placement but not existence when the caller has not loaded the names (the builder in the browser)', () => {
    const unknown = flow([httpTool({ url: 'https://api.example.com/', headers: { A: '{{secrets.MISSING}}' } })], ['api']);
    expect(problems(unknown, { providers: context.providers })).toEqual([]);
    const misplaced = flow([], [], { prompt: '{{secrets.MISSING}}' });
    expect(problems(misplaced, { providers: context.providers })).toEqual([
      { param: 'nodes[1].data.prompt', message: `Node "answer": {{secrets.MISSING}} ${ONLY}` },
    ]);
  });
});

describe('SecretMask', () => {
  it('masks a value as it is and URL-, form- and JSON-escaped, in text, errors and JSON values (keys too)', () => {
    const value = 'sk "live"/a+b&c=d é';
    const mask = new SecretMask([value, 'other-1234']);
    const echoed = {
      url: `/x?key=${encodeURIComponent(value)}&form=${new URLSearchParams({ v: value }).toString().slice(2)}`,
      text: JSON.stringify({ header: `Bearer ${value}` }),
      [value]: ['other-1234', 42, null, true],
    };
    const masked = mask.value(echoed);
    expect(JSON.stringify(masked)).not.toContain('live');
    expect(JSON.stringify(masked)).not.toContain('other-1234');
    expect(masked).toEqual({ url: '/x?key=***&form=***', text: '{"header":"Bearer ***"}', '***': ['***', 42, null, true] });
    expect(mask.error(new Error(`HTTP 401: ${value}`)).message).toBe('HTTP 401: ***');
    expect(new SecretMask([]).value(echoed)).toBe(echoed);
  });
});
