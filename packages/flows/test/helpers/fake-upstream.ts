import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** One request the fake upstream received. */
export interface UpstreamCall {
  model: string;
  stream: boolean;
  body: Record<string, unknown>;
  authorization: string | undefined;
  headers: IncomingHttpHeaders;
  /** True when the caller closed the connection before the reply ended. */
  aborted: boolean;
}

/**
 * A fake OpenAI-compatible server (POST /v1/chat/completions). The model name
 * picks the behaviour:
 * - `echo` (default): answers "Echo: <last user message>" in word tokens;
 * - `reply:<text>`: answers <text> in word tokens;
 * - `fail`: 500 with an OpenAI error body;
 * - `status:<code>`: that status with an OpenAI error body;
 * - `garbage`: 200 with a body that is not JSON (an SSE event that is not JSON when streaming);
 * - `fail-mid`: streams two tokens, then drops the connection;
 * - `slow`: streams a token every 100 ms, 50 of them;
 * - `hang`: never answers;
 * - `late:<ms>:<text>`: answers <text> after <ms> milliseconds (when its caller is still there);
 * - `barrier:<text>`: holds the answer until a second `barrier:` call arrives (proves two calls run concurrently);
 * - `gated:<text>`: answers <text>, streaming every token but the last at once and the last after `openGate()`
 *   (a test sees the stream arrive before it ends); offered tools and no tool result yet, it first calls the
 *   first tool with `{}`.
 * Usage is prompt_tokens 7, completion_tokens = number of tokens.
 */
