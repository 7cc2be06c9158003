import { createServer, type Server } from 'node:http';

/**
 * A small OpenAI-compatible upstream (POST /v1/chat/completions, streaming or
 * not) whose answers wait at a gate: the first word goes out at once, the rest
 * when the test opens the gate. So a test holds a flow run in flight as long
 * as it likes, across a stop, a crash or a restart. Model `history` answers at
 * once, with the messages it was sent.
 */
export interface GatedUpstream {
  /** Base URL to configure as an openai-compatible provider. */
  url: string;
  /** Calls received so far. */
  calls: number;
  /** Lets every held answer (and every later one) finish. */
  open(): void;
  /** Closes the gate again: later answers wait for the next open(). */
  shut(): void;
  close(): Promise<void>;
}

/** Starts the upstream with its gate closed; every answer is "Hello world". */
export async function startGatedUpstream(): Promise<GatedUpstream> {
  let opened = false;
  const waiting: Array<() => void> = [];
  const gate = () => (opened ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)));
  const state = { calls: 0 };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', async () => {
      state.calls += 1;
      const body = JSON.parse(raw) as { model: string; stream?: boolean; messages: Array<{ role: string; content: string }> };
      const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
      const base = { id: 'chatcmpl-gated', created: 1, model: body.model };
      if (body.model === 'history') {
        // Model `history`: answers at once with the conversation it was given (what memory passed on).
        const content = `History: ${body.messages
          .filter((m) => m.role !== 'system')
          .map((m) => `${m.role}:${m.content}`)
          .join(' | ')}`;
        if (!body.stream) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              ...base,
              object: 'chat.completion',
              choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
              usage,
            }),
          );
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: null }] })}\n\n`,
        );
        res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
        res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
        res.end('data: [DONE]\n\n');
        return;
      }
      if (!body.stream) {
        await gate();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            ...base,
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: 'Hello world' }, finish_reason: 'stop' }],
            usage,
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null, extra: object = {}) =>
        res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
      chunk({ role: 'assistant', content: 'Hello' }, null);
      await gate();
      if (res.destroyed) return;
      chunk({ content: ' world' }, null);
      chunk({}, 'stop');
      res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`,
    get calls() {
      return state.calls;
    },
    open() {
      opened = true;
      for (const resolve of waiting.splice(0)) resolve();
    },
    shut() {
      opened = false;
    },
    async close() {
      opened = true;
      for (const resolve of waiting.splice(0)) resolve();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
