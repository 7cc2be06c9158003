import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** A tool call the fake model makes. */
export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

/** One chat request the fake received. */
export interface ToolUpstreamCall {
  model: string;
  body: {
    messages: Array<{ role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }>;
    tools?: Array<{ function: { name: string; parameters: unknown } }>;
  };
}

/**
 * A fake OpenAI-compatible model server that calls tools. Model names:
 * - `plan:NAME`: step N of the plan registered as NAME (a list of parallel calls per step; a call
 *   named `__say` is text the model writes before its calls, `args.text`) is issued while the request holds N assistant tool-call messages; after the plan, it answers
 *   `Results: ` + every tool message's content joined by ` | `;
 * - `history`: answers `History: ` + the user/assistant messages it got (`role:content`, ` | `);
 * - `system`: answers the system prompt it got;
 * - `echo`: answers `Echo: ` + the last user message.
 * Streams (with usage) or not, as asked. POST /v1/embeddings answers hashed bag-of-words vectors.
 */
export class ToolUpstream {
  readonly calls: ToolUpstreamCall[] = [];
  readonly embeddingCalls: Array<{ model: string; input: string[] }> = [];
  readonly plans = new Map<string, PlannedCall[][]>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/v1`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    if (req.url?.endsWith('/embeddings')) {
      const input: string[] = Array.isArray(body.input) ? body.input : [body.input];
      this.embeddingCalls.push({ model: body.model, input });
      const data = input.map((text, index) => ({ object: 'embedding', index, embedding: embedText(text) }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: input.length, total_tokens: input.length } }));
      return;
    }
    if (!req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const model = String(body.model);
    this.calls.push({ model, body });
    const messages = body.messages as ToolUpstreamCall['body']['messages'];
    const text = (value: unknown) =>
      typeof value === 'string' ? value : Array.isArray(value) ? value.map((p: { text?: string }) => p.text ?? '').join('') : '';
    let calls: PlannedCall[] = [];
    let answer = '';
    if (model.startsWith('plan:')) {
      const plan = this.plans.get(model.slice(5)) ?? [];
      const step = messages.filter((m) => m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0).length;
      if (step < plan.length) {
        calls = plan[step].filter((c) => c.name !== '__say');
        answer = String(plan[step].find((c) => c.name === '__say')?.args.text ?? '');
      } else
        answer = `Results: ${messages
          .filter((m) => m.role === 'tool')
          .map((m) => text(m.content))
          .join(' | ')}`;
    } else if (model === 'history') {
      answer = `History: ${messages
        .filter((m) => m.role === 'user' || m.role === 'assistant')
        .map((m) => `${m.role}:${text(m.content)}`)
        .join(' | ')}`;
    } else if (model === 'system') {
      answer = text(messages.find((m) => m.role === 'system')?.content);
    } else {
      answer = `Echo: ${text([...messages].reverse().find((m) => m.role === 'user')?.content)}`;
    }
    const step = this.calls.length;
    const toolCalls = calls.map((call, index) => ({
      index,
      id: `call_${step}_${index}`,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const finish = calls.length > 0 ? 'tool_calls' : 'stop';
    if (body.stream !== true) {
      const message =
        calls.length > 0
          ? { role: 'assistant', content: answer || null, tool_calls: toolCalls.map(({ index: _i, ...rest }) => rest) }
          : { role: 'assistant', content: answer };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-tools',
          object: 'chat.completion',
          created: 1,
          model,
          choices: [{ index: 0, message, finish_reason: finish }],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: Record<string, unknown>, finishReason: string | null) =>
      res.write(
        `data: ${JSON.stringify({ id: 'chatcmpl-tools', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
      );
    send({ role: 'assistant', content: '' }, null);
    for (const token of calls.length > 0 ? (answer.match(/\S+\s*|\s+/g) ?? []) : []) send({ content: token }, null);
    if (calls.length > 0) {
      // Parallel calls: every call's header first, then its arguments in two pieces, as OpenAI streams them.
      for (const call of toolCalls)
        send({ tool_calls: [{ index: call.index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, null);
      for (const call of toolCalls) {
        const half = Math.floor(call.function.arguments.length / 2);
        send({ tool_calls: [{ index: call.index, function: { arguments: call.function.arguments.slice(0, half) } }] }, null);
        send({ tool_calls: [{ index: call.index, function: { arguments: call.function.arguments.slice(half) } }] }, null);
      }
    } else {
      for (const token of answer.match(/\S+\s*|\s+/g) ?? []) send({ content: token }, null);
    }
    send({}, finish);
    res.write(`data: ${JSON.stringify({ id: 'chatcmpl-tools', object: 'chat.completion.chunk', created: 1, model, choices: [], usage })}\n\n`);
    res.end('data: [DONE]\n\n');
  }
}

const STOP = new Set('a an and are as at be by can do does for from how i if in is it my of on or the to what when where which with you your'.split(' '));

/** A deterministic embedding: content words (no stop words, plural folded) hashed into 256 buckets. */
export function embedText(text: string): number[] {
  const vector = new Array<number>(256).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (STOP.has(raw)) continue;
    const word = raw.length > 3 && raw.endsWith('s') ? raw.slice(0, -1) : raw;
    let hash = 0;
    for (const char of word) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
    vector[hash % 256] += 1;
  }
  return vector;
}
