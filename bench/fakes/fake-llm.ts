// A fake OpenAI-compatible upstream for the flow benchmarks, run as its own
// process so its CPU does not count against the service or the load generator.
// POST /v1/chat/completions, non-streaming or SSE (`stream: true`, usage in
// the last chunk as with `stream_options.include_usage`). The model picks the pace:
// - any name (e.g. `bench`): the whole answer at once;
// - `paced`: the first token at once, then one token every 5 ms (to show buffering in time to first token);
// - `hold`: the first token at once, then one token a second (FAKE_LLM_HOLD_TICK_MS) until POST /release (to keep streams open);
//   after a release, `hold` calls no longer wait, until POST /hold.
// GET /stats → {"open": held streams now open, "calls": calls so far, "last": the last request body}.
// FAKE_LLM_TLS=DIR (with localhost-key.pem and localhost-cert.pem) serves the same routes over TLS too, HTTP/2 or
// HTTP/1.1 by ALPN, on a second port; the first line printed then names both URLs, the https one first.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo, Server } from 'node:net';
import { join } from 'node:path';

type Request = IncomingMessage | Http2ServerRequest;
type Reply = ServerResponse | Http2ServerResponse;

const ANSWER = 'The quick brown fox jumps over the lazy dog today.';
const TOKENS = ANSWER.match(/\S+\s*/g)!;
const PACE_MS = 5;
// FAKE_LLM_HOLD_TICK_MS: a held stream's pace; streams-probe passes its environment on to the fake upstream.
const HOLD_TICK_MS = Number(process.env.FAKE_LLM_HOLD_TICK_MS ?? 1000);

const held = new Set<() => void>();
let calls = 0;
let holding = true;
let last: unknown = null;

function chunk(model: string, delta: Record<string, unknown>, finish: string | null) {
  return { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] };
}

async function stream(res: Reply, model: string): Promise<void> {
  let closed = false;
  res.once('close', () => (closed = true));
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  // Over HTTP/2 the compat API forwards this to the session's socket, shared by every stream on it.
  res.socket?.setNoDelay(true);
  // Both responses take a string chunk; their write overloads differ only in the callbacks.
  const send = (value: unknown) => (res as Pick<ServerResponse, 'write'>).write(`data: ${JSON.stringify(value)}\n\n`);
  send(chunk(model, { role: 'assistant', content: '' }, null));
  let sent = 0;
  if (model === 'hold' && holding) {
    send(chunk(model, { content: TOKENS[0] }, null));
    sent = 1;
    await new Promise<void>((release) => {
      const tick = setInterval(() => send(chunk(model, { content: ' .' }, null)), HOLD_TICK_MS);
      const done = () => {
        clearInterval(tick);
        held.delete(done);
        release();
      };
      held.add(done);
      res.once('close', done);
    });
    if (closed) return;
  }
  for (; sent < TOKENS.length; sent++) {
    if (model === 'paced' && sent > 0) await new Promise((resolve) => setTimeout(resolve, PACE_MS));
    if (closed) return;
    send(chunk(model, { content: TOKENS[sent] }, null));
  }
  send(chunk(model, {}, 'stop'));
  const usage = { prompt_tokens: 12, completion_tokens: TOKENS.length, total_tokens: 12 + TOKENS.length };
  send({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1, model, choices: [], usage });
  res.end('data: [DONE]\n\n');
}

function handle(req: Request, res: Reply): void {
  const chunks: Buffer[] = [];
  req.on('data', (data: Buffer) => chunks.push(data));
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ open: held.size, calls, last }));
      return;
    }
    if (req.method === 'POST' && req.url === '/hold') {
      holding = true;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"holding":true}');
      return;
    }
    if (req.method === 'POST' && req.url === '/release') {
      const count = held.size;
      holding = false;
      for (const done of [...held]) done();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ released: count }));
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found","type":"invalid_request_error"}}');
      return;
    }
    calls += 1;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model?: string; stream?: boolean };
    last = body;
    const model = String(body.model ?? 'bench');
    if (body.stream === true) {
      void stream(res, model);
      return;
    }
    const usage = { prompt_tokens: 12, completion_tokens: TOKENS.length, total_tokens: 12 + TOKENS.length };
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created: 1,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }],
        usage,
      }),
    );
  });
}

const server = createServer(handle);
server.keepAliveTimeout = 60_000;
// A held stream's request may wait long to be read when 10,000 arrive together: no 408 for a slow start.
server.headersTimeout = 0;
server.requestTimeout = 0;
// No cap on connections (10,000 held streams plus the load generator's and the stats polls'), and a listen
// backlog as deep as the kernel allows (somaxconn): 10,000 calls opened at once overflow Node's default 511,
// and a dropped SYN is sent again only after a second.
const tlsDir = process.env.FAKE_LLM_TLS;
// The TLS server allows as many streams per HTTP/2 session as the client opens, and the memory they need.
const tlsServer = tlsDir
  ? createSecureServer(
      {
        allowHTTP1: true,
        key: readFileSync(join(tlsDir, 'localhost-key.pem')),
        cert: readFileSync(join(tlsDir, 'localhost-cert.pem')),
        maxSessionMemory: 1000,
      },
      handle,
    )
  : undefined;
async function listen(target: Server): Promise<number> {
  await new Promise<void>((resolve) => target.listen({ port: 0, host: '127.0.0.1', backlog: 65_535 }, resolve));
  return (target.address() as AddressInfo).port;
}
const port = await listen(server);
const tlsPort = tlsServer ? await listen(tlsServer) : undefined;
process.stdout.write(
  tlsPort === undefined
    ? `Fake LLM upstream listening on http://127.0.0.1:${port}\n`
    : `Fake LLM upstream TLS listening on https://127.0.0.1:${tlsPort}, plain on http://127.0.0.1:${port}\n`,
);
process.on('SIGTERM', () => {
  for (const done of [...held]) done();
  server.closeAllConnections();
  tlsServer?.close();
  server.close(() => process.exit(0));
});
