import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, createLogger, listen, type App } from '../src/index.ts';

const LIMIT = 1024;

/** Writes raw HTTP/1.1 to the server and collects everything it answers until it closes or goes quiet. */
function exchange(port: number, raw: string): Promise<{ text: string; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let closedByServer = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('end', () => {
      closedByServer = true;
    });
    socket.on('error', reject);
    // The server answers within milliseconds; a second of quiet means it has said everything and kept the connection.
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('close', () => resolve({ text, closedByServer }));
    socket.write(raw);
  });
}

function post(size: number): string {
  return `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n${'"'.padEnd(size - 1, 'y')}"`;
}

const statusLines = (text: string) => text.match(/HTTP\/1\.1 \d{3} [^\r]+/g);

describe('a body over the limit', () => {
  let app: App;
  let port = 0;

  beforeAll(async () => {
    app = createHttpServer({ logger: createLogger({ service: 'sms', level: 'silent' }), bodyLimit: LIMIT });
    app.post('/echo', async (request) => ({ length: String(request.body).length }));
    app.get('/after', async () => ({ ok: true }));
    port = Number(new URL(await listen(app, '127.0.0.1', 0)).port);
  });
  afterAll(() => app.close());

  it('up to twice the limit is answered 413 and read to its end, and the connection serves the next request', async () => {
    const { text, closedByServer } = await exchange(port, `${post(LIMIT * 2)}GET /after HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 413 Payload Too Large', 'HTTP/1.1 200 OK']);
    expect(text.toLowerCase()).not.toContain('connection: close');
    expect(text.endsWith('{"ok":true}')).toBe(true);
    expect(closedByServer).toBe(false);
  });

  it('larger than that is answered 413 and the connection closed, so the rest is never read', async () => {
    const { text, closedByServer } = await exchange(port, `${post(LIMIT * 2 + 1)}GET /after HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 413 Payload Too Large']);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(closedByServer).toBe(true);
  });

  it('at the limit is read and handled as usual', async () => {
    const { text } = await exchange(port, post(LIMIT));
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK']);
    expect(text.endsWith(`{"length":${LIMIT - 2}}`)).toBe(true);
  });
});