export class FakeUpstream {
  readonly calls: UpstreamCall[] = [];
  private server: Server | undefined;
  url = '';
  /** Resolves the next time a call is aborted by the client. */
  private abortWaiters: Array<() => void> = [];
  private barrier: Array<() => void> = [];
  private gate: Array<() => void> = [];
  /** How many `gated:` answers are holding their last token now. */
  gateHeld = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${address.port}/v1`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Lets the `gated:` answers holding their last token send it. */
  openGate(): void {
    for (const release of this.gate.splice(0)) release();
  }

  /** Streams a call of the first offered tool with `{}` as arguments (OpenAI's streamed tool_calls shape). */
  private callFirstTool(body: Record<string, unknown>, model: string, res: ServerResponse): void {
    const name = (body.tools as Array<{ function: { name: string } }>)[0].function.name;
    const id = 'chatcmpl-upstream';
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: Record<string, unknown>, finish: string | null) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    send({ role: 'assistant', content: '' }, null);
    send({ tool_calls: [{ index: 0, id: 'call_gated_1', type: 'function', function: { name, arguments: '' } }] }, null);
    send({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }, null);
    send({}, 'tool_calls');
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model, choices: [], usage: { prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 } })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
  }

  /** Waits until a call (of `model`, when given) has been aborted by its client. */
  async waitForAbort(model?: string): Promise<void> {
    while (!this.calls.some((c) => c.aborted && (model === undefined || c.model === model))) {
      await new Promise<void>((resolve) => this.abortWaiters.push(resolve));
    }
  }

  /** Anthropic's Messages API: answers "Claude: <last user message>" (tokens by word), streaming or not. */
  private anthropic(body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse): void {
    const messages = (body.messages as Array<{ role: string; content: Array<{ type: string; text: string }> | string }>) ?? [];
    const last = [...messages].reverse().find((m) => m.role === 'user');
    const question = typeof last?.content === 'string' ? last.content : (last?.content ?? []).map((p) => p.text).join('');
    this.calls.push({
      model: String(body.model),
      stream: body.stream === true,
      body,
      authorization: req.headers['x-api-key'] as string | undefined,
      headers: req.headers,
      aborted: false,
    });
    const text = `Claude: ${question}`;
    const tokens = text.match(/\S+\s*|\s+/g) ?? [];
    if (body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [{ type: 'text', text }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 4, output_tokens: tokens.length },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 4, output_tokens: 0 },
      },
    });
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    for (const token of tokens) send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: token } });
    send('content_block_stop', { type: 'content_block_stop', index: 0 });
    send('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: tokens.length } });
    send('message_stop', { type: 'message_stop' });
    res.end();
  }

  /**
   * GET …/models, in OpenAI's shape or, for a caller sending `anthropic-version`,
   * Anthropic's. A key containing `wrong` gets 401 with a message that quotes
   * the key (as some providers do), a key containing `slow` an answer after 3 s.
   */
  private models(req: IncomingMessage, res: ServerResponse): void {
    const anthropic = req.headers['anthropic-version'] !== undefined;
    const key = String(req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /, '') ?? '');
    this.calls.push({ model: '', stream: false, body: {}, authorization: req.headers.authorization, headers: req.headers, aborted: false });
    if (key.includes('wrong')) {
      const message = `Incorrect API key provided: ${key}`;
      const body = anthropic
        ? { type: 'error', error: { type: 'authentication_error', message } }
        : { error: { message, type: 'invalid_request_error', code: 'invalid_api_key' } };
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    const ids = anthropic ? ['claude-test-1', 'claude-test-2'] : ['echo', 'slow', 'text-embedding-test'];
    const body = anthropic
      ? {
          data: ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' })),
          has_more: false,
          first_id: ids[0],
          last_id: ids[ids.length - 1],
        }
      : { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 1, owned_by: 'fake' })) };
    const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (key.includes('slow')) setTimeout(send, 3000);
    else send();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method === 'GET' && req.url?.split('?')[0].endsWith('/models')) {
      this.models(req, res);
      return;
    }
    if (req.method === 'POST' && req.url?.endsWith('/messages')) {
      this.anthropic(JSON.parse(Buffer.concat(chunks).toString('utf8')), req, res);
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    const model = String(body.model);
    const call: UpstreamCall = { model, stream: body.stream === true, body, authorization: req.headers.authorization, headers: req.headers, aborted: false };
    this.calls.push(call);
    let killed = false;
    res.on('close', () => {
      if (!res.writableFinished && !killed) {
        call.aborted = true;
        for (const waiter of this.abortWaiters.splice(0)) waiter();
      }
    });
    if (model === 'hang') return;
    if (model.startsWith('late:')) {
      await new Promise((resolve) => setTimeout(resolve, Number(model.split(':')[1])));
      if (res.destroyed) return;
    }
    if (model.startsWith('barrier:')) {
      await new Promise<void>((resolve) => {
        this.barrier.push(resolve);
        if (this.barrier.length >= 2) for (const release of this.barrier.splice(0)) release();
      });
    }
    if (model === 'fail') {
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'upstream exploded', type: 'server_error', code: null } }));
      return;
    }
    if (model === 'garbage') {
      if (call.stream) res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: {"choices": [\n\n');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json</html>');
      return;
    }
    if (model.startsWith('status:')) {
      res
        .writeHead(Number(model.slice('status:'.length)), { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `answered ${model}`, type: 'invalid_request_error', code: null } }));
      return;
    }
    const messages = (body.messages as Array<{ role: string; content: unknown }>) ?? [];
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    const gated = model.startsWith('gated:');
    if (gated && call.stream && Array.isArray(body.tools) && body.tools.length > 0 && !messages.some((m) => m.role === 'tool')) {
      this.callFirstTool(body, model, res);
      return;
    }
    const text = model.startsWith('late:')
      ? model.split(':').slice(2).join(':')
      : model.startsWith('reply:') || model.startsWith('barrier:') || gated
        ? model.slice(model.indexOf(':') + 1)
        : model === 'slow'
          ? Array.from({ length: 50 }, (_, i) => `t${i} `).join('')
          : `Echo: ${String(lastUser?.content ?? '')}`;
    const tokens = text.match(/\S+\s*|\s+/g) ?? [];
    const usage = { prompt_tokens: 7, completion_tokens: tokens.length, total_tokens: 7 + tokens.length };
    const id = 'chatcmpl-upstream';
    if (!call.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created: 1,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (value: unknown) => res.write(`data: ${JSON.stringify(value)}\n\n`);
    const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created: 1,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    send(chunk({ role: 'assistant', content: '' }, null));
    for (const [index, token] of tokens.entries()) {
      if (model === 'fail-mid' && index === 2) {
        killed = true;
        // Let the tokens already written reach the client before the connection drops.
        await new Promise((resolve) => setTimeout(resolve, 50));
        res.destroy();
        return;
      }
      if (model === 'error-chunk' && index === 2) {
        // An error sent as a chunk of the stream (as OpenAI does when it fails mid-answer), then the end.
        send({ error: { message: 'The server had an error while processing your request', type: 'server_error' } });
        res.end();
        return;
      }
      if (gated && index === tokens.length - 1) {
        this.gateHeld += 1;
        await new Promise<void>((resolve) => this.gate.push(resolve));
        this.gateHeld -= 1;
        if (res.destroyed) return;
      }
      if (model === 'slow') {
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (res.destroyed) return;
      }
      send(chunk({ content: token }, null));
    }
    send(chunk({}, 'stop'));
    send({ id, object: 'chat.completion.chunk', created: 1, model, choices: [], usage });
    res.end('data: [DONE]\n\n');
  }
}
