import { startHarness, type Harness } from './harness.ts';
import { ToolApi } from './tool-api.ts';
import { ToolUpstream } from './tool-upstream.ts';

/** The flows harness plus a tool-calling fake model (provider `tools`) and a fake tool API on 127.0.0.2 (allowed). */
export interface AgentHarness extends Harness {
  model: ToolUpstream;
  api: ToolApi;
  orgId: number;
}

/** Starts the harness with FLOWS_ALLOWED_HOSTS=127.0.0.2 (the tool API's address); `env` adds variables. */
export async function startAgentHarness(dialect: 'sqlite' | 'postgres', env: Record<string, string> = {}): Promise<AgentHarness> {
  const h = await startHarness(dialect, { FLOWS_ALLOWED_HOSTS: '127.0.0.2', ...env });
  const model = await new ToolUpstream().start();
  const api = await new ToolApi().start('127.0.0.2');
  const org = (await h.stores.orgs.findOrg('acme'))!;
  await h.stores.orgs.setProvider(org.id, { name: 'tools', kind: 'openai-compatible', baseUrl: model.url });
  const close = h.close;
  return Object.assign(h, {
    model,
    api,
    orgId: org.id,
    async close() {
      await close();
      await model.close();
      await api.close();
    },
  });
}

/** input(question) → llm (provider tools, `model`) → output(format), with the given tool nodes wired into the llm. */
export function toolFlow(
  slug: string,
  model: string,
  tools: Array<{ id: string; type?: string; data: Record<string, unknown> }>,
  options: { maxSteps?: number; format?: string } = {},
) {
  return {
    name: slug,
    slug,
    nodes: [
      { id: 'input', type: 'input', data: { variables: [{ name: 'question', type: 'string', required: true }] } },
      ...tools.map((t) => ({ id: t.id, type: t.type ?? 'tool', data: t.data })),
      {
        id: 'answer',
        type: 'llm',
        data: { provider: 'tools', model, prompt: '{{input.question}}', ...(options.maxSteps ? { max_steps: options.maxSteps } : {}) },
      },
      { id: 'output', type: 'output', data: { format: options.format ?? 'raw' } },
    ],
    edges: [{ from: 'input', to: 'answer' }, ...tools.map((t) => ({ from: t.id, to: 'answer' })), { from: 'answer', to: 'output' }],
  };
}
