// Provider calls to https: origins over HTTP/2 (engine/h2-pool.ts), against real TLS servers on 127.0.0.1.
// fixtures/tls/localhost-key.pem and localhost-cert.pem are a self-signed certificate for localhost and
// 127.0.0.1 (valid 100 years) made with openssl for these tests and the benchmarks' fake provider: they secure nothing.
import { readFileSync } from 'node:fs';
import http2, { type Http2ServerRequest, type Http2ServerResponse, type Http2Session, type ServerHttp2Session } from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createProviderFetch, ProviderUnreachable, type ProviderFetch } from '../src/engine/http-fetch.ts';
import { eventStreamText } from '../src/engine/provider-response.ts';

const TLS = join(import.meta.dirname, 'fixtures', 'tls');
const key = readFileSync(join(TLS, 'localhost-key.pem'));
const cert = readFileSync(join(TLS, 'localhost-cert.pem'));

type Handler = (req: Http2ServerRequest, res: Http2ServerResponse, body: string) => void;

/** An HTTP/2 (and HTTP/1.1) TLS server that counts its TCP connections and HTTP/2 sessions. */
async function h2Server(handler: Handler, settings: http2.Settings = {}) {
  const sessions: ServerHttp2Session[] = [];
  const sockets: TLSSocket[] = [];
  let connections = 0;
  const server = http2.createSecureServer({ allowHTTP1: true, key, cert, settings }, (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handler(req, res, body));
  });
  server.on('session', (session: ServerHttp2Session) => sessions.push(session));
  server.on('secureConnection', (socket: TLSSocket) => {
    connections += 1;
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    sessions,
    /** The TLS socket under a session (a session's own `socket` may not be destroyed directly). */
    socketOf: (session: ServerHttp2Session) => sockets.find((socket) => socket.remotePort === session.socket.remotePort)!,
    connections: () => connections,
    close: async () => {
      for (const session of sessions) session.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** `count` SSE events `data: <id>-<n>` and `data: [DONE]`. */
function sse(id: string, count: number): string {
  let out = '';
  for (let n = 1; n <= count; n++) out += `data: ${id}-${n}\n\n`;
  return `${out}data: [DONE]\n\n`;
}

/** Answers with three SSE events written one at a time. */
const streamed: Handler = (req, res) => {
  const id = req.url.split('=')[1];
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const events = sse(id, 3).split(/(?<=\n\n)/);
  let sent = 0;
  const next = () => {
    if (sent === events.length) return res.end();
    res.write(events[sent++]);
    setImmediate(next);
  };
  next();
};

/** A server whose calls answer with a first SSE event and then wait until `releaseAll()`. */
async function holdingServer(settings: http2.Settings = {}) {
  const waiting: Array<() => void> = [];
  const cancelled: number[] = [];
  const server = await h2Server((req, res) => {
    const id = req.url.split('=')[1];
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${id}-1\n\n`);
    req.stream.on('close', () => {
      if (req.stream.rstCode !== http2.constants.NGHTTP2_NO_ERROR) cancelled.push(req.stream.rstCode);
    });
    waiting.push(() => res.end(`data: ${id}-2\n\ndata: [DONE]\n\n`));
  }, settings);
  return {
    ...server,
    waiting,
    cancelled,
    releaseAll: () => {
      for (const release of waiting.splice(0)) release();
    },
  };
}

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Reads a streamed body's first chunk (the held calls' first event). */
async function firstChunk(response: Response): Promise<{ text: string; rest: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  return { text: new TextDecoder().decode(value), rest: reader };
}

async function restOf(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += new TextDecoder().decode(value);
  }
}

describe('provider calls over HTTP/2', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const providerFetch = (options: { idleMs?: number; http1Ms?: number } = {}): ProviderFetch => {
    const created = createProviderFetch({ ca: cert, ...options });
    cleanups.push(() => created.close());
    return created;
  };
  const serve = async <T extends { close(): Promise<unknown> }>(server: Promise<T>): Promise<T> => {
    const started = await server;
    cleanups.push(() => started.close());
    return started;
  };

  it('carries 50 concurrent streamed calls on one TCP connection, each with its whole body', async () => {
    const server = await serve(h2Server(streamed));
    const fetch = providerFetch();
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const response = await fetch(`${server.url}/v1/chat/completions?id=${i}`, { method: 'POST', body: '{}' });
        return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
      }),
    );
    expect(answers).toEqual(Array.from({ length: 50 }, (_, i) => ({ status: 200, type: 'text/event-stream', text: sse(String(i), 3) })));
    expect(server.connections()).toBe(1);
    expect(server.sessions.length).toBe(1);
  });

  it("opens as few sessions as the server's maxConcurrentStreams allow: 25 held calls at 10 a session are 3 sessions", async () => {
    const server = await serve(holdingServer({ maxConcurrentStreams: 10 }));
    const fetch = providerFetch();
    const calls = Array.from({ length: 25 }, (_, i) => fetch(`${server.url}/hold?id=${i}`));
    const responses = await Promise.all(calls);
    const firsts = await Promise.all(responses.map(firstChunk));
    expect(firsts.map((first) => first.text)).toEqual(Array.from({ length: 25 }, (_, i) => `data: ${i}-1\n\n`));
    expect(server.waiting.length).toBe(25);
    expect(server.sessions.length).toBe(3);
    expect(server.connections()).toBe(3);
    server.releaseAll();
    const rests = await Promise.all(firsts.map((first) => restOf(first.rest)));
    expect(rests).toEqual(Array.from({ length: 25 }, (_, i) => `data: ${i}-2\n\ndata: [DONE]\n\n`));
  });

  it('cancels only the aborted call (RST_STREAM CANCEL); the others on the session go on', async () => {
    const server = await serve(holdingServer());
    const fetch = providerFetch();
    const controllers = Array.from({ length: 5 }, () => new AbortController());
    const responses = await Promise.all(controllers.map((controller, i) => fetch(`${server.url}/hold?id=${i}`, { signal: controller.signal })));
    const firsts = await Promise.all(responses.map(firstChunk));
    controllers[0].abort();
    await expect(firsts[0].rest.read()).rejects.toMatchObject({ name: 'AbortError' });
    await until(() => server.cancelled.length === 1);
    expect(server.cancelled).toEqual([http2.constants.NGHTTP2_CANCEL]);
    server.releaseAll();
    const rests = await Promise.all(firsts.slice(1).map((first) => restOf(first.rest)));
    expect(rests).toEqual([1, 2, 3, 4].map((i) => `data: ${i}-2\n\ndata: [DONE]\n\n`));
    expect(server.sessions.length).toBe(1);
    expect(server.connections()).toBe(1);
  });

  it('fails only the calls of a session whose connection is lost: the other sessions go on, and the next call opens another', async () => {
    // Two calls a session; which session carries which call is read on the server's side.
    const bySession = new Map<Http2Session, string[]>();
    const waiting: Array<() => void> = [];
    const server = await serve(
      h2Server(
        (req, res) => {
          const id = req.url.split('=')[1];
          bySession.set(req.stream.session!, [...(bySession.get(req.stream.session!) ?? []), id]);
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(`data: ${id}-1\n\n`);
          waiting.push(() => res.end(`data: ${id}-2\n\ndata: [DONE]\n\n`));
        },
        { maxConcurrentStreams: 2 },
      ),
    );
    const fetch = providerFetch();
    const responses = await Promise.all([0, 1, 2, 3].map((i) => fetch(`${server.url}/hold?id=${i}`)));
    const firsts = await Promise.all(responses.map(firstChunk));
    expect(firsts.map((first) => first.text)).toEqual([0, 1, 2, 3].map((i) => `data: ${i}-1\n\n`));
    expect(server.sessions.length).toBe(2);
    const [lost, kept] = server.sessions;
    const lostIds = bySession.get(lost)!.map(Number);
    expect([...lostIds, ...bySession.get(kept)!.map(Number)].sort()).toEqual([0, 1, 2, 3]);
    // The connection drops without GOAWAY (a provider restarting, a network fault).
    server.socketOf(lost).destroy();
    for (const id of lostIds) {
      await expect(restOf(firsts[id].rest)).rejects.toThrow('the provider closed the connection before the end of its answer');
    }
    // The kept session is full: the next call opens a third one rather than waiting, and is answered.
    const next = await fetch(`${server.url}/hold?id=4`);
    const nextFirst = await firstChunk(next);
    expect(nextFirst.text).toBe('data: 4-1\n\n');
    expect(server.sessions.length).toBe(3);
    for (const release of waiting.splice(0)) release();
    const rests = await Promise.all([...bySession.get(kept)!.map(Number), 4].map((id) => restOf((id === 4 ? nextFirst : firsts[id]).rest)));
    expect(rests).toEqual([...bySession.get(kept)!, '4'].map((id) => `data: ${id}-2\n\ndata: [DONE]\n\n`));
  });

  it('opens a new session for the next call after the server sends GOAWAY', async () => {
    const server = await serve(h2Server((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')));
    const fetch = providerFetch();
    const first = await fetch(`${server.url}/v1/models`);
    expect([first.status, await first.text()]).toEqual([200, '{"ok":true}']);
    const closed = new Promise((resolve) => server.sessions[0].once('close', resolve));
    server.sessions[0].close();
    await closed;
    const second = await fetch(`${server.url}/v1/models`);
    expect([second.status, await second.text()]).toEqual([200, '{"ok":true}']);
    expect(server.sessions.length).toBe(2);
    expect(server.sessions[1].closed).toBe(false);
  });

  it('falls back to HTTP/1.1 for a TLS server that speaks only HTTP/1.1, status and headers intact', async () => {
    const versions: string[] = [];
    let connections = 0;
    const server = https.createServer({ key, cert }, (req, res) => {
      versions.push(req.httpVersion);
      res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'req-7' }).end('{"id":"made"}');
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    cleanups.push(() => server.closeAllConnections());
    const { port } = server.address() as AddressInfo;
    const fetch = providerFetch();
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`https://127.0.0.1:${port}/v1/files`, { method: 'POST', body: 'x' });
      expect([response.status, response.headers.get('content-type'), response.headers.get('x-request-id'), await response.text()]).toEqual([
        201,
        'application/json',
        'req-7',
        '{"id":"made"}',
      ]);
    }
    expect(versions).toEqual(['1.1', '1.1']);
    // The ALPN probe's connection, then one kept-alive connection for both calls.
    expect(connections).toBe(2);
  });

  it('closes a session left without a call for the idle time, and the next call opens another', async () => {
    const server = await serve(h2Server((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')));
    const fetch = providerFetch({ idleMs: 200 });
    expect(await (await fetch(`${server.url}/v1/models`)).text()).toBe('{"ok":true}');
    const closed = new Promise((resolve) => server.sessions[0].once('close', resolve));
    // Another call within the idle time keeps the same session.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await (await fetch(`${server.url}/v1/models`)).text()).toBe('{"ok":true}');
    expect(server.sessions.length).toBe(1);
    await closed;
    expect(await (await fetch(`${server.url}/v1/models`)).text()).toBe('{"ok":true}');
    expect(server.sessions.length).toBe(2);
    expect(server.connections()).toBe(2);
  });

  it('asks an HTTP/1.1-only origin again once the re-check time has passed, and goes over HTTP/2 when it offers it', async () => {
    const versions: string[] = [];
    const answer = (req: { httpVersion: string }, res: { writeHead(status: number): { end(body: string): void } }) => {
      versions.push(req.httpVersion);
      res.writeHead(200).end('ok');
    };
    const old = https.createServer({ key, cert }, answer);
    await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', resolve));
    const { port } = old.address() as AddressInfo;
    const fetch = providerFetch({ http1Ms: 300 });
    const url = `https://127.0.0.1:${port}/v1/models`;
    expect(await (await fetch(url)).text()).toBe('ok');
    // The provider now speaks HTTP/2 on the same port; within the re-check time the calls stay on HTTP/1.1.
    old.closeAllConnections();
    await new Promise((resolve) => old.close(resolve));
    // (the kept-alive connection's end reaches the client before the next call, as an idle close would)
    await new Promise((resolve) => setTimeout(resolve, 50));
    const upgraded = http2.createSecureServer({ allowHTTP1: true, key, cert }, answer);
    await new Promise<void>((resolve) => upgraded.listen(port, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => upgraded.close(resolve)));
    expect(await (await fetch(url)).text()).toBe('ok');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await (await fetch(url)).text()).toBe('ok');
    expect(versions).toEqual(['1.1', '1.1', '2.0']);
    fetch.close();
  });

  it('says a provider could not be reached when nothing listens on the port', async () => {
    const server = https.createServer({ key, cert });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const call = providerFetch()(`https://127.0.0.1:${port}/v1/chat/completions?key=secret`, { method: 'POST', body: '{}' });
    await expect(call).rejects.toThrow(new ProviderUnreachable(`https://127.0.0.1:${port}/v1/chat/completions`, 'connection refused'));
    await expect(call).rejects.toBeInstanceOf(ProviderUnreachable);
  });

  it('sends the request headers and body as given, and returns JSON and 4xx answers whole', async () => {
    const seen: Array<{ headers: Record<string, unknown>; body: string }> = [];
    const server = await serve(
      h2Server((req, res, body) => {
        seen.push({ headers: Object.fromEntries(Object.entries(req.headers)), body });
        if (req.url.startsWith('/v1/bad')) res.writeHead(422, { 'content-type': 'application/json' }).end('{"error":{"message":"model is required"}}');
        else res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] }).end('{"choices":[]}');
      }),
    );
    const fetch = providerFetch();
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Hi ✓' }] });
    const headers = { authorization: 'Bearer sk-test', 'content-type': 'application/json', connection: 'keep-alive', host: '127.0.0.1' };
    const ok = await fetch(`${server.url}/v1/chat/completions?api-version=1`, { method: 'POST', headers, body });
    expect([ok.status, [...ok.headers.keys()], ok.headers.getSetCookie(), await ok.json()]).toEqual([
      200,
      ['content-type', 'date', 'set-cookie', 'set-cookie'],
      ['a=1', 'b=2'],
      { choices: [] },
    ]);
    const bad = await fetch(`${server.url}/v1/bad`, { method: 'POST', headers, body: '{}' });
    expect([bad.status, await bad.text()]).toEqual([422, '{"error":{"message":"model is required"}}']);
    expect(seen[0].body).toBe(body);
    expect(seen[0].headers).toEqual({
      ':method': 'POST',
      ':path': '/v1/chat/completions?api-version=1',
      ':scheme': 'https',
      ':authority': '127.0.0.1',
      authorization: 'Bearer sk-test',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    });
    expect(seen[1]).toMatchObject({ body: '{}', headers: { ':path': '/v1/bad', 'content-length': '2' } });
  });

  it('streams a chat completion through the openai client', async () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    let sent: unknown;
    const server = await serve(
      h2Server((req, res, body) => {
        sent = { path: req.url, authorization: req.headers.authorization, version: req.httpVersion, body: JSON.parse(body) };
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk({ role: 'assistant', content: '' }, null));
        res.write(chunk({ content: 'Hello' }, null));
        res.write(chunk({ content: ' there' }, null));
        res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
      }),
    );
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', fetch: providerFetch(), maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    let text = '';
    const finishes: Array<string | null> = [];
    for await (const part of stream) {
      text += part.choices[0]?.delta.content ?? '';
      finishes.push(part.choices[0]?.finish_reason ?? null);
    }
    expect(text).toBe('Hello there');
    expect(finishes).toEqual([null, null, null, 'stop']);
    expect(sent).toEqual({
      path: '/v1/chat/completions',
      authorization: 'Bearer sk-test',
      version: '2.0',
      body: { model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: true },
    });
  });

  it('hands a 2xx event stream over without a body to rawEventStreams: its text whole and in order, or its error', async () => {
    const euro = Buffer.from('€');
    const server = await serve(
      h2Server((req, res) => {
        res.writeHead(req.url === '/bad' ? 429 : 200, { 'content-type': 'text/event-stream' });
        // A byte order mark first, and a character split across two writes.
        res.write(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('data: 1'), euro.subarray(0, 1)]));
        setTimeout(() => {
          if (req.url === '/cut') return req.stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
          // The connection itself drops: Node still ends the stream's body, then closes it reset.
          if (req.url === '/lost') return server.socketOf(req.stream.session as ServerHttp2Session).destroy();
          res.end(Buffer.concat([euro.subarray(1), Buffer.from('\n\ndata: [DONE]\n\n')]));
        }, 20);
      }),
    );
    const fetch = providerFetch();
    const read = async (path: string) => {
      const response = await fetch.rawEventStreams(`${server.url}${path}`, { method: 'POST', body: '{}' });
      const text = eventStreamText(response);
      if (!text) return { status: response.status, body: await response.text() };
      let all = '';
      for (let part = await text.read(); part !== null; part = await text.read()) all += part;
      return { status: response.status, body: response.body, text: all };
    };
    expect(await read('/ok')).toEqual({ status: 200, body: null, text: 'data: 1€\n\ndata: [DONE]\n\n' });
    await expect(read('/cut')).rejects.toThrow('Stream closed with error code NGHTTP2_INTERNAL_ERROR');
    await expect(read('/lost')).rejects.toThrow('the provider closed the connection before the end of its answer');
    // An error answer keeps its body, for the client to read the provider's message.
    expect(await read('/bad')).toEqual({ status: 429, body: 'data: 1€\n\ndata: [DONE]\n\n' });
  });
});
