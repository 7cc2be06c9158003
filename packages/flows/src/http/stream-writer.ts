import type { FastifyReply } from 'fastify';

/** A response taken over from Fastify for streaming: bytes leave as they are written. */
export interface StreamWriter {
  write(text: string): void;
  end(): void;
}

/**
 * Hijacks the reply, sends 200 with the headers at once (flushHeaders) and
 * returns a writer. No compression and no buffering: each write is one chunk
 * on a no-delay socket. `onClientGone` fires when the client disconnects first.
 */
export function openStream(reply: FastifyReply, contentType: string, extraHeaders: Record<string, string>, onClientGone: () => void): StreamWriter {
  reply.hijack();
  const res = reply.raw;
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value as string;
  Object.assign(headers, extraHeaders, {
    'content-type': contentType,
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  res.socket?.setNoDelay(true);
  res.writeHead(200, headers);
  res.flushHeaders();
  let ended = false;
  res.on('close', () => {
    if (!ended) {
      ended = true;
      res.destroy();
      onClientGone();
    }
  });
  return {
    write(text) {
      if (!ended && !res.destroyed) res.write(text);
    },
    end() {
      if (ended) return;
      ended = true;
      res.end();
    },
  };
}
