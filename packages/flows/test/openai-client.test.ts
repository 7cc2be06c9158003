import OpenAI, { AuthenticationError, NotFoundError, PermissionDeniedError, UnprocessableEntityError, RateLimitError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { startHarness, simpleFlow, type Harness } from './helpers/harness.ts';

describe.each(dialectsUnderTest())('the official openai client on %s', (dialect) => {
  let h: Harness;
  let client: OpenAI;
  beforeAll(async () => {
    h = await startHarness(dialect);
    await h.save(simpleFlow({ slug: 'bot', extraVariables: [{ name: 'tone', type: 'enum', values: ['plain', 'fancy'], default: 'plain' }] }));
    await h.save(simpleFlow({ slug: 'raw-bot', format: 'raw' }));
    await h.save(simpleFlow({ slug: 'broken', model: 'fail' }));
    client = new OpenAI({ baseURL: `${h.base}/api/llm/acme/flows/bot`, apiKey: h.runToken, maxRetries: 0 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('creates a chat completion, mapping the last user message and passing earlier ones as the conversation', async () => {
    const completion = await client.chat.completions.create({
      model: 'service-flow',
      messages: [
        { role: 'system', content: 'Caller rules.' },
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: 'second question' },
      ],
      // extra_body: other Input variables
      ...({ input: { tone: 'fancy' } } as object),
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('service-flow');
    expect(completion.choices[0].message).toEqual({ role: 'assistant', content: 'Echo: second question' });
    expect(completion.usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
    expect(h.upstream.calls.at(-1)!.body.messages).toEqual([
      { role: 'system', content: 'Be brief.\n\nCaller rules.' },
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'second question' },
    ]);
    const run = (await (await h.get('/api/llm/acme/runs?flow=bot&limit=1')).json()) as { runs: Array<{ input: unknown }> };
    expect(run.runs[0].input).toEqual({ question: 'second question', tone: 'fancy' });
  });

  it('wraps a raw flow into a ChatCompletion for OpenAI clients', async () => {
    const raw = new OpenAI({ baseURL: `${h.base}/api/llm/acme/flows/raw-bot`, apiKey: h.runToken, maxRetries: 0 });
    const completion = await raw.chat.completions.create({ model: 'service-flow', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0].message.content).toBe('Echo: hi');
  });

  it('streams with stream: true', async () => {
    const stream = await client.chat.completions.create({ model: 'service-flow', messages: [{ role: 'user', content: 'stream this please' }], stream: true });
    const parts: string[] = [];
    let usage: unknown;
    let finish: string | null = null;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta?.content) parts.push(chunk.choices[0].delta.content);
      if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(parts).toEqual(['Echo: ', 'stream ', 'this ', 'please']);
    expect(finish).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 });
  });

  it('lists service-flow as the model', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['service-flow']);
    expect((await client.models.retrieve('service-flow')).id).toBe('service-flow');
  });

  it('raises the typed errors: AuthenticationError, PermissionDeniedError, NotFoundError, UnprocessableEntityError', async () => {
    const messages = [{ role: 'user' as const, content: 'x' }];
    const bad = new OpenAI({ baseURL: `${h.base}/api/llm/acme/flows/bot`, apiKey: 'sbf_nope', maxRetries: 0 });
    const auth = await bad.chat.completions.create({ model: 'service-flow', messages }).catch((e: unknown) => e);
    expect(auth).toBeInstanceOf(AuthenticationError);
    expect((auth as AuthenticationError).code).toBe('invalid_api_key');

    const other = new OpenAI({ baseURL: `${h.base}/api/llm/other-org/flows/bot`, apiKey: h.runToken, maxRetries: 0 });
    expect(await other.chat.completions.create({ model: 'service-flow', messages }).catch((e: unknown) => e)).toBeInstanceOf(PermissionDeniedError);

    const missing = new OpenAI({ baseURL: `${h.base}/api/llm/acme/flows/nope`, apiKey: h.runToken, maxRetries: 0 });
    const notFound = await missing.chat.completions.create({ model: 'service-flow', messages }).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect((notFound as NotFoundError).code).toBe('flow_not_found');

    const invalid = await client.chat.completions
      .create({ model: 'service-flow', messages, ...({ input: { tone: 'loud' } } as object) })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(UnprocessableEntityError);
    expect((invalid as UnprocessableEntityError).error).toEqual({
      message: 'Input does not match the flow\'s Input node: "tone" must be one of "plain", "fancy"',
      type: 'invalid_request_error',
      param: 'input.tone',
      code: 'invalid_input',
      details: [{ param: 'input.tone', message: '"tone" must be one of "plain", "fancy"' }],
    });
  });

  it('raises an APIError from inside the stream when the upstream fails', async () => {
    const broken = new OpenAI({ baseURL: `${h.base}/api/llm/acme/flows/broken`, apiKey: h.runToken, maxRetries: 0 });
    const stream = await broken.chat.completions.create({ model: 'service-flow', messages: [{ role: 'user', content: 'x' }], stream: true });
    const failure = await (async () => {
      for await (const _chunk of stream) {
        // drain
      }
    })().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).message).toContain('upstream exploded');
  });

  it('raises RateLimitError past FLOWS_RATE_LIMIT', async () => {
    const limited = await startHarness(dialect, { FLOWS_RATE_LIMIT: '2/d' });
    try {
      await limited.save(simpleFlow({ slug: 'bot' }));
      const c = new OpenAI({ baseURL: `${limited.base}/api/llm/acme/flows/bot`, apiKey: limited.runToken, maxRetries: 0 });
      const messages = [{ role: 'user' as const, content: 'x' }];
      await c.chat.completions.create({ model: 'service-flow', messages });
      await c.chat.completions.create({ model: 'service-flow', messages });
      const error = await c.chat.completions.create({ model: 'service-flow', messages }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(Number((error as RateLimitError).headers?.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
