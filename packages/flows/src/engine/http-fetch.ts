import http from 'node:http';
import https from 'node:https';
import { headersOf, urlOf, webHeaders } from '@switchboard/core';

// Keep-alive pools shared by every provider call: the upstream connection is reused across runs.
// No cap on open sockets: a cap would queue streams behind each other (1,000 open SSE runs need 1,000 upstream calls).
const httpAgent = new http.Agent({ keepAlive: true, maxFreeSockets: 256 });
const httpsAgent = new https.Agent({ keepAlive: true, maxFreeSockets: 256 });

// Socket errors that mean no answer could come: nothing listens, no such host, no route.
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
};

/**
 * A provider call that never reached the provider: it says so and where it
 * was sent (without a query string), instead of a socket error that reads as
 * if the provider had answered.
 */
export class ProviderUnreachable extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`Provider could not be reached at ${url} (${reason})`, options);
    this.name = 'ProviderUnreachable';
  }
}

/** `error` as a ProviderUnreachable when it is a socket error before any answer from `url`, else unchanged. */
export function unreachableOr(error: Error, url: URL): Error {
  const reason = UNREACHABLE[(error as NodeJS.ErrnoException).code ?? ''];
  return reason ? new ProviderUnreachable(`${url.origin}${url.pathname}`, reason, { cause: error }) : error;
}

/**
 * A `fetch` for the AI SDK providers over node:http with keep-alive agents.
 * The providers (request building, response parsing, streaming) are the AI
 * SDK's; only the transport is this. Node 20's built-in fetch costs about
 * 2 ms of CPU per call (web streams all the way down), several times a
 * node:http round trip, which is most of a flow's overhead budget.
 * Supports what provider calls use: string bodies, AbortSignal, streamed responses.
 */
export const providerFetch: typeof fetch = (input, init) => {
  const url = new URL(urlOf(input));
  const body = init?.body;
  if (body !== undefined && body !== null && typeof body !== 'string') return fetch(input, init);
  const signal = init?.signal ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const client = url.protocol === 'https:' ? https : http;
    const headers = headersOf(init);
    if (body) headers['content-length'] = String(Buffer.byteLength(body));
    let answered = false;
    const request = client.request(url, { method: init?.method ?? 'GET', headers, agent: url.protocol === 'https:' ? httpsAgent : httpAgent }, (response) => {
      answered = true;
      const status = response.statusCode ?? 500;
      const init2 = { status, statusText: response.statusMessage, headers: webHeaders(response.headers) };
      if (status === 204 || status === 304 || init?.method === 'HEAD') {
        response.resume();
        resolve(new Response(null, init2));
      } else if (String(response.headers['content-type'] ?? '').includes('text/event-stream')) {
        // Streams pass through as they arrive: each chunk is enqueued the moment it is read
        // (Readable.toWeb adds a scheduling hop per chunk; token streams are small, so no backpressure is needed).
        let open = true;
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            const finish = (error?: Error) => {
              if (!open) return;
              open = false;
              if (error) controller.error(error);
              else controller.close();
            };
            response.on('data', (chunk: Buffer) => {
              if (open) controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            });
            response.on('end', () => finish());
            response.on('error', (error) => finish(error));
            response.on('close', () => finish(response.complete ? undefined : new Error('the provider closed the connection before the end of its answer')));
          },
          cancel() {
            open = false;
            response.destroy();
          },
        });
        resolve(new Response(body, init2));
      } else {
        // Whole answers are read with node streams: cheaper than a web stream the SDK reads to the end anyway.
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(new Response(Buffer.concat(chunks), init2)));
        response.on('error', reject);
        response.on('close', () => {
          if (!response.complete) reject(new Error('the provider closed the connection before the end of its answer'));
        });
      }
    });
    const onAbort = () => request.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('close', () => signal?.removeEventListener('abort', onAbort));
    request.on('error', (error) => reject(answered || signal?.aborted ? error : unreachableOr(error, url)));
    request.end(body ?? undefined);
  });
};
