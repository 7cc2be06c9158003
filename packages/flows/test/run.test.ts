import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startHarness, simpleFlow, type Harness } from './helpers/harness.ts';

describe.each(dialectsUnderTest())('running flows on %s', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(dialect);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers a chat_completion flow with the ChatCompletion object, X-Run-Id and usage', async () => {
    const slug = await h.save(simpleFlow({ slug: 'cc-flow' }));
    const response = await h.post(`/api/llm/acme/flows/${slug}/run`, { input: { question: 'hello there' } }, h.runToken);
    expect(response.status).toBe(200);
    const runId = response.headers.get('x-run-id')!;
    expect(runId).toMatch(/^run_[0-9a-f]{24}$/);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      id: `chatcmpl-${runId.slice(4)}`,
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'service-flow',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Echo: hello there' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
    });
  });
});
