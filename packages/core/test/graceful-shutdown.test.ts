import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createHttpServer, createLogger, listen, stopGracefully, type App } from '../src/index.ts';

/** An app with /health and /stream, a stream of `ticks` lines 20 ms apart, ended early by onGraceEnd with an error line. */
function streamingApp() {
  const app: App = createHttpServer({ logger: createLogger({ service: 'sms', level: 'silent' }), bodyLimit: 1024 });
  const events: string[] = [];
  const open = new Set<{ end(error: string): void }>();
  app.get('/health', async (_request, reply) => (app.shutdown.stopping ? reply.status(503).send({ status: 'stopping' }) : { status: 'ok' }));
  app.get('/stream', async (request, reply) => {
    const ticks = Number((request.query as { ticks: string }).ticks);
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson' });
    await new Promise<void>((resolve) => {
      let n = 0;
      const timer = setInterval(() => {
        reply.raw.write(`${JSON.stringify({ tick: n++ })}\n`);
        if (n === ticks) stream.end('');
      }, 20);
      const stream = {
        end(error: string) {
          clearInterval(timer);
          open.delete(stream);
          reply.raw.end(error ? `${JSON.stringify({ type: 'error', error })}\n` : '');
          resolve();
        },
      };
      open.add(stream);
    });
  });
  app.shutdown.onStop(() => void events.push('stop'));
  app.shutdown.onGraceEnd(() => {
    events.push('grace end');
    for (const stream of open) stream.end('shutting_down');
  });
  return { app, events };
}

/** GET on a new connection: the body, or the connection error's code. */
function get(url: string): Promise<{ status?: number; headers?: Record<string, unknown>; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code }));
    req.end();
  });
}

describe('a graceful stop', () => {
  it('answers /health 503 and refuses new connections at once, and lets a stream in flight finish', async () => {
    const { app, events } = streamingApp();
    const base = await listen(app, '127.0.0.1', 0);
    const stream = get(`${base}/stream?ticks=10`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = stopGracefully(app, 5_000);

    expect((await app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'stopping' });
    expect(await get(`${base}/health`)).toEqual({ error: 'ECONNREFUSED' });
    const answer = await stream;
    expect({ status: answer.status, lines: answer.body!.trim().split('\n') }).toEqual({
      status: 200,
      lines: Array.from({ length: 10 }, (_, tick) => JSON.stringify({ tick })),
    });
    expect(await stopped).toEqual({ cutShort: 0, ms: expect.any(Number) });
    expect(events).toEqual(['stop']);
  });

  it('ends a stream still going when the grace period ends with its error line, then closes', async () => {
    const { app, events } = streamingApp();
    const base = await listen(app, '127.0.0.1', 0);
    const stream = get(`${base}/stream?ticks=1000000`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const report = await stopGracefully(app, 200);
    const answer = await stream;
    expect(report.cutShort).toBe(1);
    expect(answer.body!.trim().split('\n').at(-1)).toBe('{"type":"error","error":"shutting_down"}');
    expect(events).toEqual(['stop', 'grace end']);
  });
});
